"""The bill app's Celery task: an uploaded file imported on the control worker."""

from celery import shared_task

from bills.services import uploads


# Unrouted: CELERY_TASK_DEFAULT_QUEUE ("default", the control worker), never a bench.* queue.
@shared_task(name="bills.import_upload", ignore_result=True)
def import_upload(upload_id: int) -> None:
    uploads.run(upload_id)
