"""Published default assumptions a plan starts from, each with its value and source.

A plan shows these as defaults (editable); a figure here never hides where it came
from. Sources are recorded in docs/design.md, "Default assumptions"; where no
public source exists the entry says "assumption, editable".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import Decimal

AZURE_MIGRATE = (
    "Azure Migrate business case default (MicrosoftDocs/azure-docs "
    "articles/migrate/concepts-business-case-calculation.md)"
)


@dataclass(frozen=True)
class Assumption:
    name: str
    value: Decimal | int | str
    unit: str
    source: str
    date: str = ""  # when the source said it (or when it was recorded here); "" for old ones

    def to_dict(self) -> dict[str, str | int]:
        out = asdict(self)
        out["value"] = str(self.value) if isinstance(self.value, Decimal) else self.value
        if not self.date:
            del out["date"]
        return out


ANNUAL_DISCOUNT_RATE = Assumption(
    "annual_discount_rate", Decimal("0.07"), "per year (WACC)", AZURE_MIGRATE
)
UTILISATION_TARGET = Assumption(
    "utilisation_target",
    Decimal("0.7"),
    "share of a server's threads kept busy",
    "assumption, editable (planner default, issue 4)",
)
HORIZON_MONTHS = Assumption(
    "horizon_months", 36, "months", "assumption, editable (planner default, issue 4)"
)
MONTHLY_GROWTH = Assumption(
    "monthly_growth", Decimal("0"), "per month", "assumption, editable (planner default)"
)
SPOT_INTERRUPTION_ALLOWANCE = Assumption(
    "spot_interruption_allowance",
    Decimal("0.10"),
    "share of spot work re-run after interruptions",
    "assumption, editable: no public source gives one figure for the share of work re-run",
)

# Self-managed (or owned) servers only: Azure Migrate's per-server management
# costs a year. A managed dedicated tier or a cloud instance gets no such default.
SELF_MANAGED_OPS_PER_SERVER_YEAR: dict[str, Decimal] = {
    "monitoring": Decimal("430"),
    "patching": Decimal("430"),
    "backup": Decimal("580"),
    "security": Decimal("250"),
}
SELF_MANAGED_OPS = Assumption(
    "self_managed_ops_per_server_year",
    sum(SELF_MANAGED_OPS_PER_SERVER_YEAR.values(), Decimal(0)),
    "per self-managed server a year (monitoring 430, patching 430, backup 580, security 250)",
    AZURE_MIGRATE,
)
SERVER_DEPRECIATION_YEARS = Assumption("server_depreciation_years", 4, "years", AZURE_MIGRATE)
HIDDEN_ONE_TIME_SHARE = Assumption(
    "hidden_one_time_share",
    Decimal("0.30"),
    "of the first year's cost, at the low end of 30-50 %",
    "independent estimate (docs/design.md, Default assumptions): vendor TCO tools leave out "
    "migration, running both systems and retraining",
)

# Owned servers (a plan buys instead of rents). The public models cited in
# docs/design.md ("Default assumptions") give no
# publication date; the date is when the figure was recorded here from that note.
REFERENCE_NOTE = "public TCO models (docs/design.md, Default assumptions)"
RECORDED = "2026-12-01 (recorded; the source gives no date)"
OWNED_PUE = Assumption(
    "owned_pue", Decimal("1.5"), "power usage effectiveness (facility ÷ IT power)",
    f"{REFERENCE_NOTE} (Azure Migrate's own model uses 1.8)", RECORDED,
)  # fmt: skip
OWNED_KWH_PRICE = Assumption(
    "owned_kwh_price", Decimal("0.12"), "currency per kWh (published in USD)",
    REFERENCE_NOTE, RECORDED,
)  # fmt: skip
OWNED_SUPPORT_SHARE = Assumption(
    "owned_support_share", Decimal("0.10"),
    "of the purchase price a year, billed monthly (hardware support contract)",
    "assumption, editable: no public source in the reference notes gives one figure",
    RECORDED,
)  # fmt: skip
OWNED_RESALE = Assumption(
    "owned_resale", "book_value", "straight-line book value at the horizon's end",
    f"{AZURE_MIGRATE}: 4-year straight-line depreciation", RECORDED,
)  # fmt: skip
OWNED: tuple[Assumption, ...] = (OWNED_PUE, OWNED_KWH_PRICE, OWNED_SUPPORT_SHARE, OWNED_RESALE)

ALL: tuple[Assumption, ...] = (
    ANNUAL_DISCOUNT_RATE,
    UTILISATION_TARGET,
    HORIZON_MONTHS,
    MONTHLY_GROWTH,
    SPOT_INTERRUPTION_ALLOWANCE,
    SELF_MANAGED_OPS,
    SERVER_DEPRECIATION_YEARS,
    HIDDEN_ONE_TIME_SHARE,
)


def by_name() -> dict[str, Assumption]:
    return {assumption.name: assumption for assumption in (*ALL, *OWNED)}
