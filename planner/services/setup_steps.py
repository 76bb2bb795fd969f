"""What `make run` loads after migrating, in order. Each step is idempotent and
returns a one-line summary of what it changed."""

from collections.abc import Callable


def _default_catalog() -> str:
    from catalog.defaults import load_default_catalog

    return load_default_catalog()


def _benchmark_profiles() -> str:
    from benchmarks_app.profiles_loader import load_shipped_profiles

    return str(load_shipped_profiles())


def _reference_runs() -> str:
    from benchmarks_app.reference import import_reference_runs

    return import_reference_runs()


SETUP_STEPS: list[tuple[str, Callable[[], str]]] = [
    ("default catalog", _default_catalog),
    ("benchmark profiles", _benchmark_profiles),
    ("reference runs", _reference_runs),
]
