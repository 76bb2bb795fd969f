"""Whose imported runs count (docs/design.md, "Whose runs count"; issue 23 item 6).

A run imported by a user who is not staff sizes that user's plans at once, and everyone
else's once a staff member confirms its host's tier link: nobody changes another user's
figures. The planner reads runs for one user at a time, the viewer: the signed-in user of
the request (`EvidenceViewer` middleware; the API's token sets `request.user` before a view
reads), or the plan's owner where a page shows someone else's plan (`evidence_of`). Outside
a request (tasks, commands) there is no viewer: only confirmed runs count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_viewer: ContextVar[Callable[[], int | None] | None] = ContextVar("evidence_viewer", default=None)


def viewer() -> int | None:
    """The id of the user whose own unconfirmed imports count now, or None."""
    found = _viewer.get()
    return found() if found is not None else None


@contextmanager
def evidence_of(user_id: int | None) -> Iterator[None]:
    """Read runs as `user_id` sees them (None: only confirmed runs) inside the block."""
    token = _viewer.set(lambda: user_id)
    try:
        yield
    finally:
        _viewer.reset(token)


class EvidenceViewer:
    """Middleware: the request's user is the viewer (read when a run is first looked up, so
    an API token's user counts: the token is checked after the middleware runs)."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        def user_id() -> int | None:
            user = getattr(request, "user", None)
            return user.pk if user is not None and user.is_authenticated else None

        token = _viewer.set(user_id)
        try:
            return self.get_response(request)
        finally:
            _viewer.reset(token)
