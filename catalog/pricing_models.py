"""Pricing models in groups, for the filters that ask "any savings plan" or "any reservation".

A group gathers a model's purchase options and terms: `reserved` holds `reserved_1y`,
`reserved_3y_convertible_all_upfront` and the rest, `savings_plan` the AWS Compute and
EC2 Instance plans and the Azure savings plan, `committed_use` GCP's committed use
discounts. `matches(model, wanted)` accepts a group or one exact model, so a filter
parameter can take either.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.models import PricingModel

GROUPS = {
    "on_demand": _("on-demand"),
    "spot": _("spot"),
    "reserved": _("reserved, any term"),
    "savings_plan": _("savings plan, any"),
    "committed_use": _("committed use, any term"),
    "fixed_monthly": _("fixed monthly"),
}


def group_of(model: str) -> str:
    """`savings_plan_compute_1y_no_upfront` → `savings_plan`; `spot` → `spot`."""
    for group in ("reserved", "savings_plan", "committed_use"):
        if model == group or model.startswith(group + "_"):
            return group
    return model


def is_known(wanted: str) -> bool:
    return wanted in GROUPS or wanted in PricingModel.values


def matches(model: str, wanted: str) -> bool:
    """Whether a tier's `model` is `wanted`: the same model, or one of the group named."""
    return model == wanted or (wanted in GROUPS and group_of(model) == wanted)
