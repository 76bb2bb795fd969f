"""Signing in: Django's ModelBackend, reading the signed-in user with one plain query.

Every logged-in request loads its user (`get_user`). Django compiles the ORM query for
it anew each time, which was a third of the home page's time; this reads the same row
with SQL built once per process, through a raw queryset, so the model, its field
conversions (time zones) and the active-user check are Django's own.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import backends, get_user_model
from django.db import connection


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        found = list(model._default_manager.raw(_user_sql(), [user_id]))
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None


@cache
def _user_sql() -> str:
    meta = get_user_model()._meta
    q = connection.ops.quote_name
    columns = ", ".join(q(field.column) for field in meta.concrete_fields)
    return f"SELECT {columns} FROM {q(meta.db_table)} WHERE {q(meta.pk.column)} = %s"
