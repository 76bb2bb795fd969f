"""Which catalog tier an imported run's host is: the offered tiers as `estimates.tier_match`
reads them (one query), suggestions, and the differences to warn of."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from catalog.models import Tier
from changes.services import record
from common.messages import Message, TierRef, msg
from estimates.tier_match import Match, TierRow, suggest, tier_key

from .hardware_match import tier_mismatches
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


@dataclass(frozen=True)
class _Specs:  # a tier's specs as `hardware_match` compares them
    slug: str
    name: str
    vcpus: int | None
    cpu_model: str


def warnings(run: Run, slug: str) -> list[Message]:
    """What differs between the run's host and the named tier, said as the admin's link and
    the staff action say it (`hardware_match`), the tier's CPU being the one public runs saw
    on its server type where the table has it, else the offer's; empty when no offered tier
    has that key or nothing known differs."""
    rows = _rows(slug=slug)
    if not rows:
        return []
    row = rows[0]
    _key, shown = tier_key(row)
    specs = _Specs(row.slug, row.name, row.vcpus, shown or row.cpu_model or "")
    target = Target.objects.only("name").get(pk=run.target_id).name
    return tier_mismatches(target, run.fingerprint or {}, specs)


def link(run: Run, slug: str, by=None) -> Message | None:
    """Link the run's target to the tier (a recorded change, as the admin's link is); the
    reason when the link is not made. A link by staff (or `by` None: a command) counts for
    everyone at once; one by another user only for their own plans until staff confirm it,
    and never replaces a link staff confirmed (that would change other users' figures)."""
    target = Target.objects.select_related("tier").get(pk=run.target_id)
    staff = by is None or bool(by.is_staff)
    if not staff and target.tier_id is not None and target.tier_confirmed:
        if target.tier.slug == slug:
            return None
        return msg("benchmarks.link_kept", tier=TierRef(target.tier.slug), asked=TierRef(slug))
    target.tier = Tier.objects.get(slug=slug)
    target.tier_confirmed = staff
    target.tier_confirmed_by = by if staff else None
    target.tier_confirmed_at = timezone.now() if staff and by is not None else None
    target.save()
    return None


def offered(slug: str) -> bool:
    """Whether an offered (not retired) tier has this key."""
    return Tier.objects.filter(retired=False, slug=slug).exists()


@transaction.atomic
def confirm(target: Target, by) -> int:
    """A staff member confirms the target's tier link: it and every run on the target now
    size everyone's plans (a recorded change). The number of runs confirmed."""
    if not by.is_staff:
        raise PermissionError("confirming a tier link is for staff")
    target.tier_confirmed, target.tier_confirmed_by = True, by
    target.tier_confirmed_at = timezone.now()
    target.save(update_fields=["tier_confirmed", "tier_confirmed_by", "tier_confirmed_at"])
    confirmed = Run.objects.filter(target=target, confirmed=False).update(confirmed=True)
    record("target.link_confirmed", target, label=f"target {target.name}")
    return confirmed
