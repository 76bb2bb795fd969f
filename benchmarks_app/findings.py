"""Every (tier, class) a plan asks for, with its best measurement or the reason there is none,
kept compact: what `selectors.best_measurements` answers and the planner keeps per data
generation.

A plan sized over a large catalog asks for tens of thousands of pairs, nearly all of them
without a measurement, and each reason names its tier ("no sizing run of gbm … on tier
x"), so the reasons could not be shared. Kept as messages they were most of the objects
the process held (at 20,000 tiers some 310,000 of the 750,000 the collector walked after
an uncached answer: a `NoMeasurement`, two or three `Message`s and a `TierRef` per pair),
and making them was most of the evidence read. Here a reason is kept as its shape (`Why`:
the message with the tier left out), one per cause and class, shared by every tier it
applies to; the tier's message is made when it is read (`Findings[tier, class]`, or a
whole column at once for the capacity table, `Findings.columns`). The messages made are
equal to those kept before (same codes, parameters and order).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import compress, repeat
from typing import Any

from common.messages import MADE, Message, TierRef, check

from .evidence import BestMeasurement, NoMeasurement


class _Tier:
    """Where a reason names its tier (`TIER`): filled in when the message is made."""

    def __repr__(self) -> str:
        return "TIER"


TIER = _Tier()


class Why:
    """A reason without its tier: a message code and parameters in which `TIER` stands for
    the tier and a nested `Why` for a message naming it ("on tier …")."""

    __slots__ = ("code", "nested", "params", "tiers")

    def __init__(self, code: str, params: Mapping[str, Any]) -> None:
        self.code, self.params = code, dict(params)
        check(self)  # the registry's (a Message's), once for every tier it applies to
        # Where the tier goes, said once (a plan over a large catalog makes 80,000 of these
        # messages: the parameters copied, then the holes filled in, in their places).
        self.tiers = tuple(key for key, value in params.items() if value is TIER)
        self.nested = tuple((k, v) for k, v in params.items() if type(v) is Why)

    @staticmethod
    def of(code: str, params: Mapping[str, Any]) -> Message | Why:
        """A `Why` where a parameter names the tier, else the message itself (shared)."""
        named = any(v is TIER or type(v) is Why for v in params.values())
        return Why(code, params) if named else Message(code, params)

    def said(self, tier: TierRef, memo: dict[Why, Message]) -> Message:
        """The message for `tier`. `memo` (one per tier): the parts a tier's reasons share
        ("on tier …" in each class's), made once, as they were shared before."""
        made = memo.get(self)
        if made is None:
            params = self.params.copy()
            for key in self.tiers:
                params[key] = tier
            for key, why in self.nested:
                params[key] = why.said(tier, memo)
            made = memo[self] = Message(self.code, params)
        return made

    def __repr__(self) -> str:
        return f"Why({self.code!r}, {self.params!r})"


# What a pair holds: a figure, a reason shared by every tier (a Message) or a reason's shape.
Held = BestMeasurement | Message | Why


class Unmeasured(NoMeasurement):
    """A reason read from `Findings`: its message is made when first asked (most readers
    only look at whether there is a figure)."""

    def __init__(self, why: Why, slug: str) -> None:  # its args: (why, slug)
        self._why, self._slug = why, slug

    @property
    def message(self) -> Message:  # type: ignore[override]
        made = self.__dict__.get("_message")
        if made is None:
            made = self.__dict__["_message"] = self._why.said(TierRef(self._slug), {})
            made.__dict__[MADE] = self._why  # how it was made, for `answer_json`
        return made

    def __reduce__(self) -> tuple:  # a plain NoMeasurement through pickle
        return (NoMeasurement, (self.message,))


def found_of(held: Held | None, slug: str) -> BestMeasurement | NoMeasurement | None:
    """What `Findings` answers for a pair holding `held`."""
    if held is None or isinstance(held, BestMeasurement):
        return held
    if type(held) is Why:
        return Unmeasured(held, slug)
    return NoMeasurement(held)


class Findings(Mapping[tuple[str, str], BestMeasurement | NoMeasurement]):
    """{(tier, class): BestMeasurement | NoMeasurement} for every asked tier and class, in
    that order (tier by tier), each class a list by tier position of what it holds (`Held`).
    Filled by the selectors (`put`, `column`), then only read."""

    def __init__(self, slugs: Sequence[str], classes: Sequence[str]) -> None:
        self.slugs, self.classes = list(slugs), list(classes)
        n = len(self.slugs)
        self.at = dict(zip(self.slugs, range(n), strict=True))
        self._held: dict[str, list[Held | None]] = {cls: [None] * n for cls in self.classes}

    # --- filling --------------------------------------------------------------------------

    def column(self, cls: str) -> list[Held | None]:
        """Class `cls`'s list by tier position, to fill."""
        return self._held[cls]

    def put(self, slug: str, cls: str, found: BestMeasurement | NoMeasurement | Message) -> None:
        held = found.message if isinstance(found, NoMeasurement) else found
        self._held[cls][self.at[slug]] = held

    def held(self) -> Iterator[tuple[str, str, Held]]:
        """(tier, class, what it holds) for every pair, class by class."""
        for cls, column in self._held.items():
            for slug, held in zip(self.slugs, column, strict=True):
                yield slug, cls, held  # type: ignore[misc]

    def figures(self) -> Iterator[tuple[str, str, BestMeasurement]]:
        """(tier, class, figure) for the pairs with one, class by class (found in C: a
        catalog's 40,000 pairs, nearly all without one, were 2.6 ms through `held`)."""
        for cls, column in self._held.items():
            figures = map(isinstance, column, repeat(BestMeasurement))
            for i in compress(range(len(column)), figures):
                yield self.slugs[i], cls, column[i]  # type: ignore[misc]

    def with_figures(self, figures: Mapping[tuple[str, str], BestMeasurement]) -> Findings:
        """A copy with these pairs' figures (the pairs must be asked of this map): the rest
        shared, only the changed classes' lists copied (the sensitivity's throughput
        moves; a copy as a dictionary made a reason object for every pair)."""
        copy = Findings.__new__(Findings)
        copy.slugs, copy.classes, copy.at = self.slugs, self.classes, self.at
        copy._held = dict(self._held)
        for (slug, cls), figure in figures.items():
            if copy._held[cls] is self._held[cls]:
                copy._held[cls] = list(self._held[cls])
            copy._held[cls][self.at[slug]] = figure
        return copy

    # --- reading --------------------------------------------------------------------------

    def __getitem__(self, key: tuple[str, str]) -> BestMeasurement | NoMeasurement:
        slug, cls = key
        found = found_of(self._held[cls][self.at[slug]], slug)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        return key[0] in self.at and key[1] in self._held

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for slug in self.slugs:
            for cls in self.classes:
                yield slug, cls

    def __len__(self) -> int:
        return len(self.slugs) * len(self.classes)

    def __repr__(self) -> str:
        return f"Findings({len(self.slugs)} tiers x {self.classes})"

    def columns(
        self, slugs: Sequence[str], classes: Sequence[str]
    ) -> dict[str, list[BestMeasurement | Message | None]]:
        """Each class's figure or reason (its message) for each of `slugs`, None where not
        asked of this map: the capacity table's read, the messages made here, a tier's
        shared parts (its "on tier …") once for all its classes."""
        at, n = self.at, len(slugs)
        held = [self._held.get(cls) for cls in classes]
        out: list[list[BestMeasurement | Message | None]] = [[None] * n for _ in classes]
        pairs = [(h, o) for h, o in zip(held, out, strict=True) if h is not None]
        memo: dict[Why, Message] = {}
        for i, slug in enumerate(slugs):
            j = at.get(slug)
            if j is None:
                continue
            tier = None
            for column, said in pairs:
                value = column[j]
                if type(value) is Why:
                    if tier is None:
                        tier = TierRef(slug)
                        memo.clear()
                    why, value = value, value.said(tier, memo)
                    value.__dict__[MADE] = why  # how it was made, for `answer_json`
                said[i] = value
        return dict(zip(classes, out, strict=True))
