"""Plans, their share snapshots, API tokens, and declared speed factors.

The plan computation itself lives in the pure modules (schema, capacity, tco,
engine); these models only keep what a user saved and what a share froze.
"""

from __future__ import annotations

import copy
import hashlib
import secrets
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TOKEN_PREFIX_CHARS = 8  # shown on the account page so a user can tell keys apart


class PlanQuerySet(models.QuerySet):
    def owned_by(self, user) -> PlanQuerySet:
        return self.filter(owner=user) if user.is_authenticated else self.none()


class Plan(models.Model):
    """A saved plan: the schema dict as the user gave it (validated on the way in)."""

    # The integer key stays internal; the API and URLs expose only the UUID.
    code = models.UUIDField(_("code"), default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="plans",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=200, blank=True)
    inputs = models.JSONField(_("inputs"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    # Bumped by every save of the inputs (`services.plans.plan_update`): a save names the
    # version it started from and is refused if the plan moved on (no lost update). The
    # API's ETag.
    version = models.PositiveIntegerField(_("version"), default=1)
    # The figures as its owner last saw them on the plan page, and the data generation they
    # rest on: the home page compares generations and says what changed since.
    seen_generation = models.PositiveBigIntegerField(_("generation last viewed"), null=True,
                                                     blank=True)  # fmt: skip
    seen_figures = models.JSONField(_("figures last viewed"), null=True, blank=True)

    objects = PlanQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("plan")
        verbose_name_plural = _("plans")

    def __str__(self) -> str:
        return self.name or str(self.code)

    def duplicate(self, *, owner=None, name: str | None = None) -> Plan:
        """A new plan with a copy of these inputs (scenario compare starts from one)."""
        inputs = copy.deepcopy(self.inputs)
        new_name = name if name is not None else f"{self.name or self.code} (copy)"[:200]
        inputs["name"] = new_name
        return Plan.objects.create(owner=owner or self.owner, name=new_name, inputs=inputs)


class ShareQuerySet(models.QuerySet):
    def live(self) -> ShareQuerySet:
        return self.filter(revoked_at__isnull=True)


def new_share_token() -> str:
    # 32 random bytes = 256 bits, well above the 122 bits of a UUID4.
    return secrets.token_urlsafe(32)


class Share(models.Model):
    """A frozen snapshot of a plan (inputs, price rows, measurements, results)."""

    plan = models.ForeignKey(
        Plan, on_delete=models.CASCADE, related_name="shares", verbose_name=_("plan")
    )
    token = models.CharField(
        _("token"), max_length=64, unique=True, default=new_share_token, editable=False
    )
    snapshot = models.JSONField(_("snapshot"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = ShareQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("share link")
        verbose_name_plural = _("share links")

    def __str__(self) -> str:
        return f"{self.plan} · {self.token[:6]}…"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])


def hash_key(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def live(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True, user__is_active=True)


class ApiToken(models.Model):
    """A per-user API key. Only its SHA-256 is stored: the raw key is shown once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=TOKEN_PREFIX_CHARS, editable=False)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, *, user, name: str) -> tuple[ApiToken, str]:
        """A new token and its raw key; the key is never stored and cannot be shown again."""
        raw = "pl_" + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, name=name, prefix=raw[:TOKEN_PREFIX_CHARS], key_hash=hash_key(raw)
        )
        return token, raw

    @classmethod
    def find(cls, raw: str) -> ApiToken | None:
        return cls.objects.live().select_related("user").filter(key_hash=hash_key(raw)).first()

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

    def touch(self) -> None:
        self.last_used_at = timezone.now()
        self.save(update_fields=["last_used_at"])


class SpeedFactor(models.Model):
    """A staff member's declared speed of an unmeasured tier against a measured one.

    Figures sized from it are labelled "estimate" with this row's source and author.
    """

    class Unit(models.TextChoices):
        THROUGHPUT_RATIO = "throughput_ratio", _("whole-tier throughput ratio")
        PER_THREAD_RATIO = "per_thread_ratio", _("per-thread speed ratio")

    tier = models.OneToOneField(
        "catalog.Tier",
        on_delete=models.CASCADE,
        related_name="speed_factor",
        verbose_name=_("tier"),
    )
    relative_to = models.ForeignKey(
        "catalog.Tier",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("relative to"),
    )
    factor = models.DecimalField(
        _("factor"), max_digits=8, decimal_places=4, validators=[MinValueValidator(0)]
    )
    unit = models.CharField(_("unit"), max_length=20, choices=Unit.choices)
    source = models.CharField(_("source"), max_length=500)
    author = models.CharField(_("author"), max_length=150)
    date = models.DateField(_("date"))
    # Any edit moves it: the dashboard's data generation reads the newest (and the count).
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("speed factor")
        verbose_name_plural = _("speed factors")

    def __str__(self) -> str:
        return f"{self.tier} = {self.factor} x {self.relative_to} ({self.unit})"

    def clean(self) -> None:
        if self.tier_id and self.tier_id == self.relative_to_id:
            raise ValidationError({"relative_to": _("A tier cannot be measured against itself.")})

    def to_plain(self) -> dict[str, Any]:
        return {
            "tier": self.tier.slug,
            "relative_to": self.relative_to.slug,
            "factor": float(self.factor),
            "unit": self.unit,
            "source": self.source,
            "author": self.author,
            "date": self.date,
        }
