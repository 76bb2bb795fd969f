"""Today's date, one definition for every app: the calendar day in settings.TIME_ZONE."""

import datetime as dt

from django.utils import timezone


def today() -> dt.date:
    return timezone.localdate()
