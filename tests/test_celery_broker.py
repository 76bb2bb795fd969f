"""The Celery app reaches the configured broker with a real worker process."""

import os

import pytest
from django.conf import settings

from planner.tasks import ping


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_executes_a_task_through_the_configured_broker(start_worker, request):
    if os.getenv("CI") == "true" or os.getenv("REDIS_URL"):
        request.getfixturevalue("redis_url")
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    start_worker("brokercheck", ["default"])
    result = ping.apply_async(args=["hello"], queue="default")
    assert result.get(timeout=30) == "hello"


def test_a_test_session_uses_its_own_queue_prefix():
    assert settings.QUEUE_PREFIX.startswith("test-")
    if settings.REDIS_URL:
        assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] == settings.QUEUE_PREFIX
