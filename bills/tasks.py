"""The bill app's Celery task: an uploaded file imported on the control worker."""

from celery import shared_task

from bills import page
from bills.models import BillUpload
from bills.services import uploads


# Unrouted: CELERY_TASK_DEFAULT_QUEUE ("default", the control worker), never a bench.* queue.
@shared_task(name="bills.import_upload", ignore_result=True)
def import_upload(upload_id: int) -> None:
    uploads.run(upload_id)
    bill_id = BillUpload.objects.filter(pk=upload_id).values_list("bill_id", flat=True).first()
    if bill_id:
        page.warm(bill_id)  # the bill page's figures, ready for its first view


# Unrouted too: a bill page whose kept figures were lost (a cache cleared) has them
# rebuilt here, not in the request (4.9-8.9 s at 5 M rows, docs/design.md).
@shared_task(name="bills.warm_page", ignore_result=True)
def warm_page(bill_id: int) -> None:
    page.warm(bill_id)
