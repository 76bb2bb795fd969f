"""Which catalog tier an imported run's host is: the offered tiers as `estimates.tier_match`
reads them (one query), suggestions, and the differences to warn of."""

from __future__ import annotations

from catalog.models import Tier
from estimates.tier_match import Match, TierRow, compare, suggest

from .models import Run, Target


def _rows(**filters) -> list[TierRow]:
    found = Tier.objects.filter(retired=False, **filters).values_list(
        "slug", "provider__name", "name", "cpu_model", "vcpus"
    )
    return [TierRow(*row) for row in found]


def _host(run: Run) -> tuple[str, int | None]:
    fingerprint = run.fingerprint or {}
    return str(fingerprint.get("cpu_model") or ""), fingerprint.get("usable_cpus")


def suggestions(run: Run) -> list[Match]:
    return suggest(*_host(run), _rows())


def check(run: Run, slug: str) -> Match | None:
    """The named tier against the run's host, or None when no offered tier has that key."""
    rows = _rows(slug=slug)
    return compare(*_host(run), rows[0]) if rows else None


def link(run: Run, slug: str) -> None:
    """Link the run's target to the tier (a recorded change, as the admin's link is)."""
    target = Target.objects.get(pk=run.target_id)
    target.tier = Tier.objects.get(slug=slug)
    target.save()


def offered(slug: str) -> bool:
    """Whether an offered (not retired) tier has this key."""
    return Tier.objects.filter(retired=False, slug=slug).exists()
