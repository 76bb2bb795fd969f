from django.apps import AppConfig


class PlannerConfig(AppConfig):
    name = "planner"
    verbose_name = "Plans"

    def ready(self) -> None:
        from catalog.page_frame import register_warmer
        from planner import signals
        from planner.web import tier_search

        signals.connect()
        # The tier picker's index is warmed with the catalog's caches after a price sync.
        register_warmer(tier_search.warm)
