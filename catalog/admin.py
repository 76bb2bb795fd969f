"""Admin: tiers with their price history, append-only prices, import with preview.

Only staff holding the catalog permissions change prices. Price rows are never
changed or deleted here: "changing" a price saves a new row, recorded by the user.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from decimal import Decimal
from pathlib import Path

from celery.result import AsyncResult
from django.conf import settings
from django.contrib import admin, messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_htmx.http import HTMX_STOP_POLLING

from catalog import admin_unreadable
from catalog.feed_status import rendered_messages, source_statuses
from catalog.feeds.registry import SOURCES
from catalog.feeds.sync import summary
from catalog.forms import ImportUploadForm, PriceChangeForm
from catalog.io.exporter import export_catalog
from catalog.io.formats import check_size, detect_format, format_decimal
from catalog.io.importer import import_catalog
from catalog.io.records import CatalogFileError
from catalog.models import ExchangeRate, FeedImport, Price, PricingModel, Provider, Tier
from catalog.staleness import stale_after_days
from catalog.tasks import sync_prices
from common.django import clock
from common.django.message_render import render

IMPORT_DIR = Path(settings.VAR_DIR) / "catalog-imports"


def _with_current_price(queryset: QuerySet[Tier], as_of: dt.date) -> QuerySet[Tier]:
    newest = Price.objects.filter(tier=OuterRef("pk"), effective_from__lte=as_of).order_by(
        "-effective_from"
    )
    return queryset.annotate(
        current_from=Subquery(newest.values("effective_from")[:1]),
        current_amount=Subquery(newest.values("amount")[:1]),
        current_unit=Subquery(newest.values("unit")[:1]),
        current_currency=Subquery(newest.values("currency")[:1]),
        current_confirmed=Subquery(newest.values("confirmed")[:1]),
    )


def stale_q(as_of: dt.date) -> Q:
    """Tiers whose current price is older than the set age for their pricing model."""
    query = Q(pk__in=[])
    for model in PricingModel.values:
        cutoff = as_of - dt.timedelta(days=stale_after_days(model))
        query |= Q(pricing_model=model, current_from__lt=cutoff)
    return query


def amount_text(value: Decimal | None) -> str:
    """An amount with the decimals it needs: 349.99, 0.0416, 12.50 (never 349.990000)."""
    if value is None:
        return "—"
    text = format_decimal(value)
    whole, _dot, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


class StaleFilter(admin.SimpleListFilter):
    title = _("price freshness")
    parameter_name = "stale"

    def lookups(self, request, model_admin):
        return [("yes", _("stale")), ("no", _("fresh")), ("none", _("no price"))]

    def queryset(self, request, queryset):
        today = clock.today()
        if self.value() == "yes":
            return queryset.filter(stale_q(today))
        if self.value() == "no":
            return queryset.exclude(stale_q(today)).filter(current_from__isnull=False)
        if self.value() == "none":
            return queryset.filter(current_from__isnull=True)
        return queryset


class PriceHistoryInline(admin.TabularInline):
    """The tier's prices, newest first. Existing rows are read-only; new rows may be added."""

    model = Price
    extra = 0
    ordering = ["-effective_from"]
    fields = ["effective_from", "amount", "unit", "currency", "setup_fee", "source", "source_url",
              "confirmed", "recorder", "recorded_at"]  # fmt: skip
    readonly_fields = ["recorder", "recorded_at"]
    can_delete = False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("catalog.add_price")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Price]:
        # Rows SQLite holds beyond their column cannot be read: the tier's page names them.
        return super().get_queryset(request).exclude(id__in=admin_unreadable.unreadable(request))

    @admin.display(description=_("recorded by"))
    def recorder(self, price: Price) -> str:
        return price.recorder


@admin.register(Provider)
class ProviderAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["slug", "provider", "kind", "pricing_model", "region", "vcpus", "ram_gib",
                    "gpus", "current_price", "freshness", "retired"]  # fmt: skip
    list_filter = ["provider", "kind", "pricing_model", "region", StaleFilter, "retired"]
    search_fields = ["name", "slug"]
    list_select_related = ["provider"]
    inlines = [PriceHistoryInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tier]:
        return _with_current_price(super().get_queryset(request), clock.today())

    def has_delete_permission(self, request, obj=None) -> bool:
        # A tier no longer offered is marked retired and keeps its history.
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET" and str(object_id).isdigit():
            admin_unreadable.warn(request, admin_unreadable.tier_rows(request, int(object_id)))
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=_("current price"), ordering="current_amount")
    def current_price(self, tier: Tier) -> str:
        if tier.current_amount is None:
            return "—"
        amount = format_decimal(tier.current_amount)
        return f"{amount} {tier.current_currency}/{tier.current_unit} ({tier.current_from})"

    @admin.display(description=_("freshness"))
    def freshness(self, tier: Tier) -> str:
        if tier.current_from is None:
            return _("no price")
        age = (clock.today() - tier.current_from).days
        label = _("stale") if age > stale_after_days(tier.pricing_model) else _("fresh")
        return label if tier.current_confirmed else f"{label}, {_('unconfirmed')}"

    def save_formset(self, request, form, formset, change) -> None:
        for price in formset.save(commit=False):
            price.recorded_by = request.user
            price.save()


@admin.register(Price)
class PriceAdmin(admin.ModelAdmin):
    """Append-only: the change form of a price saves a new row, never edits the old one."""

    form = PriceChangeForm
    # One "price" column (amount, currency, unit) keeps the list within 1366 px.
    list_display = ["tier", "effective_from", "price", "setup", "freshness", "confirmed",
                    "recorder", "recorded_at"]  # fmt: skip
    list_filter = ["tier__provider", "tier__kind", "tier__pricing_model", "confirmed", "currency"]
    search_fields = ["tier__slug", "tier__name", "source"]
    list_select_related = ["tier", "recorded_by"]
    ordering = ["tier__slug", "-effective_from"]
    autocomplete_fields = ["tier"]
    change_list_template = "admin/catalog/price/change_list.html"

    def has_change_permission(self, request, obj=None) -> bool:
        # "Changing" a price adds a row, so it takes the permission to add one.
        return request.user.has_perm("catalog.add_price")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Price]:
        newest = Price.objects.filter(
            tier=OuterRef("tier"), effective_from__lte=clock.today()
        ).order_by("-effective_from")
        return (
            super()
            .get_queryset(request)
            .annotate(current_from=Subquery(newest.values("effective_from")[:1]))
            # Rows SQLite holds beyond their column cannot be read: the list names them.
            .exclude(id__in=admin_unreadable.unreadable(request))
        )

    def changelist_view(self, request, extra_context=None):
        if request.method == "GET":
            admin_unreadable.warn(request)
        return super().changelist_view(request, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        if str(object_id).isdigit() and int(object_id) in admin_unreadable.unreadable(request):
            return HttpResponseRedirect(reverse("admin:catalog_price_change", args=[object_id]))
        return super().history_view(request, object_id, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None:
            return form

        class NewRowForm(form):
            """The stored row as the start of a new one: plain amounts and today's date."""

            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, **kwargs)
                for name in ("amount", "setup_fee"):
                    if self.initial.get(name) is not None:
                        self.initial[name] = amount_text(self.initial[name])
                self.initial["effective_from"] = clock.today()

        return NewRowForm

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if str(object_id).isdigit() and int(object_id) in admin_unreadable.unreadable(request):
            return admin_unreadable.page(self, request, int(object_id))
        # Saving never edits the shown row: it adds a new one, and the page says so.
        context = {"title": _("Add a new price"), "subtitle": None, **(extra_context or {})}
        return super().change_view(request, object_id, form_url, context)

    @admin.display(description=_("price"), ordering="amount")
    def price(self, price: Price) -> str:
        return f"{amount_text(price.amount)} {price.currency} {price.get_unit_display()}"

    @admin.display(description=_("set-up fee"), ordering="setup_fee")
    def setup(self, price: Price) -> str:
        return amount_text(price.setup_fee) if price.setup_fee else "—"

    @admin.display(description=_("freshness"))
    def freshness(self, price: Price) -> str:
        """As in the tier list, for the row in force; earlier and later rows say which they are."""
        if price.effective_from > clock.today():
            return _("upcoming")
        if price.current_from is not None and price.effective_from < price.current_from:
            return _("replaced")
        age = (clock.today() - price.effective_from).days
        label = _("stale") if age > stale_after_days(price.tier.pricing_model) else _("fresh")
        return label if price.confirmed else f"{label}, {_('unconfirmed')}"

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj: Price, form, change: bool) -> None:
        if change:
            obj.pk = None
            obj._state.adding = True
        obj.recorded_by = request.user
        obj.recorded_by_text = ""
        obj.save()

    def response_change(self, request, obj):
        self.message_user(
            request, _("Saved as a new price row; the earlier row is kept."), messages.SUCCESS
        )
        return HttpResponseRedirect(reverse("admin:catalog_price_changelist"))

    @admin.display(description=_("recorded by"))
    def recorder(self, price: Price) -> str:
        return price.recorder

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("import/", view(self.import_view), name="catalog_price_import"),
            path("export/", view(self.export_view), name="catalog_price_export"),
            *super().get_urls(),
        ]

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload → preview of what would change → confirm. Nothing is written before confirm."""
        if not request.user.has_perm("catalog.add_price"):
            raise PermissionDenied
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": _("Import catalog"), "form": ImportUploadForm()}  # fmt: skip
        if request.method == "POST" and "token" in request.POST:
            return self._confirm_import(request, context)
        if request.method == "POST":
            form = ImportUploadForm(request.POST, request.FILES)
            context["form"] = form
            if form.is_valid():
                upload = form.cleaned_data["file"]
                try:
                    check_size(upload.size)
                    data = upload.read()
                    fmt = detect_format(upload.name, data)
                    context["change_set"] = import_catalog(data, fmt, dry_run=True)
                    context["replaced"] = _replaced_prices(context["change_set"].new_prices)
                except CatalogFileError as exc:
                    context["issues"] = exc.issues
                else:
                    context["token"] = _stash(request, data, fmt)
                    context["filename"] = upload.name
        return TemplateResponse(request, "admin/catalog/import.html", context)

    def _confirm_import(self, request: HttpRequest, context: dict) -> HttpResponse:
        stashed = _unstash(request, request.POST["token"])
        if stashed is None:
            messages.error(request, _("That upload has expired; upload the file again."))
            return HttpResponseRedirect(reverse("admin:catalog_price_import"))
        data, fmt = stashed
        try:
            # Checked again: the database may have changed since the preview.
            result = import_catalog(data, fmt, user=request.user)
        except CatalogFileError as exc:
            context["issues"] = exc.issues
            return TemplateResponse(request, "admin/catalog/import.html", context)
        summary = render(result.summary_message())
        messages.success(request, _("Imported: %(summary)s") % {"summary": summary})
        return HttpResponseRedirect(reverse("admin:catalog_price_changelist"))

    def export_view(self, request: HttpRequest) -> HttpResponse:
        if not request.user.has_perm("catalog.view_price"):
            raise PermissionDenied
        if admin_unreadable.unreadable(request):  # a file missing a row would not round-trip
            messages.error(request, _("The export needs every price row readable: delete the "
                                      "rows named below first."))  # fmt: skip
            return HttpResponseRedirect(reverse("admin:catalog_price_changelist"))
        fmt = "json" if request.GET.get("format") == "json" else "csv"
        history = request.GET.get("history") == "1"
        response = HttpResponse(
            export_catalog(fmt, history=history),
            content_type="application/json" if fmt == "json" else "text/csv; charset=utf-8",
        )
        name = f"catalog{'-history' if history else ''}-{clock.today().isoformat()}.{fmt}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


def _price_shown(amount: Decimal, currency: str, unit: str, day: dt.date) -> dict[str, object]:
    return {"amount": amount_text(Decimal(amount)), "currency": currency, "unit": unit, "day": day}


def _replaced_prices(records: list) -> list[tuple[str, dict, dict | None, bool]]:
    """Each new price beside the row it takes over from (the tier's newest row before it):
    (tier slug, new price, replaced price or None, confirmed)."""
    slugs = {record.slug for record in records}
    history: dict[str, list[Price]] = {}
    rows = Price.objects.filter(tier__slug__in=slugs).select_related("tier")
    for row in rows.order_by("-effective_from"):
        history.setdefault(row.tier.slug, []).append(row)
    pairs = []
    for record in records:
        new = record.price
        day = new["effective_from"]
        earlier = [row for row in history.get(record.slug, []) if row.effective_from < day]
        old = earlier[0] if earlier else None
        pairs.append((
            record.slug,
            _price_shown(new["amount"], new["currency"], new["unit"], day),
            _price_shown(old.amount, old.currency, old.unit, old.effective_from) if old else None,
            bool(new.get("confirmed", True)),
        ))  # fmt: skip
    return pairs


def _stash(request: HttpRequest, data: bytes, fmt: str) -> str:
    """Keep a previewed upload on disk until it is confirmed, keyed by a token in the session."""
    IMPORT_DIR.mkdir(parents=True, exist_ok=True)
    abandoned = time.time() - 24 * 3600
    for old in IMPORT_DIR.iterdir():
        if old.stat().st_mtime < abandoned:
            old.unlink(missing_ok=True)
    token = secrets.token_urlsafe(16)
    (IMPORT_DIR / f"{token}.{fmt}").write_bytes(data)
    request.session.setdefault("catalog_imports", [])
    request.session["catalog_imports"] = [*request.session["catalog_imports"][-4:], token]
    return token


def _unstash(request: HttpRequest, token: str) -> tuple[bytes, str] | None:
    if token not in request.session.get("catalog_imports", []):
        return None
    request.session["catalog_imports"] = [
        t for t in request.session["catalog_imports"] if t != token
    ]
    for fmt in ("csv", "json"):
        path = IMPORT_DIR / f"{token}.{fmt}"
        if path.exists():
            data = path.read_bytes()
            path.unlink()
            return data, fmt
    return None


@admin.register(ExchangeRate)
class ExchangeRateAdmin(admin.ModelAdmin):
    list_display = ["date", "from_currency", "to_currency", "rate", "source"]
    list_filter = ["from_currency", "to_currency"]
    ordering = ["from_currency", "to_currency", "-date"]
    search_fields = ["source"]

    def get_readonly_fields(self, request, obj=None):
        # A recorded rate is a dated fact: correct it by adding another date, not by editing.
        return ["date", "from_currency", "to_currency", "rate"] if obj else []


@admin.register(FeedImport)
class FeedImportAdmin(admin.ModelAdmin):
    """What each price-feed run did (catalog/feeds): read only, written by the sync."""

    list_display = [
        "started_at", "source", "region", "status", "version", "records", "new_tiers",
        "changed_prices", "unchanged", "retired", "refused_rows",
    ]  # fmt: skip
    list_filter = ["source", "status", "region"]
    readonly_fields = ["reasons"]
    exclude = ["messages"]

    @admin.display(description=_("messages"))
    def reasons(self, obj: FeedImport) -> str:
        return "\n".join(render(message) for message in obj.messages)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("sync/", view(self.sync_view), name="catalog_feed_sync"),
            path("sync/<str:source>/", view(self.sync_start), name="catalog_feed_sync_start"),
            path(
                "sync/<str:source>/progress/",
                view(self.sync_progress),
                name="catalog_feed_sync_progress",
            ),
            *super().get_urls(),
        ]

    def _may_sync(self, request: HttpRequest) -> None:
        if not request.user.has_perm("catalog.add_price"):
            raise PermissionDenied

    def sync_view(self, request: HttpRequest) -> HttpResponse:
        """Each source: last sync, result, counts, refusals, next due, and "Sync now"."""
        self._may_sync(request)
        statuses = source_statuses()
        for status in statuses:
            status.pending = sync_pending(status.name)  # type: ignore[attr-defined]
            status.messages = [  # type: ignore[attr-defined]
                (run.region, rendered_messages(run)) for run in status.runs if run.messages
            ]
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": _("Sync prices"), "sources": statuses}  # fmt: skip
        return TemplateResponse(request, "admin/catalog/feed_sync.html", context)

    def sync_start(self, request: HttpRequest, source: str) -> HttpResponse:
        """Queue `catalog.sync_prices` for one source on the control (default) queue."""
        self._may_sync(request)
        if request.method != "POST" or source not in SOURCES:
            return HttpResponseRedirect(reverse("admin:catalog_feed_sync"))
        if sync_pending(source) is None:
            result = sync_prices.apply_async(args=[source], queue="default")
            cache.set(_pending_key(source), {"task": result.id, "since": timezone.now()},
                      SYNC_PENDING_SECONDS)  # fmt: skip
        return HttpResponseRedirect(reverse("admin:catalog_feed_sync") + f"#source-{source}")

    def sync_progress(self, request: HttpRequest, source: str) -> HttpResponse:
        """The live part of one source while its sync runs; HTTP 286 (htmx: stop polling)
        once the task is over."""
        self._may_sync(request)
        pending = sync_pending(source)
        since = pending["since"] if pending else None
        runs = list(FeedImport.objects.filter(source=source, started_at__gte=since)
                    .order_by("started_at", "id")) if since else []  # fmt: skip
        over = pending is None or task_finished(pending["task"])
        if over and pending:
            cache.delete(_pending_key(source))
        for run in runs:
            run.summary_text = render(summary(run))  # type: ignore[attr-defined]
            run.message_texts = rendered_messages(run)  # type: ignore[attr-defined]
        context = {"source": source, "runs": runs, "over": over}
        response = TemplateResponse(request, "admin/catalog/feed_sync_progress.html", context)
        if over:
            response.status_code = HTMX_STOP_POLLING  # htmx stops an `every 1s` poll
        return response


SYNC_PENDING_SECONDS = 6 * 3600  # a sync still unfinished after this is no longer shown


def _pending_key(source: str) -> str:
    return f"catalog:feed-sync:{source}"


def sync_pending(source: str) -> dict | None:
    """The queued or running "Sync now" of a source: its task id and when it was queued."""
    return cache.get(_pending_key(source))


def task_finished(task_id: str) -> bool:
    return AsyncResult(task_id).ready()
