"""The JSON API v1."""
