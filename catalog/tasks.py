"""Celery tasks of the catalog: thin callers of catalog.feeds.sync."""

from celery import shared_task

from catalog.feeds.sync import sync_source


# Routed to the "default" queue (the control worker's) by CELERY_TASK_ROUTES in
# config/settings.py, never to a bench.* queue: a sync reads hundreds of MB and must not run
# on a target while it measures. (Celery 5 deprecates a `queue` attribute on the task, so
# the route lives beside the beat schedule.)
@shared_task(name="catalog.sync_prices", ignore_result=False)
def sync_prices(source: str, regions: list[str] | None = None) -> list[dict]:
    """Sync one source, saving its progress for the admin's page; returns each region's
    status and counts (JSON for the result)."""
    return [
        {
            "id": record.pk, "source": record.source, "region": record.region,
            "status": record.status, "new_tiers": record.new_tiers,
            "changed_prices": record.changed_prices, "unchanged": record.unchanged,
            "retired": record.retired, "refused_rows": record.refused_rows,
        }
        for record in sync_source(source, regions or None, store_progress=True)
    ]  # fmt: skip
