"""Benchmark profiles (versioned), targets (worker nodes), runs and their results.

A profile's content is frozen per version: a staff edit adds a version, and a run
points at the exact version and keeps the content hash it ran, so history never
changes under a result.
"""

import hashlib
import json
import re
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from changes.services import record
from common.messages import Message, msg, plain

VERSION_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
version_validator = RegexValidator(VERSION_RE, _("A version is X.Y.Z, e.g. 1.0.0."))
node_name_validator = RegexValidator(
    r"^[a-z0-9][a-z0-9._@-]*$", _("Lowercase letters, digits, '.', '_', '@' and '-'.")
)


def content_hash(content: dict) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces): equal content, equal hash."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def parse_version(version: str) -> tuple[int, int, int]:
    match = VERSION_RE.match(version)
    if not match:
        raise ValueError(f"not an X.Y.Z version: {version!r}")
    return int(match[1]), int(match[2]), int(match[3])


class WorkloadClass(models.TextChoices):
    GBM = "gbm", _("gradient boosting")
    SKLEARN = "sklearn", _("scikit-learn")
    FEATURES = "features", _("feature engineering")
    HPO = "hpo", _("hyperparameter search")
    INFERENCE = "inference", _("inference")
    NN = "nn", _("small neural nets")
    MICRO = "micro", _("micro benchmark")


class Scale(models.TextChoices):
    SMOKE = "smoke", _("smoke (seconds, for tests)")
    STANDARD = "standard", _("standard (minutes)")
    FULL = "full", _("full (the real workload)")


class Profile(models.Model):
    name = models.CharField(_("name"), max_length=64, unique=True)
    workload_class = models.CharField(_("workload class"), max_length=16, choices=WorkloadClass)
    title = models.CharField(_("title"), max_length=200, blank=True)

    class Meta:
        ordering = ["workload_class", "name"]

    def __str__(self) -> str:
        return self.name

    def current_version(self) -> "ProfileVersion | None":
        return self.versions.order_by("-major", "-minor", "-patch").first()


class ProfileVersion(models.Model):
    class Source(models.TextChoices):
        SHIPPED = "shipped", _("shipped with the code")
        STAFF = "staff", _("edited by staff")
        IMPORTED = "imported", _("imported with a run")

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="versions")
    version = models.CharField(_("version"), max_length=32, validators=[version_validator])
    major = models.PositiveIntegerField(editable=False)
    minor = models.PositiveIntegerField(editable=False)
    patch = models.PositiveIntegerField(editable=False)
    content = models.JSONField(_("content"))
    content_hash = models.CharField(_("content hash"), max_length=64, db_index=True)
    source = models.CharField(_("source"), max_length=16, choices=Source)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["profile__name", "-major", "-minor", "-patch"]
        constraints = [
            models.UniqueConstraint(fields=["profile", "version"], name="profile_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.profile.name} {self.version}"

    def save(self, *args, **kwargs) -> None:
        self.major, self.minor, self.patch = parse_version(self.version)
        self.content_hash = content_hash(self.content)
        super().save(*args, **kwargs)

    @property
    def series(self) -> str:
        """X.Y: results compare only within the same series."""
        return f"{self.major}.{self.minor}"

    def scale(self, name: str) -> dict:
        return dict(self.content.get("scales", {}).get(name, {}))


class Target(models.Model):
    """One Celery worker node serving queue bench.<name>."""

    name = models.CharField(
        _("node name"), max_length=120, unique=True, validators=[node_name_validator]
    )
    hostname = models.CharField(_("host name"), max_length=255, blank=True)
    fingerprint = models.JSONField(_("hardware fingerprint"), default=dict, blank=True)
    tier = models.ForeignKey(
        "catalog.Tier",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bench_targets",
        verbose_name=_("catalog tier"),
    )
    online = models.BooleanField(_("online"), default=False)
    last_seen = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    offline_since = models.DateTimeField(null=True, blank=True)
    imported = models.BooleanField(
        _("imported"), default=False, help_text=_("Known only from imported run files.")
    )
    # A link made by a user who is not staff (on import) sizes only that user's plans until
    # a staff member confirms it (benchmarks_app.tier_links.confirm; docs/design.md,
    # "Whose runs count").
    tier_confirmed = models.BooleanField(
        _("tier link confirmed"), default=True,
        help_text=_("Unconfirmed: the link sizes only the plans of the user who made it."),
    )  # fmt: skip
    tier_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("tier link confirmed by"),
    )  # fmt: skip
    tier_confirmed_at = models.DateTimeField(_("tier link confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def queue(self) -> str:
        return queue_for(self.name)

    def is_alive(self, now: datetime | None = None) -> bool:
        """Online and heard from within three heartbeats."""
        if not self.online or self.last_seen is None:
            return False
        now = now or timezone.now()
        return now - self.last_seen <= heartbeat_grace()

    @property
    def usable_cpus(self) -> int | None:
        return self.fingerprint.get("usable_cpus")


def queue_for(target_name: str) -> str:
    return f"bench.{target_name}"


def heartbeat_grace() -> timedelta:
    return timedelta(seconds=3 * settings.BENCH_HEARTBEAT_SECONDS)


class Suite(models.Model):
    """All current profiles at one scale on one target, run one after another."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="suites")
    scale = models.CharField(max_length=16, choices=Scale)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.scale} suite on {self.target.name}"


class RunQuerySet(models.QuerySet):
    def active(self) -> "RunQuerySet":
        return self.filter(status__in=Run.ACTIVE)

    def for_listing(self) -> "RunQuerySet":
        return self.select_related("profile_version__profile", "target")

    def evidence(self) -> "RunQuerySet":
        """Runs that may size a plan: every run but the retired ones."""
        return self.filter(retired_at__isnull=True)

    def retire(self) -> int:
        """Retire the runs not yet retired (kept as history, never evidence again).

        A queryset update sends no signal: the change log is written here, once per
        run, in the same transaction, so cached figures that rested on a run move."""
        return self._set_retired(timezone.now(), "run.retired")

    def restore(self) -> int:
        """Make retired runs evidence again."""
        return self._set_retired(None, "run.restored")

    def _set_retired(self, when, kind: str) -> int:
        with transaction.atomic():
            runs = list(self.filter(retired_at__isnull=when is not None))
            for run in runs:
                record(kind, run)
            return self.model.objects.filter(pk__in=[r.pk for r in runs]).update(retired_at=when)


class Run(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    profile_version = models.ForeignKey(
        ProfileVersion, on_delete=models.PROTECT, related_name="runs"
    )
    content_hash = models.CharField(max_length=64)
    scale = models.CharField(_("scale"), max_length=16, choices=Scale)
    target = models.ForeignKey(Target, on_delete=models.PROTECT, related_name="runs")
    suite = models.ForeignKey(
        Suite, null=True, blank=True, on_delete=models.SET_NULL, related_name="runs"
    )
    threads = models.JSONField(_("thread counts"), default=list)
    time_limit_s = models.FloatField(
        null=True, blank=True, help_text=_("Hard limit per measurement; empty: from the profile.")
    )
    status = models.CharField(max_length=16, choices=Status, default=Status.QUEUED)
    # The reason and the step in English (the API, the admin, the commands) and as a
    # message (code and parameters) that the pages say in the reader's language.
    reason = models.TextField(blank=True)
    reason_message = models.JSONField(null=True, blank=True, editable=False)
    progress = models.FloatField(default=0.0)
    step = models.CharField(max_length=200, blank=True)
    step_message = models.JSONField(null=True, blank=True, editable=False)
    current_threads = models.PositiveIntegerField(null=True, blank=True)
    cancel_requested = models.BooleanField(default=False)
    task_id = models.CharField(max_length=64, blank=True)
    # When its task message was last sent and how often: the reconciler re-sends a queued
    # run whose message a broker lost (lifecycle.reconcile_queued).
    sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    sends = models.PositiveSmallIntegerField(default=0, editable=False)
    executed_by = models.CharField(
        _("executed by"), max_length=255, blank=True, help_text=_("The worker node that ran it.")
    )
    fingerprint = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    imported = models.BooleanField(default=False)
    # False: imported by a user who is not staff; it sizes only `created_by`'s plans until a
    # staff member confirms its target's tier link (which confirms the target's runs).
    confirmed = models.BooleanField(
        _("counts for everyone"), default=True,
        help_text=_("Unconfirmed: sizes only the plans of the user who imported it."),
    )  # fmt: skip
    source_host = models.CharField(
        _("measured on host"), max_length=255, blank=True, help_text=_("Host of an imported run.")
    )
    # A plan or a share may rest on a run: a run is retired (as tiers are), never deleted.
    retired_at = models.DateTimeField(
        _("retired at"), null=True, blank=True,
        help_text=_("Kept as history; a retired run never sizes a plan."),
    )  # fmt: skip

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "target"])]

    def __str__(self) -> str:
        return f"{self.profile_version} {self.scale} on {self.target.name}"

    @property
    def is_over(self) -> bool:
        return self.status not in self.ACTIVE

    @property
    def profile_name(self) -> str:
        return self.profile_version.profile.name

    @property
    def host_label(self) -> str:
        return self.source_host or self.fingerprint.get("hostname") or self.target.hostname

    @property
    def percent(self) -> int:
        return round(100 * max(0.0, min(1.0, self.progress)))

    @property
    def reason_shown(self) -> Message | None:
        """The reason as a message; a run from before messages (or an import) has only text."""
        return _shown(self.reason_message, self.reason)

    @property
    def step_shown(self) -> Message | None:
        return _shown(self.step_message, self.step)


def _shown(stored: dict | None, text: str) -> Message | None:
    if stored:
        try:
            return Message.from_json(stored)
        except (KeyError, TypeError, ValueError):
            pass  # a code this installation does not know (an imported run): its English
    return msg("common.text", text=text) if text else None


def as_message(said: Message | str) -> Message:
    """A message as it is; a text (from code not yet saying messages) as words shown as is."""
    return said if isinstance(said, Message) else msg("common.text", text=said)


def reason_fields(reason: Message | str | None) -> dict[str, Any]:
    """`reason` and `reason_message` for an update(): the English and the message."""
    if not reason:
        return {"reason": "", "reason_message": None}
    reason = as_message(reason)
    return {"reason": plain(reason), "reason_message": reason.to_json()}


def step_fields(step: Message | None) -> dict[str, Any]:
    if step is None:
        return {"step": "", "step_message": None}
    return {"step": plain(step).strip()[:200], "step_message": step.to_json()}


class Measurement(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="measurements")
    threads = models.PositiveIntegerField()
    repetition = models.PositiveIntegerField()
    warmup = models.BooleanField(default=False)
    value = models.FloatField()
    seconds = models.FloatField()

    class Meta:
        ordering = ["threads", "warmup", "repetition"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "threads", "warmup", "repetition"], name="measurement_unique"
            )
        ]

    def __str__(self) -> str:
        kind = "warm-up" if self.warmup else "rep"
        return f"{self.threads} threads {kind} {self.repetition}: {self.value:g}"


class Summary(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="summaries")
    threads = models.PositiveIntegerField()
    n = models.PositiveIntegerField()
    median = models.FloatField()
    min = models.FloatField()
    max = models.FloatField()
    mean = models.FloatField()
    cv = models.FloatField()
    stop_reason = models.CharField(max_length=32)
    outliers = models.JSONField(default=list, blank=True)
    peak_rss_bytes = models.BigIntegerField(null=True, blank=True)
    runtime = models.JSONField(default=dict, blank=True)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["threads"]
        verbose_name_plural = "summaries"
        constraints = [
            models.UniqueConstraint(fields=["run", "threads"], name="summary_unique_threads")
        ]

    def __str__(self) -> str:
        return f"{self.threads} threads: median {self.median:g} (n={self.n}, cv={self.cv:.3f})"
