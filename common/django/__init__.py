"""The shared helpers that need Django (settings, translation, the cache, templates).

The rest of common/ is pure Python; import-linter's contract names this package as the
one place in common/ that may import Django.
"""
