"""Celery tasks: thin callers of benchmarks_app.lifecycle."""

from celery import shared_task

from . import lifecycle


# acks_late: a message is only done when its run is; reject_on_worker_lost=False: a
# killed worker does not get the run redelivered forever (the check ends it instead,
# and a late redelivery finds the run no longer queued and does nothing).
@shared_task(
    bind=True,
    name=lifecycle.EXECUTE_TASK,
    acks_late=True,
    reject_on_worker_lost=False,
    ignore_result=True,
)
def execute_run(self, run_id: str) -> str | None:
    return lifecycle.execute_run(run_id, executed_by=self.request.hostname or "")


@shared_task(name="benchmarks_app.check_targets", ignore_result=True)
def check_targets() -> dict:
    return lifecycle.check_targets().as_dict()


@shared_task(name="benchmarks_app.reconcile_runs", ignore_result=True)
def reconcile_runs() -> dict:
    return lifecycle.reconcile_runs().as_dict()
