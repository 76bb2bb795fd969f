from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Price catalog"

    def ready(self) -> None:
        from catalog import signals

        signals.connect()
