"""Persistence and services: the only writers, and the reads beside them."""
