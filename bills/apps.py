from django.apps import AppConfig


class BillsConfig(AppConfig):
    name = "bills"
    verbose_name = "Cloud bills"
