"""Reading the change log: the data generation, and what changed since one.

`current_generation()` is one cheap query. Its `key` changes with every recorded write
(and when rows are pruned): cache keys of figures, pages and memos hold it, so nothing
cached is served once the data under it changed. Its `number` is the newest change's
id: a page that kept the number its figures were computed at can list what changed
since (`changes_since`).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from changes.models import Change

# A database with no change recorded yet has no token to tell it from another one in
# the same state (a test's, after a rollback): keys then hold this process's own token,
# so such a state is never shared through a cache that outlives it.
_EMPTY = f"empty-{secrets.token_hex(8)}"


@dataclass(frozen=True)
class Generation:
    number: int  # the newest change's id; 0 before any
    key: str  # for cache keys: changes with every recorded write

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class ChangeRow:
    generation: int
    kind: str
    object_type: str
    object_id: str
    label: str
    at: dt.datetime


# The generation read in this request, read once (`hold_for_request`, from the request
# signals): a mutable holder, so a view run in another thread of the same request (ASGI)
# shares it. A write recorded in the request empties it (`changes.services.record`).
_held: contextvars.ContextVar[list[Generation] | None] = contextvars.ContextVar(
    "generation_held", default=None
)


def hold_for_request(**_: Any) -> None:
    """From here on, this request reads the generation once."""
    _held.set([])


def release(**_: Any) -> None:
    """The request is over: the next one (or code outside a request) reads afresh."""
    _held.set(None)


def written() -> None:
    """A write was recorded: the generation read earlier in this request is stale."""
    held = _held.get()
    if held:
        held.clear()


def current_generation() -> Generation:
    """The data generation: one query over the change log's primary key, once a request.

    The row count is in the key beside the newest id: a write that committed after a
    later-numbered one (a long import) still changes it.
    """
    held = _held.get()
    if held:
        return held[0]
    return generation_with(None)[0]


def generation_with(sql: str | None, params: Sequence[Any] = ()) -> tuple[Generation, Any]:
    """The data generation and the value of one more scalar query, in one round trip
    (a cached page checks its link is live in the same query)."""
    q = connection.ops.quote_name
    table, pk = q(Change._meta.db_table), q("id")
    newest = f"FROM {table} ORDER BY {pk} DESC LIMIT 1"
    columns = [
        f"(SELECT {pk} {newest})",
        f"(SELECT {q('token')} {newest})",
        f"(SELECT COUNT(*) FROM {table})",
        f"({sql})" if sql else "NULL",
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", list(params))
        number, token, count, value = cursor.fetchone()
    generation = (
        Generation(0, _EMPTY)
        if number is None
        else (Generation(number, f"{number}.{count}.{token}"))
    )
    held = _held.get()
    if held is not None:
        held[:] = [generation]
    return generation, value


def changes_since(generation: int, *, limit: int = 50) -> list[ChangeRow]:
    """What changed after `generation` (a `Generation.number` kept with some figures),
    newest first: why a figure computed then may differ now."""
    rows = Change.objects.filter(id__gt=generation).order_by("-id")[:limit]
    return [_row(change) for change in rows]


def changes_after(moment: dt.datetime, *, limit: int = 50) -> list[ChangeRow]:
    """What changed after `moment` (a share's creation), newest first."""
    rows = Change.objects.filter(at__gt=moment).order_by("-id")[:limit]
    return [_row(change) for change in rows]


def recent_changes(limit: int = 20) -> list[ChangeRow]:
    """The newest changes, newest first."""
    return [_row(change) for change in Change.objects.order_by("-id")[:limit]]


def _row(change: Change) -> ChangeRow:
    return ChangeRow(
        generation=change.pk,
        kind=change.kind,
        object_type=change.object_type,
        object_id=change.object_id,
        label=change.label,
        at=change.at,
    )
