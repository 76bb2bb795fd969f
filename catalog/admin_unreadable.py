"""Price rows the admin cannot read: SQLite keeps an amount or set-up fee beyond its
column's range written before the feeds' bounds existed, and Django's decimal converter
raises on reading it (PostgreSQL refuses such a write, so there is none there).

The price list and a tier's price history leave such rows out and name each one with its
stored value (a warning above the list); the row's own page says it cannot be read and
offers only to delete it (a form could not show it, nor could a new row start from it).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from catalog.models import Price
from catalog.pricing import out_of_range
from common.django.message_render import render


def unreadable(request: HttpRequest) -> dict[int, str]:
    """{price id: what its stored value is, in the reader's language}, once per request."""
    found = getattr(request, "_unreadable_prices", None)
    if found is None:
        found = {}
        if connection.vendor == "sqlite":
            said, ids = out_of_range(Price.objects.all())
            for message in said:  # a row may hold both columns beyond their range
                pk = message.params["price"]
                found[pk] = f"{found[pk]}; {render(message)}" if pk in found else render(message)
            found.update({pk: found.get(pk, "") for pk in ids})
        request._unreadable_prices = found  # type: ignore[attr-defined]
    return found


def warn(request: HttpRequest, ids: list[int] | None = None) -> None:
    """A warning per unreadable row (`ids`: only those), linking to the page that deletes it."""
    for pk, text in unreadable(request).items():
        if ids is None or pk in ids:
            url = reverse("admin:catalog_price_change", args=[pk])
            messages.warning(request, format_html(
                '{} <a href="{}">{}</a>', text, url, _("Delete the row")))  # fmt: skip


def tier_rows(request: HttpRequest, tier_id: int) -> list[int]:
    ids = list(unreadable(request))
    return list(Price.objects.filter(tier_id=tier_id, id__in=ids).values_list("id", flat=True))


def page(model_admin, request: HttpRequest, pk: int) -> HttpResponse:
    """The row's page: what it holds and a button that deletes it (POST)."""
    if not model_admin.has_view_or_change_permission(request):
        raise PermissionDenied
    if request.method == "POST":
        if not request.user.has_perm("catalog.delete_price"):
            raise PermissionDenied
        # Deferred, the two columns are never read: the signals' change record needs
        # only the row's tier and date.
        Price.objects.defer("amount", "setup_fee").get(pk=pk).delete()
        messages.success(request, _("Deleted the unreadable price row %(price)s.") % {"price": pk})
        return HttpResponseRedirect(reverse("admin:catalog_price_changelist"))
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": _("This price row cannot be read"),
        "said": unreadable(request)[pk],
        "may_delete": request.user.has_perm("catalog.delete_price"),
    }
    return TemplateResponse(request, "admin/catalog/price/unreadable.html", context)
