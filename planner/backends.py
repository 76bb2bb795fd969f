"""Signing in: Django's ModelBackend, reading the signed-in user with one plain query.

Every logged-in request loads its user (`get_user`). Django compiles the ORM query for
it anew each time, which was a third of the home page's time; this reads the same row
with SQL (and the column conversions the ORM would apply, such as aware dates) worked
out once per process, and builds the user with `Model.from_db` as the ORM does. The
active-user check is Django's own.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import backends, get_user_model
from django.db import connection


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        sql, names, converters = _user_read()
        with connection.cursor() as cursor:
            cursor.execute(sql, [user_id])
            row = cursor.fetchone()
        if row is None:
            return None
        values = list(row)
        for i, column, functions in converters:
            for convert in functions:
                values[i] = convert(values[i], column, connection)
        user = get_user_model().from_db(connection.alias, names, values)
        return user if self.user_can_authenticate(user) else None


@cache
def _user_read() -> tuple[str, list[str], list[tuple[int, Any, list]]]:
    """The user row's SQL, its fields' names, and each column's converters (those the
    ORM's compiler applies: the backend's, then the field's)."""
    meta = get_user_model()._meta
    q = connection.ops.quote_name
    fields = list(meta.concrete_fields)
    columns = ", ".join(q(field.column) for field in fields)
    sql = f"SELECT {columns} FROM {q(meta.db_table)} WHERE {q(meta.pk.column)} = %s"
    converters = []
    for i, field in enumerate(fields):
        column = field.get_col(meta.db_table)
        functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if functions:
            converters.append((i, column, functions))
    return sql, [field.attname for field in fields], converters
