"""The staff action offered beside a tier without a figure: link a benchmark target to
the tier and queue its standard suite."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.text import capfirst
from django.views.decorators.http import require_POST

from benchmarks_app import selectors as bench_selectors
from benchmarks_app.hardware_match import tier_mismatches
from benchmarks_app.services import RunRefused, link_and_run_suite
from catalog import selectors as catalog_selectors
from common.django.message_render import render as say
from common.messages import msg


class LinkTargetForm(forms.Form):
    target = forms.ModelChoiceField(bench_selectors.all_targets())
    tier = forms.ModelChoiceField(catalog_selectors.all_tiers(), to_field_name="slug")


@login_required
@require_POST
def link_target(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    form = LinkTargetForm(request.POST)
    if not form.is_valid():
        return HttpResponse(status=400)
    target, tier = form.cleaned_data["target"], form.cleaned_data["tier"]
    try:
        started = link_and_run_suite(target=target, tier=tier, user=request.user)
    except RunRefused as exc:
        for problem in exc.messages:
            messages.error(request, say(problem))
        return redirect("benchmarks:index")
    for problem in tier_mismatches(target.name, target.fingerprint, tier):
        messages.warning(request, capfirst(say(problem)))
    queued = msg("engine.suite_queued", count=len(started.runs), target=target.name, tier=tier.name)
    messages.success(request, say(queued))
    return redirect("benchmarks:suite", suite_id=started.suite.pk)
