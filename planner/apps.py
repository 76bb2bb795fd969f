from django.apps import AppConfig


class PlannerConfig(AppConfig):
    name = "planner"
    verbose_name = "Plans"

    def ready(self) -> None:
        from planner import signals

        signals.connect()
