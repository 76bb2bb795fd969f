"""Django's makemessages, also collecting the message registry's `N_` and `NP_` texts."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=NP_:1,2"]
