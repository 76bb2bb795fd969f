"""The site's pages, one shared list: every test that looks at all pages walks this.

`seed_site(owner)` stores what the pages show (two plans with results, a live and a
revoked share link, a finished and a running benchmark run, a staff member, and a
workload plan with no figure yet, with its share link and a staff member's copy), and
`site_pages(site)` yields each page as `Page(name, url, persona, ...)`: the template
comment check, the Content-Security-Policy browser test and the screenshots read the
same list, so a new page is added once. Personas: "visitor" (logged out), "manager"
(the plans' owner, `owner` / `pw-owner-1`) and "staff" (a superuser, `admin` /
`pw-admin-1`). A page with `form` is a POST (the editor's live recompute, answered with
the results partial when `htmx`); a browser reaches it by typing instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from benchmarks_app.models import Run
from bills.models import Bill
from bills.services.importing import import_bill
from planner.models import Plan, Share
from planner.services import plans as services
from tests.support.bench import finished_run, target, version
from tests.support.bills import FOCUS, bill_sample
from tests.support.dashboard import CLOUD, form_data, saved_plan

PASSWORDS = {"manager": ("owner", "pw-owner-1"), "staff": ("admin", "pw-admin-1")}


@dataclass(frozen=True)
class Page:
    name: str
    url: str | Callable[[], str]
    persona: str  # visitor | manager | staff
    status: int = 200
    form: dict[str, str] | None = None  # posted: the editor's live recompute
    htmx: bool = False

    @property
    def path(self) -> str:
        return self.url() if callable(self.url) else self.url

    @property
    def in_browser(self) -> bool:
        """A page a browser can open by its address (a POST is typed instead)."""
        return self.form is None


@dataclass
class Site:
    plan: Plan
    other: Plan
    share: Share
    revoked: Share
    run: Run
    running: Run
    no_figure: Plan  # workloads, and no run on the candidate's tier: what is missing
    no_figure_staff: Plan  # the same, a staff member's: the link-and-queue action too
    no_figure_share: Share
    bill: Bill


# 60 trainings a month plus 500 requests a second at p99 50 ms, the cloud tier sized by
# the model: with no run on a target linked to it, the plan has no figure (issue 14 item 6).
NO_FIGURE = {
    "name": "needs evidence",
    "candidates": [{"tier": CLOUD}],
    "workloads": [
        {"kind": "gbm", "trainings_per_month": 60, "rows": 2_000_000, "features": 50,
         "trees": 500},
        {"kind": "inference", "peak_rps": 500, "p99_ms": 50},
    ],
}  # fmt: skip


def seed_site(owner: Any) -> Site:
    """The objects the pages show; needs a catalog with `DEDICATED` (two_tier_catalog)."""
    admin = get_user_model().objects.create_superuser("admin", "admin@example.com", "pw-admin-1")
    plan = saved_plan(owner, name="move to Extreme")
    other = saved_plan(owner, name="stay a while", monthly="400")
    share = services.share_create(plan=plan, user=owner)
    revoked = services.share_create(plan=plan, user=owner)
    services.share_revoke(revoked)
    host = target("epyc-4545p", hardware_threads=32, usable_cpus=32)
    profile = version()
    # 2 threads ten times slower than 1: the run page's warning is part of what is shown.
    run = finished_run(profile, host, {1: 100.0, 2: 10.0, 4: 360.0, 8: 640.0})
    running = finished_run(profile, host, {1: 100.0}, status=Run.Status.RUNNING)
    Run.objects.filter(pk=running.pk).update(progress=0.4, finished_at=None)
    no_figure = saved_plan(owner, **NO_FIGURE)
    no_figure_staff = saved_plan(admin, **NO_FIGURE)
    no_figure_share = services.share_create(plan=no_figure, user=owner)
    bill = import_bill(bill_sample(FOCUS), owner, name="focus-sep-2024.csv").bill
    return Site(plan, other, share, revoked, run, running, no_figure, no_figure_staff,
                no_figure_share, bill)  # fmt: skip


def site_pages(site: Site) -> Iterator[Page]:
    """Every page of the site a person sees, each with the persona that sees it."""
    yield Page("home (public)", "/", "visitor")
    yield Page("login", "/accounts/login/", "visitor")
    yield Page("home", "/", "manager")
    yield Page("plan editor, new", "/plans/new", "manager")
    yield Page("plan editor, with results", f"/plans/{site.plan.code}/", "manager")
    yield Page(
        "plan editor, recomputed (partial)",
        "/plans/new",
        "manager",
        form=form_data(baseline__monthly="600"),
        htmx=True,
    )
    yield Page(
        "plan editor, refused input (partial)",
        "/plans/new",
        "manager",
        form=form_data(baseline__monthly="-5"),
        htmx=True,
    )
    yield Page("plan editor, no figure yet", f"/plans/{site.no_figure.code}/", "manager")
    yield Page("plan editor, no figure yet (staff)", f"/plans/{site.no_figure_staff.code}/",
               "staff")  # fmt: skip
    yield Page("shared page", f"/s/{site.share.token}/", "visitor")
    yield Page("shared page, no figure yet", f"/s/{site.no_figure_share.token}/", "visitor")
    yield Page("shared page, revoked", f"/s/{site.revoked.token}/", "visitor", status=404)
    yield Page("compare", f"/plans/compare?a={site.plan.code}&b={site.other.code}", "manager")
    yield Page("catalog", "/catalog/", "visitor")
    yield Page("benchmarks", "/benchmarks/", "staff")
    yield Page("benchmark run", f"/benchmarks/runs/{site.run.pk}/", "staff")
    yield Page("benchmark run, running", f"/benchmarks/runs/{site.running.pk}/", "staff")
    yield Page("account", "/account/", "manager")
    yield Page("bills", "/bills/", "manager")
    yield Page("bill", f"/bills/{site.bill.pk}/", "manager")
    yield Page("not found", "/no-such-page/", "visitor", status=404)
    yield Page("catalog import (admin)", "/admin/catalog/price/import/", "staff")


def client_for(persona: str, language: str = "en") -> Client:
    """A test client logged in as the persona, reading in `language`."""
    from django.conf import settings

    client = Client()
    if persona in PASSWORDS:
        username, _password = PASSWORDS[persona]
        client.force_login(get_user_model().objects.get(username=username))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def fetch(client: Client, page: Page) -> Any:
    """The page's response, as its persona's browser would get it."""
    if page.form is None:
        return client.get(page.path)
    headers = {"HX-Request": "true"} if page.htmx else {}
    return client.post(page.path, page.form, headers=headers)
