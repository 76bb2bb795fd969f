"""The price feeds' beat schedule: daily by default, on the control queue, configurable."""

import importlib
import os

from celery.schedules import crontab

from config import settings as project_settings


def test_every_feed_syncs_daily_on_the_control_queue_by_default():
    schedule = project_settings.CELERY_BEAT_SCHEDULE
    for source in ("aws", "azure", "hetzner", "ovh", "ecb"):
        entry = schedule[f"catalog-sync-{source}"]
        assert entry["task"] == "catalog.sync_prices"
        assert entry["args"] == [source]
        assert entry["options"] == {"queue": "default"}
        assert isinstance(entry["schedule"], crontab)
    assert schedule["catalog-sync-aws"]["schedule"] == crontab(hour=2, minute=0)


def test_the_schedule_follows_the_environment_per_source_or_for_all(monkeypatch):
    monkeypatch.setitem(os.environ, "CATALOG_FEED_SCHEDULE", "05:15")
    monkeypatch.setitem(os.environ, "CATALOG_FEED_SCHEDULE_HETZNER", "off")
    try:
        reloaded = importlib.reload(project_settings).CELERY_BEAT_SCHEDULE
        assert reloaded["catalog-sync-aws"]["schedule"] == crontab(hour=5, minute=15)
        assert "catalog-sync-hetzner" not in reloaded
    finally:
        monkeypatch.undo()
        importlib.reload(project_settings)
