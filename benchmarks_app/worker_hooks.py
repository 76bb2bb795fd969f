"""Worker process hooks: a worker serving bench.<node> records its target with a
hardware fingerprint when it is ready, heartbeats from a thread while it lives, and
marks the target offline when it stops.

The heartbeat is a thread of the worker's main process, not a task: at concurrency
1 a task would wait behind a benchmark that runs for an hour.
"""

import logging
import threading

from celery import signals
from django.conf import settings
from django.db import close_old_connections, connection

from .models import queue_for

logger = logging.getLogger(__name__)
_heartbeats: dict[str, "Heartbeat"] = {}


class Heartbeat(threading.Thread):
    def __init__(self, name: str, every_s: float) -> None:
        super().__init__(name=f"bench-heartbeat-{name}", daemon=True)
        self.target_name, self.every_s = name, every_s
        self.stopped = threading.Event()

    def run(self) -> None:
        from .lifecycle import heartbeat

        while not self.stopped.wait(self.every_s):
            try:
                heartbeat(self.target_name)
            except Exception:
                logger.warning("heartbeat for %s failed", self.target_name, exc_info=True)
            finally:
                connection.close()  # this thread's own connection; never left dangling

    def stop(self) -> None:
        self.stopped.set()


def target_name(hostname: str) -> str:
    return hostname.split("@", 1)[0]


def consumed_queues(consumer) -> set[str]:
    return set(consumer.app.amqp.queues.consume_from or consumer.app.amqp.queues)


@signals.worker_ready.connect
def on_worker_ready(sender, **kwargs) -> None:
    name = target_name(sender.hostname)
    if queue_for(name) not in consumed_queues(sender):
        return  # a control worker (default queue only) is no benchmark target
    from . import fingerprint
    from .lifecycle import record_worker_start

    close_old_connections()
    try:
        host = fingerprint.collect()
        record_worker_start(name, sender.hostname.split("@", 1)[-1], host)
    finally:
        # The prefork pool may fork again later: no connection must cross a fork.
        connection.close()
    beat = _heartbeats[name] = Heartbeat(name, settings.BENCH_HEARTBEAT_SECONDS)
    beat.start()
    logger.info("benchmark target %s recorded (queue %s)", name, queue_for(name))


@signals.worker_shutdown.connect
def on_worker_shutdown(sender, **kwargs) -> None:
    from .lifecycle import record_worker_stop

    for name, beat in list(_heartbeats.items()):
        beat.stop()
        try:
            record_worker_stop(name)
        finally:
            connection.close()
        del _heartbeats[name]


@signals.task_failure.connect
def on_task_failure(sender=None, task_id=None, exception=None, args=None, **kwargs) -> None:
    """The run's task died without ending the run, e.g. its pool process was killed."""
    if getattr(sender, "name", "") != "benchmarks_app.execute_run" or not args:
        return
    from common.messages import msg

    from .lifecycle import fail_lost_task

    try:
        fail_lost_task(args[0], msg("benchmarks.run_worker_lost", error=str(exception)))
    finally:
        connection.close()
