"""Where each price feed stands: its newest run per region and when the next is due.

Read by the public sources page and the admin's "Sync now" page. The next run comes
from the Celery beat schedule in settings (`catalog-sync-<source>`); a source without
an entry there (the ECB history, or one switched off) runs only on request.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from catalog.feeds.registry import SOURCES
from catalog.models import FeedImport
from common.django.message_render import render
from common.messages import Message

# Worst first: the result a source shows is the worst of its regions' newest runs.
_RANK = {
    FeedImport.Status.FAILED: 0,
    FeedImport.Status.REFUSED: 0,
    FeedImport.Status.RUNNING: 1,
    FeedImport.Status.IMPORTED: 2,
    FeedImport.Status.UNCHANGED: 3,
    FeedImport.Status.DRY_RUN: 4,
}


@dataclass
class SourceStatus:
    name: str
    runs: list[FeedImport] = field(default_factory=list)
    next_due: dt.datetime | None = None

    @property
    def last_sync(self) -> dt.datetime | None:
        return max((r.finished_at or r.started_at for r in self.runs), default=None)

    @property
    def result(self) -> str:
        if not self.runs:
            return ""
        return min(self.runs, key=lambda r: _RANK.get(r.status, 9)).status

    @property
    def result_label(self) -> str:
        return FeedImport.Status(self.result).label if self.result else ""

    def total(self, counter: str) -> int:
        return sum(getattr(r, counter) for r in self.runs)

    @property
    def counts(self) -> dict[str, int]:
        names = ("records", "new_tiers", "changed_prices", "unchanged", "retired", "refused_rows")
        return {name: self.total(name) for name in names}


def next_due(source: str, now: dt.datetime | None = None) -> dt.datetime | None:
    entry = settings.CELERY_BEAT_SCHEDULE.get(f"catalog-sync-{source}")
    if not entry:
        return None
    now = now or timezone.now()
    schedule = entry["schedule"]
    # The first run after `now`, as beat computes it from a last run at `now`.
    start, delta, _ = schedule.remaining_delta(now)
    return start + delta


def newest_runs() -> list[FeedImport]:
    """The newest run of each (source, region), in one query."""
    newest = (
        FeedImport.objects.filter(source=OuterRef("source"), region=OuterRef("region"))
        .order_by("-started_at", "-id")
        .values("id")[:1]
    )
    return list(FeedImport.objects.filter(id=Subquery(newest)).order_by("source", "region"))


def source_statuses(now: dt.datetime | None = None) -> list[SourceStatus]:
    statuses = {name: SourceStatus(name, next_due=next_due(name, now)) for name in SOURCES}
    for run in newest_runs():
        if run.source in statuses:
            statuses[run.source].runs.append(run)
    return list(statuses.values())


def rendered_messages(run: FeedImport, limit: int = 20) -> list[str]:
    """A run's messages (refusals, refused rows, notes) in the reader's language."""
    return [render(Message.from_json(m)) for m in run.messages[:limit]]
