from django.apps import AppConfig
from django.core.signals import request_finished, request_started


class ChangesConfig(AppConfig):
    name = "changes"
    verbose_name = "Data changes"

    def ready(self) -> None:
        from changes import selectors

        # The data generation is read once per request (changes.selectors).
        request_started.connect(selectors.hold_for_request, dispatch_uid="generation-hold")
        request_finished.connect(selectors.release, dispatch_uid="generation-release")
