"""Django's makemessages, also collecting the message registry's `N_` and `NP_` texts and
the `_lazy` (gettext_lazy) ones of planner/web/views.py."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=NP_:1,2",
                       "--keyword=_lazy"]  # fmt: skip
