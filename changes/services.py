"""Writing the change log: one row per write that can change a plan's figures.

`record(kind, obj)` is called by each app's signal receivers (a model saved or deleted,
the admin's included) and explicitly where a write bypasses the signals (a queryset
`update()` that ends a run). A bulk write (an import) saves its rows inside `quiet()`,
so they record nothing one by one, and then records itself once.

The row is inserted in the writer's own transaction, so the generation it advances
(`selectors.current_generation`) becomes visible to every other connection exactly when
the data does, at commit: never before it (a reader would cache old figures under the
new generation) and never lost after it (a process that dies between commit and an
`on_commit` hook would leave the old generation in place). Each write inserts its own
row, so no counter row is held locked during a long import.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from changes import selectors
from changes.models import Change

_quiet: contextvars.ContextVar[bool] = contextvars.ContextVar("changes_quiet", default=False)


def record(kind: str, obj: Any = None, *, label: str | None = None) -> Change | None:
    """Log one write of `obj` (a model instance, or None for a write of many rows).

    `kind` says what happened: "tier.saved", "price.deleted", "run.finished", ...
    `label` names the object for a reader (default: `str(obj)`). Inside `quiet()`
    nothing is written.
    """
    if _quiet.get():
        return None
    return _write(kind, obj, label)


@contextmanager
def quiet() -> Iterator[None]:
    """Rows saved inside record nothing: a bulk write records itself once, after."""
    outer = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(outer)


def _write(kind: str, obj: Any, label: str | None) -> Change:
    object_type = object_id = ""
    if obj is not None:
        meta = obj._meta
        object_type = f"{meta.app_label}.{meta.model_name}"
        object_id = "" if obj.pk is None else str(obj.pk)
    if label is None:
        label = "" if obj is None else str(obj)
    change = Change.objects.create(
        kind=kind[:40], object_type=object_type, object_id=object_id[:64], label=label[:200]
    )
    selectors.written()
    return change
