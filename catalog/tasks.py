"""Celery tasks of the catalog: thin callers of catalog.feeds.sync and catalog.page_frame."""

import logging

from celery import shared_task

from catalog import page_frame
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport

logger = logging.getLogger(__name__)


# Routed to the "default" queue (the control worker's) by CELERY_TASK_ROUTES in
# config/settings.py, never to a bench.* queue: a sync reads hundreds of MB and must not run
# on a target while it measures. (Celery 5 deprecates a `queue` attribute on the task, so
# the route lives beside the beat schedule.)
@shared_task(name="catalog.sync_prices", ignore_result=False)
def sync_prices(source: str, regions: list[str] | None = None) -> list[dict]:
    """Sync one source, saving its progress for the admin's page; returns each region's
    status and counts (JSON for the result). A sync that changed the catalog warms its
    caches next, on the same control queue (`warm_caches`)."""
    records = sync_source(source, regions or None, store_progress=True)
    warm_after(records)
    return [
        {
            "id": record.pk, "source": record.source, "region": record.region,
            "status": record.status, "new_tiers": record.new_tiers,
            "changed_prices": record.changed_prices, "unchanged": record.unchanged,
            "retired": record.retired, "refused_rows": record.refused_rows,
        }
        for record in records
    ]  # fmt: skip


# Unrouted too: the control worker builds the frames into the shared cache, so the first
# reader of /catalog/ (or of the tier picker) after a sync does not pay for them.
@shared_task(name="catalog.warm_caches", ignore_result=False)
def warm_caches() -> dict[str, float]:
    return page_frame.warm()


def warm_after(records: list[FeedImport]) -> bool:
    """Queue `warm_caches` on the control queue when a sync changed the catalog (a new tier,
    a changed price, a retired tier): the admin's Sync now (through `sync_prices`) and the
    `sync_prices` command both. Returns whether it was queued; a broker that cannot take
    the message leaves the caches to warm on first read (logged), the import stands."""
    changed = any(r.status == FeedImport.Status.IMPORTED
                  and (r.new_tiers or r.changed_prices or r.retired) for r in records)  # fmt: skip
    if not changed:
        return False
    try:
        warm_caches.delay()
    except Exception:  # the broker is down: the import is done, only the warm-up is lost
        logger.exception("catalog.warm_caches not queued")
        return False
    return True
