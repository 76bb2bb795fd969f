"""Downloading a feed file to disk: streamed, size-limited, retried, resumed, checked.

`download(url, dest)` writes the body to `dest` in chunks (never whole in memory),
refuses a body over the size limit (from Content-Length before reading, or while
streaming), checks the HTTP status and the content type, retries network errors,
5xx answers and truncated bodies with exponential back-off, and resumes a truncated
body with a `Range` request where the server answers 206 (else starts over). A body
still short after the last attempt is refused as truncated. `file_digest` gives the
SHA-256 of a file already on disk (`--file`).
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from catalog.feeds import config
from catalog.feeds.base import FeedRefused
from common.messages import msg

CHUNK = 1024 * 1024
# Worth another attempt: the server or the path may recover.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Downloaded:
    path: Path
    url: str
    size: int
    sha256: str
    content_type: str


class _Truncated(Exception):
    def __init__(self, received: int, expected: int | None) -> None:
        self.received, self.expected = received, expected


class _Retry(Exception):
    def __init__(self, reason: str, offline: str = "") -> None:
        self.reason = reason
        self.offline = offline  # a message code when the network itself is unreachable


# An address that cannot be looked up (no DNS: offline) or reached at all (no route) says
# the network is unreachable, not "[Errno -2] Name or service not known".
_NO_ROUTE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN}


def offline_code(exc: BaseException) -> str:
    """ "feeds.offline_dns" or "feeds.offline_route" when `exc` (or the error it wraps)
    means this machine has no network to the host; "" for any other failure."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, socket.gaierror):
        return "feeds.offline_dns"
    if isinstance(reason, OSError) and reason.errno in _NO_ROUTE:
        return "feeds.offline_route"
    return ""


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def download(
    url: str,
    dest: Path,
    *,
    content_types: tuple[str, ...] = (),
    max_bytes: int | None = None,
    attempts: int | None = None,
    backoff: float | None = None,
    progress: Callable[[int], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Downloaded:
    """Fetch `url` into `dest`; raise FeedRefused with the reason when it cannot."""
    max_bytes = config.max_bytes() if max_bytes is None else max_bytes
    attempts = config.attempts() if attempts is None else attempts
    backoff = config.backoff_seconds() if backoff is None else backoff
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.unlink(missing_ok=True)
    truncated: _Truncated | None = None
    offline = ""
    for attempt in range(1, attempts + 1):
        try:
            content_type = _fetch(url, dest, content_types, max_bytes, progress)
            return Downloaded(dest, url, dest.stat().st_size, file_digest(dest), content_type)
        except FeedRefused:
            dest.unlink(missing_ok=True)
            raise
        except _Truncated as exc:
            truncated, failure = exc, None
        except _Retry as exc:
            truncated, failure, offline = None, exc.reason, exc.offline
        if attempt < attempts:
            sleep(backoff * 2 ** (attempt - 1))
    dest.unlink(missing_ok=True)
    if truncated is not None:
        expected = "?" if truncated.expected is None else truncated.expected
        raise FeedRefused(
            [msg("feeds.truncated", url=url, received=truncated.received, expected=expected)]
        )
    if offline:
        host = urllib.parse.urlsplit(url).hostname or url
        raise FeedRefused([msg(offline, url=url, host=host, attempts=attempts)])
    raise FeedRefused([msg("feeds.network", url=url, attempts=attempts, error=failure or "")])


def _fetch(
    url: str,
    dest: Path,
    content_types: tuple[str, ...],
    max_bytes: int,
    progress: Callable[[int], None] | None,
) -> str:
    """One attempt: resume from what `dest` holds when the server allows ranges."""
    have = dest.stat().st_size if dest.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "planner-catalog-sync"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=config.timeout_seconds())
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 416 and have:  # our partial copy is stale: start over
            dest.unlink()
            raise _Retry(f"HTTP {exc.code}") from None
        if exc.code in RETRY_STATUSES:
            raise _Retry(f"HTTP {exc.code}") from None
        raise FeedRefused([msg("feeds.http_status", status=exc.code, url=url)]) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise _Retry(str(getattr(exc, "reason", exc)), offline_code(exc)) from None
    with response:
        content_type = response.headers.get_content_type()
        if content_types and content_type not in content_types:
            raise FeedRefused(
                [msg("feeds.content_type", url=url, found=content_type,
                     expected=", ".join(content_types))]
            )  # fmt: skip
        resumed = have and response.status == 206
        if not resumed:
            have = 0
        length = response.headers.get("Content-Length")
        expected = have + int(length) if length and length.isdigit() else None
        if expected is not None and expected > max_bytes:
            raise FeedRefused([msg("feeds.too_large", url=url, limit=max_bytes)])
        _stream(response, dest, resumed, have, expected, max_bytes, url, progress)
        return content_type


def _stream(
    response: http.client.HTTPResponse,
    dest: Path,
    resumed: bool,
    have: int,
    expected: int | None,
    max_bytes: int,
    url: str,
    progress: Callable[[int], None] | None,
) -> None:
    received = have
    with dest.open("ab" if resumed else "wb") as out:
        try:
            while chunk := response.read(CHUNK):
                received += len(chunk)
                if received > max_bytes:
                    raise FeedRefused([msg("feeds.too_large", url=url, limit=max_bytes)])
                out.write(chunk)
                if progress:
                    progress(received)
        except (http.client.IncompleteRead, OSError) as exc:
            out.flush()
            raise _Truncated(received, expected) from exc
    if expected is not None and received < expected:
        raise _Truncated(received, expected)
