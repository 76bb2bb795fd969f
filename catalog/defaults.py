def load_default_catalog() -> str:
    return "nothing to load yet"
