"""An upload through the API: streamed to a file under var/ (never held in memory),
recorded as a BillUpload, imported on the control queue, then the file deleted (the raw
file is not kept, whatever the outcome)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.db import transaction

from bills.models import BillUpload
from bills.readers.errors import BillRefused
from bills.services.importing import import_bill, shown_name

DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024**3  # a month's CUR of a large organisation, gzipped


def max_upload_bytes() -> int:
    return int(getattr(settings, "BILLS_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES))


def upload_dir() -> Path:
    base = Path(getattr(settings, "VAR_DIR", Path.cwd() / "var")) / "bill_uploads"
    base.mkdir(parents=True, exist_ok=True)
    return base


def _path(upload: BillUpload) -> Path:
    return upload_dir() / f"{upload.pk}.upload"


class TooLarge(Exception):
    pass


def receive(owner, name: str, chunks: Iterable[bytes]) -> BillUpload:
    """Write the chunks to the upload's file (refusing more than the limit, the partial
    file removed), record the upload and queue its import once the record is committed."""
    limit = max_upload_bytes()
    staging = upload_dir() / f"incoming-{uuid.uuid4().hex}"
    size = 0
    try:
        with staging.open("wb") as handle:
            for chunk in chunks:
                size += len(chunk)
                if size > limit:
                    raise TooLarge(limit)
                handle.write(chunk)
        with transaction.atomic():
            upload = BillUpload.objects.create(owner=owner, name=shown_name(name))
            staging.rename(_path(upload))
            transaction.on_commit(lambda: _queue(upload.pk))
    except BaseException:
        staging.unlink(missing_ok=True)
        raise
    return upload


def _queue(upload_id: int) -> None:
    # By name: the task module sits above the services (bills.tasks calls `run`).
    current_app.send_task("bills.import_upload", args=[upload_id])


def sweep(older_than_s: float = 3600) -> None:
    """Delete upload files no waiting upload owns (a request rolled back after writing its
    file, a worker lost mid-import) once they are an hour old: the raw file is not kept."""
    waiting = set(
        BillUpload.objects.filter(status__in=[BillUpload.QUEUED, BillUpload.IMPORTING])
        .values_list("pk", flat=True)
    )  # fmt: skip
    now = time.time()
    for path in upload_dir().iterdir():
        stem = path.name.removesuffix(".upload")
        owned = path.name.endswith(".upload") and stem.isdigit() and int(stem) in waiting
        if not owned and now - path.stat().st_mtime > older_than_s:
            path.unlink(missing_ok=True)


def run(upload_id: int) -> None:
    """Import a queued upload (the task's body): status, progress, outcome; the file is
    deleted afterwards in every case."""
    upload = BillUpload.objects.filter(pk=upload_id, status=BillUpload.QUEUED).first()
    if upload is None:
        return
    path = _path(upload)
    BillUpload.objects.filter(pk=upload.pk).update(status=BillUpload.IMPORTING)
    sweep()

    def progress(rows: int) -> None:
        BillUpload.objects.filter(pk=upload.pk).update(rows_read=rows)

    try:
        if not path.is_file():
            raise BillRefused("bills.file.empty", file=upload.name)
        result = import_bill(path, upload.owner, name=upload.name, progress=progress)
    except BillRefused as refused:
        BillUpload.objects.filter(pk=upload.pk).update(
            status=BillUpload.REFUSED, message=refused.message.to_json()
        )
    else:
        BillUpload.objects.filter(pk=upload.pk).update(
            status=BillUpload.DONE, bill=result.bill, message=result.message.to_json()
        )
    finally:
        path.unlink(missing_ok=True)


# Uploads in pieces (the Bills page sends a large file as consecutive chunks, each its own
# request, so a progress bar can follow it): the pieces are appended to one staging file
# named by the owner and a random token; `finish` records and queues it as `receive` does.


class BadChunk(Exception):
    """A piece out of order, for an unknown token, or of another user."""


def _staging(owner, token: str) -> Path:
    if len(token) != 32 or not all(c in "0123456789abcdef" for c in token):
        raise BadChunk(token)
    return upload_dir() / f"incoming-{owner.pk}-{token}"


def append_chunk(owner, token: str, offset: int, data: bytes) -> tuple[str, int]:
    """Append one piece at `offset` (0 starts a new file, token "" for a new token);
    answers the token and the bytes held. A piece past the limit removes the file."""
    if offset == 0 and not token:
        token = uuid.uuid4().hex
    path = _staging(owner, token)
    held = path.stat().st_size if path.exists() else 0
    if offset != held or (offset and not path.exists()):
        raise BadChunk(token)
    if held + len(data) > max_upload_bytes():
        path.unlink(missing_ok=True)
        raise TooLarge(max_upload_bytes())
    with path.open("ab") as handle:
        handle.write(data)
    return token, held + len(data)


def finish(owner, token: str, name: str) -> BillUpload:
    """Record the pieces' file as an upload and queue its import after commit."""
    path = _staging(owner, token)
    if not path.exists():
        raise BadChunk(token)
    try:
        with transaction.atomic():
            upload = BillUpload.objects.create(owner=owner, name=shown_name(name))
            path.rename(_path(upload))
            transaction.on_commit(lambda: _queue(upload.pk))
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return upload
