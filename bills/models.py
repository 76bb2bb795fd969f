"""A bill: one imported cost export, kept as aggregates only (the raw file is not kept).

A bill belongs to the user who imported it; deleting it deletes its lines (CASCADE).
Amounts are in the bill's currency (lines in another currency converted at the ECB
rate of their charge date, the bill's flags naming the rate rows)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

KINDS = [("focus", "FOCUS"), ("aws_cur", "AWS CUR"), ("azure", "Azure"), ("gcp", "GCP")]
VIEWS = [("focus", "billed and effective"), ("actual", "actual"), ("amortized", "amortized")]
MONEY = {"max_digits": 24, "decimal_places": 10}


class Bill(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bills",
        verbose_name=_("owner"),
    )  # fmt: skip
    name = models.CharField(_("file name"), max_length=255)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    size = models.BigIntegerField(_("bytes"))
    kind = models.CharField(_("kind"), max_length=10, choices=KINDS)
    version = models.CharField(_("version"), max_length=20)
    container = models.CharField(_("container"), max_length=10)
    view = models.CharField(_("cost view"), max_length=10, choices=VIEWS)
    currency = models.CharField(_("currency"), max_length=3)
    period_start = models.DateField(_("period start"))
    period_end = models.DateField(_("period end"))  # exclusive: the first day after
    first_day = models.DateField(_("first charge day"))
    last_day = models.DateField(_("last charge day"))
    rows = models.BigIntegerField(_("rows read"))
    # [provider, billing account, "YYYY-MM"] the file covers: what a newer export replaces.
    scope = models.JSONField(_("scope"), default=list)
    # Messages (code + params) on the data's quality, each naming its fallback.
    flags = models.JSONField(_("quality flags"), default=list)
    imported_at = models.DateTimeField(_("imported"), auto_now_add=True)

    class Meta:
        ordering = ["-imported_at", "-id"]
        verbose_name = _("bill")
        verbose_name_plural = _("bills")
        constraints = [
            models.UniqueConstraint(fields=["owner", "sha256"], name="bills_bill_one_per_file"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind} {self.version}, {self.period_start:%Y-%m})"


class BillLine(models.Model):
    """One aggregate: per charge day, provider, account, region, service, SKU and
    instance type, pricing category, charge category, unit and source currency."""

    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="lines")
    day = models.DateField()
    provider = models.CharField(max_length=100, blank=True)
    billing_account = models.CharField(max_length=200, blank=True)
    account = models.CharField(max_length=200, blank=True)
    region = models.CharField(max_length=100, blank=True)
    service_category = models.CharField(max_length=100, blank=True)
    service_name = models.CharField(max_length=200, blank=True)
    sku = models.CharField(max_length=300, blank=True)
    instance_type = models.CharField(max_length=100, blank=True)
    pricing_category = models.CharField(max_length=30, blank=True)
    charge_category = models.CharField(max_length=30, blank=True)
    unit = models.CharField(max_length=100, blank=True)
    # "Used"/"Unused" (FOCUS CommitmentDiscountStatus; CUR covered usage; Azure's
    # commitment usage and Unused* charges), "" for a row no commitment touched.
    commitment_status = models.CharField(max_length=10, blank=True)
    # The row's tags, "k=v;k=v" sorted by key (at most 500 characters, whole tags; at
    # most 1000 distinct sets a file, the bill's tags_capped flag counting rows beyond).
    tags = models.TextField(blank=True)
    source_currency = models.CharField(max_length=3)
    billed = models.DecimalField(**MONEY)
    effective = models.DecimalField(**MONEY)
    list_cost = models.DecimalField(**MONEY)
    cost = models.DecimalField(**MONEY)  # effective, or the flagged fallback
    quantity = models.DecimalField(max_digits=30, decimal_places=10)
    contracted = models.DecimalField(**MONEY, null=True)  # None: the file gives none
    eligible_list = models.DecimalField(**MONEY, default=0)  # usage a commitment could cover
    unused = models.DecimalField(**MONEY, default=0)  # unused commitment cost
    rows = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["bill", "service_category", "day"])]

    def __str__(self) -> str:
        return f"{self.day} {self.provider} {self.service_category} {self.sku}"


class BillUpload(models.Model):
    """An upload through the API, imported on the control queue; its status is polled.
    The file waits under var/ only until the import, then is deleted."""

    QUEUED, IMPORTING, DONE, REFUSED = "queued", "importing", "done", "refused"
    STATUSES = [(s, s) for s in (QUEUED, IMPORTING, DONE, REFUSED)]
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bill_uploads"
    )
    name = models.CharField(max_length=255)
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    rows_read = models.BigIntegerField(default=0)
    bill = models.ForeignKey(Bill, null=True, blank=True, on_delete=models.SET_NULL)
    message = models.JSONField(null=True, blank=True)  # code + params: the outcome
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"
