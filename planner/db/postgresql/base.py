"""Django's PostgreSQL engine, retrying a request's first query once on a dropped connection.

A connection is kept between requests (CONN_MAX_AGE) and checked before a request's first
query (CONN_HEALTH_CHECKS). The server may still drop it between that check and the query
(a backend terminated, a restart, a proxy's idle cut): the query then fails with a
connection error although nothing of the request has run. That one query, and only it
(outside any transaction, the connection no longer usable), is run once more on a new
connection; any later failure is the request's to answer, since earlier queries of it may
have run on the lost connection. Django offers no hook for this: a cursor wrapper of our
own is the documented way to subclass an engine (`ENGINE` names this package).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.signals import request_started
from django.db import connections
from django.db.backends.postgresql import base
from django.db.backends.utils import CursorWrapper
from django.db.utils import InterfaceError, OperationalError

logger = logging.getLogger(__name__)


class RetryFirstQuery:
    """A cursor wrapper's `_execute`, retried once as the module says."""

    db: DatabaseWrapper
    cursor: Any

    def _execute(self, sql: str, params: Any, *ignored_wrapper_args: Any) -> Any:
        db = self.db
        first, db.first_query_of_request = db.first_query_of_request, False
        try:
            return super()._execute(sql, params, *ignored_wrapper_args)  # type: ignore[misc]
        except (OperationalError, InterfaceError):
            if not first or db.in_atomic_block or db.is_usable():
                raise
            logger.warning("database connection dropped; the request's first query retried")
            db.close()
            db.ensure_connection()
            self.cursor = db.create_cursor()
            return super()._execute(sql, params, *ignored_wrapper_args)  # type: ignore[misc]


class RetryingCursor(RetryFirstQuery, CursorWrapper):
    pass


class RetryingDebugCursor(RetryFirstQuery, base.CursorDebugWrapper):
    pass


class DatabaseWrapper(base.DatabaseWrapper):
    first_query_of_request = False

    def make_cursor(self, cursor: Any) -> CursorWrapper:
        return RetryingCursor(cursor, self)

    def make_debug_cursor(self, cursor: Any) -> CursorWrapper:
        return RetryingDebugCursor(cursor, self)


def _new_request(**kwargs: Any) -> None:
    for connection in connections.all(initialized_only=True):
        if isinstance(connection, DatabaseWrapper):
            connection.first_query_of_request = True


request_started.connect(_new_request, dispatch_uid="planner-db-first-query")
