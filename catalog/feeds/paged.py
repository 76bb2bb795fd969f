"""A paged JSON feed fetched whole: every page from the first URL on, one line each, into
one file (Azure's Retail Prices, GCP's Cloud Billing Catalog). Any page refused refuses
the whole download, and the partial file is removed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common.messages import msg

from .base import FeedRefused
from .download import Downloaded


def fetch_pages(
    url: str,
    dest: Path,
    progress: Callable[[int], None] | None,
    *,
    max_pages: int,
    get: Callable[[str, Path], Downloaded],
    check: Callable[[Any, str], dict[str, Any]],
    next_link: Callable[[dict[str, Any]], str | None],
) -> Downloaded:
    """`get(link, file)` downloads one page, `check(document, where)` refuses a page not in
    the feed's shape, `next_link(page)` is the next page's URL (None after the last)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    page_file = dest.with_name(dest.name + ".page")
    seen: set[str] = set()
    total, digest, content_type = 0, hashlib.sha256(), ""
    try:
        with dest.open("wb") as out:
            link: str | None = url
            while link:
                if link in seen or len(seen) >= max_pages:
                    raise FeedRefused([msg("feeds.too_many_pages", count=len(seen), url=link)])
                seen.add(link)
                content_type = get(link, page_file).content_type
                page = check(json_document(page_file), f"page {len(seen)}")
                line = json.dumps(page, separators=(",", ":")).encode() + b"\n"
                out.write(line)
                digest.update(line)
                total += len(line)
                if progress:
                    progress(total)
                link = next_link(page)
    except FeedRefused:
        dest.unlink(missing_ok=True)
        raise
    finally:
        page_file.unlink(missing_ok=True)
    return Downloaded(dest, url, total, digest.hexdigest(), content_type)


def json_document(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError) as exc:
        raise FeedRefused([msg("feeds.malformed_json", offset=getattr(exc, "pos", 0),
                               error=str(exc)[:200])]) from None  # fmt: skip
