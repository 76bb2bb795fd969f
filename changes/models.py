"""One row per write that can change a figure: the log a data generation is read from."""

import secrets

from django.db import models
from django.utils import timezone


def new_token() -> str:
    return secrets.token_hex(8)


class Change(models.Model):
    """A write that can change a plan's figures: what kind, which object, when.

    The id is the generation number. `token` is random, so a generation key never
    repeats across databases (a test's rolled-back rows, a database rebuilt under a
    cache that outlived it), even where ids do.
    """

    token = models.CharField(max_length=16, default=new_token, editable=False)
    kind = models.CharField("kind", max_length=40)
    object_type = models.CharField("object type", max_length=60, blank=True)
    object_id = models.CharField("object id", max_length=64, blank=True)
    label = models.CharField("object", max_length=200, blank=True)
    at = models.DateTimeField("when", default=timezone.now)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.label}".strip()
