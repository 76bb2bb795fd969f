"""What the pages show of the next runs worth making (`planner.services.next_runs`, the
API's form, or a share's frozen copy): at most five runs, ranked, each with its tier, what
it would settle, its cost, and (for the plan's owner) the command that makes it and the
one that brings the file back. Sentences from the messages stored beside each run, so they
read in the page's language. No request, no database."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from common.messages import Message, msg
from planner.compute.message_fields import by_field

SHOWN = 5


@dataclass
class RunRow:
    rank: int
    tier: str
    title: Message
    profile: str
    settles: Message
    cost: Message
    command: str
    bring_back: str
    bring_back_said: Message
    changes: float


@dataclass
class NextRuns:
    runs: list[RunRow]
    more: int  # ranked runs not shown
    read_only: bool  # a shared page: no commands


def _one(said: Mapping[str, list[Message]], name: str, text: str) -> Message:
    found = said.get(name)
    return found[0] if found else msg("common.text", text=text)


def view(answer: Mapping[str, Any] | None, *, read_only: bool = False) -> NextRuns | None:
    """The rows to show; None when no run could change the answer."""
    runs = list((answer or {}).get("runs") or [])
    if not runs:
        return None
    rows = []
    for run in runs[:SHOWN]:
        said = by_field(run.get("messages"))
        rows.append(
            RunRow(
                rank=int(run["rank"]),
                tier=run["tier"],
                title=_one(said, "tier_title", run.get("tier_title") or run["tier"]),
                profile=run["profile"],
                settles=_one(said, "settles", run.get("settles", "")),
                cost=_one(said, "cost.said", run.get("cost", {}).get("said", "")),
                command=run["command"],
                bring_back=run["bring_back"],
                bring_back_said=_one(said, "bring_back_said", run.get("bring_back_said", "")),
                changes=float(run["changes"]),
            )
        )
    return NextRuns(rows, max(0, len(runs) - SHOWN), read_only)
