from django.apps import AppConfig


class BenchmarksAppConfig(AppConfig):
    name = "benchmarks_app"
    verbose_name = "Benchmarks"

    def ready(self) -> None:
        # Celery signal receivers; they only fire inside a worker process.
        from . import signals, worker_hooks  # noqa: F401

        signals.connect()
