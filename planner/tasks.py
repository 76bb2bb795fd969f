from celery import shared_task


@shared_task(name="planner.ping")
def ping(value: str = "pong") -> str:
    """Round trip through the broker; used by health checks and tests."""
    return value
