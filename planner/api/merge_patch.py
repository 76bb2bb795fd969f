"""RFC 7396 JSON merge patch, the body of `PATCH /plans/{id}` (a dozen lines: no library
needed for the algorithm the RFC gives in full)."""

from __future__ import annotations

from typing import Any


def merge_patch(target: Any, patch: Any) -> Any:
    """`target` with `patch` merged in: an object's keys merged one by one, a null removes
    its key, anything else (a list, a string, a number) replaces the value whole."""
    if not isinstance(patch, dict):
        return patch
    merged = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged
