"""Builders and helpers the tests share. No module here is named test_*: none is collected."""
