"""Provider → Tier → Price, and ExchangeRate beside them.

Prices are effective-dated rows that are never overwritten: a change of price is
a new row. The current price of a tier is its newest row whose `effective_from`
is not in the future.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from catalog import staleness
from common.django import clock
from common.units import HOURS_PER_MONTH

# ISO 4217 codes we accept. A closed list catches typos ("EUE") that a pattern
# would let through; add a code here when a provider bills in it.
CURRENCIES: tuple[str, ...] = (
    "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR", "ILS",
    "INR", "JPY", "KRW", "MXN", "NOK", "NZD", "PLN", "RON", "SEK", "SGD", "THB", "TRY", "TWD",
    "USD", "ZAR",
)  # fmt: skip


slug_validator = RegexValidator(
    regex=r"^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$",
    message=_(
        "Use lowercase letters, digits, '.' and '-' only, starting and ending with a "
        "letter or digit."
    ),
)


def validate_currency(value: str) -> None:
    if value not in CURRENCIES:
        message = _("%(code)s is not a known ISO 4217 currency code.")
        raise ValidationError(message, params={"code": value})


class PricingModel(models.TextChoices):
    """How a tier is bought. The one list of pricing models (docs/design.md, "Pricing models").

    `reserved_1y` / `reserved_3y` are a reservation whose purchase option nobody
    recorded (hand-entered prices); the feeds name it: standard or convertible, and
    no, partial or all upfront. A tier's key ends in its model with "_" written "-"
    (`…-reserved-1y-convertible-partial-upfront`). `staleness.pricing_model_family`
    groups them for the settings that do not care about the purchase option (staleness).
    """

    ON_DEMAND = "on_demand", _("on-demand")
    SPOT = "spot", _("spot")
    RESERVED_1Y = "reserved_1y", _("reserved 1 year")
    RESERVED_3Y = "reserved_3y", _("reserved 3 years")
    FIXED_MONTHLY = "fixed_monthly", _("fixed monthly")
    RESERVED_1Y_NO_UPFRONT = "reserved_1y_no_upfront", _("reserved 1 year, no upfront")
    RESERVED_1Y_PARTIAL_UPFRONT = (
        "reserved_1y_partial_upfront",
        _("reserved 1 year, partial upfront"),
    )
    RESERVED_1Y_ALL_UPFRONT = "reserved_1y_all_upfront", _("reserved 1 year, all upfront")
    RESERVED_1Y_CONVERTIBLE_NO_UPFRONT = (
        "reserved_1y_convertible_no_upfront",
        _("reserved 1 year, convertible, no upfront"),
    )
    RESERVED_1Y_CONVERTIBLE_PARTIAL_UPFRONT = (
        "reserved_1y_convertible_partial_upfront",
        _("reserved 1 year, convertible, partial upfront"),
    )
    RESERVED_1Y_CONVERTIBLE_ALL_UPFRONT = (
        "reserved_1y_convertible_all_upfront",
        _("reserved 1 year, convertible, all upfront"),
    )
    RESERVED_3Y_NO_UPFRONT = "reserved_3y_no_upfront", _("reserved 3 years, no upfront")
    RESERVED_3Y_PARTIAL_UPFRONT = (
        "reserved_3y_partial_upfront",
        _("reserved 3 years, partial upfront"),
    )
    RESERVED_3Y_ALL_UPFRONT = "reserved_3y_all_upfront", _("reserved 3 years, all upfront")
    RESERVED_3Y_CONVERTIBLE_NO_UPFRONT = (
        "reserved_3y_convertible_no_upfront",
        _("reserved 3 years, convertible, no upfront"),
    )
    RESERVED_3Y_CONVERTIBLE_PARTIAL_UPFRONT = (
        "reserved_3y_convertible_partial_upfront",
        _("reserved 3 years, convertible, partial upfront"),
    )
    RESERVED_3Y_CONVERTIBLE_ALL_UPFRONT = (
        "reserved_3y_convertible_all_upfront",
        _("reserved 3 years, convertible, all upfront"),
    )

    # AWS Savings Plans (catalog/feeds/aws_savings_plans.py): Compute or EC2 Instance plans,
    # 1 or 3 years, no, partial or all upfront; the upfront is the price's set-up fee.
    SAVINGS_PLAN_COMPUTE_1Y_NO_UPFRONT = (
        "savings_plan_compute_1y_no_upfront",
        _("Compute Savings Plan 1 year, no upfront"),
    )
    SAVINGS_PLAN_COMPUTE_1Y_PARTIAL_UPFRONT = (
        "savings_plan_compute_1y_partial_upfront",
        _("Compute Savings Plan 1 year, partial upfront"),
    )
    SAVINGS_PLAN_COMPUTE_1Y_ALL_UPFRONT = (
        "savings_plan_compute_1y_all_upfront",
        _("Compute Savings Plan 1 year, all upfront"),
    )
    SAVINGS_PLAN_COMPUTE_3Y_NO_UPFRONT = (
        "savings_plan_compute_3y_no_upfront",
        _("Compute Savings Plan 3 years, no upfront"),
    )
    SAVINGS_PLAN_COMPUTE_3Y_PARTIAL_UPFRONT = (
        "savings_plan_compute_3y_partial_upfront",
        _("Compute Savings Plan 3 years, partial upfront"),
    )
    SAVINGS_PLAN_COMPUTE_3Y_ALL_UPFRONT = (
        "savings_plan_compute_3y_all_upfront",
        _("Compute Savings Plan 3 years, all upfront"),
    )
    SAVINGS_PLAN_INSTANCE_1Y_NO_UPFRONT = (
        "savings_plan_instance_1y_no_upfront",
        _("EC2 Instance Savings Plan 1 year, no upfront"),
    )
    SAVINGS_PLAN_INSTANCE_1Y_PARTIAL_UPFRONT = (
        "savings_plan_instance_1y_partial_upfront",
        _("EC2 Instance Savings Plan 1 year, partial upfront"),
    )
    SAVINGS_PLAN_INSTANCE_1Y_ALL_UPFRONT = (
        "savings_plan_instance_1y_all_upfront",
        _("EC2 Instance Savings Plan 1 year, all upfront"),
    )
    SAVINGS_PLAN_INSTANCE_3Y_NO_UPFRONT = (
        "savings_plan_instance_3y_no_upfront",
        _("EC2 Instance Savings Plan 3 years, no upfront"),
    )
    SAVINGS_PLAN_INSTANCE_3Y_PARTIAL_UPFRONT = (
        "savings_plan_instance_3y_partial_upfront",
        _("EC2 Instance Savings Plan 3 years, partial upfront"),
    )
    SAVINGS_PLAN_INSTANCE_3Y_ALL_UPFRONT = (
        "savings_plan_instance_3y_all_upfront",
        _("EC2 Instance Savings Plan 3 years, all upfront"),
    )
    # Azure savings plan for compute (the Retail Prices API's `savingsPlan` terms).
    SAVINGS_PLAN_1Y = "savings_plan_1y", _("savings plan 1 year")
    SAVINGS_PLAN_3Y = "savings_plan_3y", _("savings plan 3 years")
    # GCP committed use discounts (resource-based, paid monthly over the term).
    COMMITTED_USE_1Y = "committed_use_1y", _("committed use 1 year")
    COMMITTED_USE_3Y = "committed_use_3y", _("committed use 3 years")


class OperatingSystem(models.TextChoices):
    """The operating system a cloud tier's price includes (its licence): Linux unless the
    feed was asked for others (CATALOG_FEED_OPERATING_SYSTEMS); a non-Linux tier's key ends
    in it (`…-on-demand-windows`)."""

    LINUX = "linux", _("Linux")
    RHEL = "rhel", _("Red Hat Enterprise Linux")
    SUSE = "suse", _("SUSE Linux Enterprise Server")
    WINDOWS = "windows", _("Windows")


class Kind(models.TextChoices):
    CLOUD_VM = "cloud_vm", _("cloud VM")
    CLOUD_GPU = "cloud_gpu", _("cloud GPU")
    DEDICATED = "dedicated", _("dedicated server")


class Unit(models.TextChoices):
    HOUR = "hour", _("per hour")
    MONTH = "month", _("per month")


class Provider(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    # Derived from the name on save, so files only need to carry the name.
    slug = models.CharField(
        _("key"), max_length=60, unique=True, validators=[slug_validator], editable=False
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("provider")
        verbose_name_plural = _("providers")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.slug = provider_slug(self.name)
        super().save(*args, **kwargs)


def provider_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "provider"


class Tier(models.Model):
    """One purchasable offer. c5.4xlarge on-demand and c5.4xlarge reserved-1y are two tiers."""

    # The specs a tier must know before the catalog can normalise its price.
    CORE_SPECS = ("vcpus", "ram_gib")

    slug = models.CharField(_("key"), max_length=120, unique=True, validators=[slug_validator])
    provider = models.ForeignKey(
        Provider, on_delete=models.PROTECT, related_name="tiers", verbose_name=_("provider")
    )
    name = models.CharField(_("name"), max_length=200)
    region = models.CharField(_("region"), max_length=60, blank=True)
    pricing_model = models.CharField(
        _("pricing model"), max_length=40, choices=PricingModel.choices
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    vcpus = models.PositiveIntegerField(_("vCPUs (hardware threads)"), null=True, blank=True)
    cores = models.PositiveIntegerField(_("physical cores"), null=True, blank=True)
    cpu_model = models.CharField(_("CPU model"), max_length=120, blank=True)
    cpu_flags = models.CharField(_("CPU flags"), max_length=500, blank=True)
    ram_gib = models.DecimalField(
        _("RAM (GiB)"),
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    storage_gib = models.DecimalField(
        _("storage (GiB)"),
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    storage_type = models.CharField(_("storage type"), max_length=120, blank=True)
    gpus = models.PositiveIntegerField(_("GPUs"), null=True, blank=True)
    gpu_model = models.CharField(_("GPU model"), max_length=120, blank=True)
    gpu_mem_gib = models.DecimalField(
        _("GPU memory (GiB each)"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    network = models.CharField(_("network"), max_length=120, blank=True)
    operating_system = models.CharField(
        _("operating system"), max_length=10, choices=OperatingSystem.choices,
        default=OperatingSystem.LINUX,
    )  # fmt: skip
    ecc = models.BooleanField(_("ECC memory"), null=True, blank=True)
    fixed_price = models.BooleanField(
        _("fixed price"), null=True, blank=True,
        help_text=_("An auction server whose price is no longer lowered over time."),
    )  # fmt: skip
    managed = models.BooleanField(_("managed"), null=True, blank=True)
    min_term_months = models.PositiveIntegerField(_("minimum term (months)"), null=True, blank=True)
    retired = models.BooleanField(
        _("retired"), default=False, help_text=_("No longer offered; kept for history.")
    )

    class Meta:
        ordering = ["provider__name", "name", "region", "pricing_model"]
        verbose_name = _("tier")
        verbose_name_plural = _("tiers")
        indexes = [
            models.Index(fields=["kind", "pricing_model"]),
            models.Index(fields=["region"]),
        ]

    def __str__(self) -> str:
        return self.slug

    @property
    def specs_unknown(self) -> bool:
        return any(getattr(self, field) is None for field in self.CORE_SPECS)

    def current_price(self, as_of: dt.date | None = None) -> Price | None:
        as_of = as_of or clock.today()
        return self.prices.filter(effective_from__lte=as_of).order_by("-effective_from").first()


class Price(models.Model):
    """An effective-dated price. Rows are never updated: a new price is a new row."""

    tier = models.ForeignKey(
        Tier, on_delete=models.CASCADE, related_name="prices", verbose_name=_("tier")
    )
    amount = models.DecimalField(
        _("amount"), max_digits=14, decimal_places=6, validators=[MinValueValidator(0)]
    )
    unit = models.CharField(_("unit"), max_length=10, choices=Unit.choices)
    currency = models.CharField(_("currency"), max_length=3, validators=[validate_currency])
    setup_fee = models.DecimalField(
        _("setup fee"),
        max_digits=14,
        decimal_places=2,
        default=Decimal(0),
        validators=[MinValueValidator(0)],
    )
    effective_from = models.DateField(_("effective from"))
    source = models.CharField(_("source"), max_length=500)
    source_url = models.URLField(_("source URL"), max_length=500, blank=True)
    confirmed = models.BooleanField(
        _("confirmed"),
        default=False,
        help_text=_("Checked against a public, dated source; otherwise only quoted."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_by_text = models.CharField(
        _("recorded by (import)"),
        max_length=150,
        blank=True,
        help_text=_("Who recorded it, for rows that came from a file."),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    # Provenance of a price that came from a provider's feed (catalog/feeds): the feed's
    # version (AWS `version`, OVH `catalogId`…) and the provider's own key for the offer
    # (SKU and term code, meter id, server id). Empty for hand-entered prices.
    source_version = models.CharField(_("source version"), max_length=100, blank=True)
    source_key = models.CharField(_("source key"), max_length=200, blank=True)
    hourly_amount = models.DecimalField(
        _("hourly amount"), max_digits=14, decimal_places=6, null=True, blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Billed by the hour at this rate, up to the amount a month (Hetzner)."),
    )  # fmt: skip
    vat_included = models.BooleanField(
        _("VAT included"),
        null=True,
        blank=True,
        help_text=_("Whether the amount includes VAT; empty where nobody recorded it."),
    )

    class Meta:
        ordering = ["tier", "-effective_from"]
        verbose_name = _("price")
        verbose_name_plural = _("prices")
        constraints = [
            models.UniqueConstraint(
                fields=["tier", "effective_from"], name="catalog_price_one_per_tier_and_date"
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0), name="catalog_price_amount_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(setup_fee__gte=0), name="catalog_price_setup_fee_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return (
            # normalize(): 349.99, not the column's 349.990000 (breadcrumbs, selects, logs)
            f"{self.tier.slug} {self.amount.normalize():f} {self.currency}/{self.unit} "
            f"from {self.effective_from}"
        )

    @property
    def recorder(self) -> str:
        if self.recorded_by_id:
            return self.recorded_by.get_username()
        return self.recorded_by_text

    @property
    def monthly(self) -> Decimal:
        return self.amount * HOURS_PER_MONTH if self.unit == Unit.HOUR else self.amount

    def is_stale(self, as_of: dt.date | None = None) -> bool:
        return staleness.is_stale(
            self.tier.pricing_model, self.effective_from, as_of or clock.today()
        )


class ExchangeRate(models.Model):
    """1 `from_currency` = `rate` `to_currency` on `date`, with where that figure came from."""

    date = models.DateField(_("date"))
    from_currency = models.CharField(_("from"), max_length=3, validators=[validate_currency])
    to_currency = models.CharField(_("to"), max_length=3, validators=[validate_currency])
    rate = models.DecimalField(
        _("rate"), max_digits=18, decimal_places=8, validators=[MinValueValidator(0)]
    )
    source = models.CharField(_("source"), max_length=500)
    source_url = models.URLField(_("source URL"), max_length=500, blank=True)

    class Meta:
        ordering = ["from_currency", "to_currency", "-date"]
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        constraints = [
            models.UniqueConstraint(
                fields=["from_currency", "to_currency", "date"],
                name="catalog_exchangerate_one_per_pair_and_date",
            ),
            models.CheckConstraint(
                condition=models.Q(rate__gt=0), name="catalog_exchangerate_rate_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"1 {self.from_currency} = {self.rate} {self.to_currency} on {self.date}"


class FeedImport(models.Model):
    """One run of a price feed (catalog/feeds) for one source and region: what it read,
    what it changed or why it was refused. Written by `catalog.feeds.sync` only."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        IMPORTED = "imported", _("imported")
        UNCHANGED = "unchanged", _("unchanged")
        REFUSED = "refused", _("refused")
        DRY_RUN = "dry_run", _("dry run")
        FAILED = "failed", _("failed")

    source = models.CharField(_("source"), max_length=40)
    region = models.CharField(_("region"), max_length=60, blank=True)
    url = models.CharField(_("URL or file"), max_length=1000)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    version = models.CharField(_("feed version"), max_length=100, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    bytes = models.BigIntegerField(_("bytes"), default=0)
    records = models.PositiveIntegerField(
        _("records"), default=0, help_text=_("Prices or rates the feed offered after filtering.")
    )
    new_tiers = models.PositiveIntegerField(_("new tiers"), default=0)
    changed_prices = models.PositiveIntegerField(_("changed prices"), default=0)
    unchanged = models.PositiveIntegerField(_("unchanged"), default=0)
    retired = models.PositiveIntegerField(_("retired"), default=0)
    refused_rows = models.PositiveIntegerField(_("refused rows"), default=0)
    # Messages (common.messages, as JSON): the refusal's reasons, refused rows, notes.
    messages = models.JSONField(_("messages"), default=list, blank=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("feed import")
        verbose_name_plural = _("feed imports")
        indexes = [models.Index(fields=["source", "region", "-started_at"])]

    def __str__(self) -> str:
        where = f" {self.region}" if self.region else ""
        return f"{self.source}{where} {self.started_at:%Y-%m-%d %H:%M} {self.status}"
