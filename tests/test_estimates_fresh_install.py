"""Issue 23's done-when on a fresh install: the workload plan of the issue (200 GBM
trainings a month on 40 GB, plus inference with a p99 bound) gets a figure for every tier
whose CPU the score data covers, each labelled as an estimate with its band, scaled from
the shipped reference runs (gbm-xgboost and inference-tabular, measured on a named,
busy 2-CPU VM); the tiers it cannot estimate say why. Bootstrap only: no run of ours."""

import json
from dataclasses import replace

import numpy as np
import pytest
from django.core.management import call_command

from benchmarks_app.estimate_selectors import tier_cpus, tier_side
from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from catalog.models import Tier
from common.messages import plain
from estimates import model
from planner.compute.schema import parse_plan
from planner.services import inputs
from tests.support.api import post_json, token_client

pytestmark = pytest.mark.django_db
# 200,000,000 rows x 50 float32 features = 40 GB
PLAN = {
    "currency": "USD",
    "baseline": {"monthly": "5000"},
    "workloads": [
        {"kind": "gbm", "trainings_per_month": 200, "rows": 200_000_000, "features": 50,
         "trees": 100},
        {"kind": "inference", "peak_rps": 200, "p99_ms": 50},
    ],
}  # fmt: skip


@pytest.fixture
def fresh_install(owner, settings, own_cache):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    call_command("bootstrap", "--no-input")


def test_every_covered_tier_gets_an_estimate_with_its_band_and_the_rest_say_why(fresh_install):
    gathered = inputs.gather(parse_plan(PLAN))
    slugs = list(Tier.objects.filter(retired=False).values_list("slug", flat=True))
    cpus = tier_cpus(slugs)
    covered = {s for s in slugs if cpus[s].vcpus and isinstance(tier_side(cpus[s]), model.Side)}
    assert len(covered) >= len(slugs) // 2  # most of the default catalog's CPUs are covered
    for slug in slugs:
        for cls in ("gbm", "inference"):
            found = gathered.measurements[slug, cls]
            if slug in covered:
                assert isinstance(found, BestMeasurement), (slug, cls, found)
                said = found.extra["estimate"]
                assert not found.measured and found.provenance["kind"] == "estimate"
                low, high = said["band"]
                assert 0 < low < 1 < high, (slug, cls, said["band"])
                labels = [plain(m) for m in found.estimate_labels()]
                assert labels and "estimate" in labels[0].lower(), labels
                assert said["reference"]["host"] == "reference-vm-xeon-2cpu"
            else:
                assert isinstance(found, NoMeasurement), (slug, cls)
                if not cpus[slug].vcpus:  # nothing to scale to: said as such
                    assert found.message.code == "benchmarks.tier_without_vcpus"
                    continue
                assert found.message.code.startswith("estimates."), found.message.code
                assert "no estimate" in plain(found.message)


def test_the_inference_estimate_carries_service_times_for_the_p99_bound(fresh_install):
    gathered = inputs.gather(parse_plan(PLAN))
    estimated = [v for (slug, cls), v in gathered.measurements.items()
                 if cls == "inference" and isinstance(v, BestMeasurement)]  # fmt: skip
    assert estimated
    for found in estimated:
        assert found.extra["p99_s"] > 0 and len(found.extra["service_times_s"])


def test_the_api_answer_labels_every_sized_option_an_estimate_with_its_band(fresh_install, owner):
    response = post_json(token_client(owner)[0], "/api/v1/evaluate", PLAN)
    assert response.status_code == 200
    body = response.json()
    assert body["options"], body["no_number"][:3]
    for option in body["options"]:
        assert option["figure"] == "estimate"
        for part in option["parts"]:
            for workload in part["capacity"]["workloads"]:
                said = workload["basis"]["published_estimate"]
                assert workload["basis"]["kind"] == "estimate" and len(said["band"]) == 2
    # a tier without a figure says why, once, and never for lack of a benchmark run alone
    for entry in body["no_number"]:
        assert entry["reasons"], entry


def test_the_plan_sizes_only_from_estimates_and_says_why_for_the_tiers_it_cannot_estimate(
    fresh_install, owner
):
    """The answer itself, not only the evidence: every option stands on covered tiers; a
    covered tier without an option has its figure but not the memory (the 40 GB working
    set); every tier the data cannot estimate is listed and says why. The tiers a plan
    without candidates sizes are the CPU tiers (GPU tiers are never sized for CPU work)."""
    body = post_json(token_client(owner)[0], "/api/v1/evaluate", PLAN).json()
    slugs = inputs.gather(parse_plan(PLAN)).prices.cpu_slugs()
    cpus = tier_cpus(slugs)
    covered = {s for s in slugs if cpus[s].vcpus and isinstance(tier_side(cpus[s]), model.Side)}
    sized = {part["tier"] for option in body["options"] for part in option["parts"]}
    assert sized and sized <= covered
    listed = {entry["tier"]: " ".join(entry["reasons"]) for entry in body["no_number"]}
    assert set(slugs) - covered <= set(listed)  # each tier it cannot estimate says why
    for slug, said in listed.items():
        if slug in covered:
            assert "no estimate" not in said and "working set" in said, (slug, said)
        else:
            assert "no estimate either: " in said or "specs unknown" in said, (slug, said)


EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"  # AMD EPYC 4545P
M5 = "aws-m5.4xlarge-us-east-1-on-demand"
NO_ROW = {
    "en": "No public row covers AMD EPYC 4545P: a nearest-neighbour estimate, AMD EPYC 4345P "
    "standing in for it (band widened).",
    "de": "Keine öffentliche Messreihe deckt AMD EPYC 4545P ab: eine Schätzung über den "
    "nächsten Nachbarn, AMD EPYC 4345P steht dafür ein (Spanne verbreitert).",
}


def test_a_nearest_neighbour_estimate_says_no_public_row_covers_the_cpu(fresh_install, owner):
    """Issue 23: no public row covers the EPYC 4545P (InMotion Extreme); its estimate says
    so in the API's provenance (a field) and in the page's marker, in English and German."""
    plan = {**PLAN, "candidates": [{"tier": EXTREME}, {"tier": M5}]}
    body = post_json(token_client(owner)[0], "/api/v1/evaluate", plan).json()
    said = {p["tier"]: [w["basis"]["published_estimate"] for w in p["capacity"]["workloads"]]
            for o in body["options"] for p in o["parts"]}  # fmt: skip
    for estimate in said[EXTREME]:
        assert estimate["no_public_row"] == [
            {"side": "tier", "cpu": "AMD EPYC 4545P", "nearest_neighbour": "AMD EPYC 4345P",
             "row": "cpu epyc-4345p"}
        ]  # fmt: skip
    assert all(e["no_public_row"] == [] for e in said[M5])  # its CPU's own public row
    from tests.support.dashboard import login, saved_plan

    saved = saved_plan(owner, name="issue 23", monthly="5000", candidates=plan["candidates"],
                       workloads=PLAN["workloads"])  # fmt: skip
    for language, words in NO_ROW.items():
        client = login(owner)
        client.cookies["django_language"] = language
        page = client.get(f"/plans/{saved.code}/").content.decode()
        rows = page.split('<tr class="option')[1:]
        [extreme] = [r for r in rows if "InMotion Hosting Extreme" in r]
        assert words in html_text(extreme), language
        assert not any("cpu-note" in r for r in rows if r is not extreme)


def html_text(html: str) -> str:
    import html as html_lib
    import re

    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", "", html)))


HETZNER = "hetzner-auction-sb-191830-fsn1-fixed-monthly"  # Intel Core i7-6700
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"  # no vCPU count
C5_2X = "aws-c5.2xlarge-us-east-1-on-demand"  # 16 GiB: the 40 GB working set does not fit
WAYS = {
    HETZNER: ("Cheapest way to a figure: a run file of", "from a server with Intel Core "
              "i7-6700 (the stand-alone runner,"),
    ADVANCED: ("The way to a figure: its vCPU count and RAM in the catalog",),
    C5_2X: ("No benchmark run changes this: the working set does not fit the tier's memory.",),
}  # fmt: skip


def test_tiers_without_an_estimate_are_listed_once_with_their_reason_and_cheapest_way(
    fresh_install, owner
):
    """Issue 23's done-when: the plan's repeated "no benchmark run" blocks are gone; each
    tier without an estimate is listed once, with its reasons and the cheapest way to a
    figure for what it lacks (never the whole standard suite for a tier no run can help)."""
    from tests.support.dashboard import login, saved_plan

    saved = saved_plan(owner, name="issue 23", monthly="5000", candidates=[],
                       workloads=PLAN["workloads"])  # fmt: skip
    page = login(owner).get(f"/plans/{saved.code}/").content.decode()
    body = eval_no_number(owner)
    tiers = page.split('<li class="missing-tier" data-tier="')[1:]
    listed = [t.split('"', 1)[0] for t in tiers]
    assert sorted(listed) == sorted(body) and len(set(listed)) == len(listed)
    assert 'details class="no-number"' not in page  # not listed a second time
    assert "standard benchmark suite" not in page
    for tier in tiers:
        assert tier.count('data-testid="way"') == 1
    for slug, words in WAYS.items():
        [said] = [html_text(t) for t in tiers if t.startswith(f'{slug}"')]
        assert all(w in said for w in words), (slug, said)
    assert 'data-way="speed-factor"' in page and page.count('data-way="fixed-count"') == 1
    german = login(owner)
    german.cookies["django_language"] = "de"
    page = html_text(german.get(f"/plans/{saved.code}/").content.decode())
    assert ("Günstigster Weg zu einer Zahl: eine Laufdatei von") in page
    assert "Kein Benchmark-Lauf ändert das" in page


def eval_no_number(owner) -> list[str]:
    body = post_json(token_client(owner)[0], "/api/v1/evaluate", PLAN).json()
    return [entry["tier"] for entry in body["no_number"]]


def test_tiers_of_one_cpu_side_and_thread_count_share_one_estimate_the_one_each_gets_alone(
    fresh_install,
):
    gathered = inputs.gather(parse_plan(PLAN))
    slugs = list(Tier.objects.filter(retired=False).values_list("slug", flat=True))
    cpus = tier_cpus(slugs)
    groups: dict[tuple, list[str]] = {}
    for slug in slugs:
        if isinstance(gathered.measurements[slug, "gbm"], BestMeasurement):
            tier = cpus[slug]
            key = model.side_key(tier.cpu_model, vendor=tier.provider, server=tier.name)
            groups.setdefault((key, tier.vcpus), []).append(slug)
    shared = [group for group in groups.values() if len(group) > 1]
    assert shared  # the default catalog sells one server in several regions and models
    for group in shared:
        first = gathered.measurements[group[0], "gbm"]
        assert all(gathered.measurements[s, "gbm"] is first for s in group)
    # Estimated alone, each tier gets an equal estimate (not the same object).
    slug = shared[0][1]
    alone = estimated_alone(slug, "gbm", NoMeasurement("no run"))
    assert alone == gathered.measurements[slug, "gbm"]  # gbm: no service-time arrays
    # Tiers of different thread counts do not share.
    counts = {vcpus: group for (key, vcpus), group in groups.items()}
    if len(counts) > 1:
        a, b = list(counts.values())[:2]
        assert gathered.measurements[a[0], "gbm"] is not gathered.measurements[b[0], "gbm"]


def test_the_estimates_kept_compact_are_those_each_pair_gets_alone(fresh_install):
    """`estimate_into` over the whole catalog (shared per CPU side, outcome and reason shape)
    says for every pair what it says for the pair alone: the same figure, or the same reason
    (its code, parameters and their order, as the API writes them)."""
    from benchmarks_app.selectors import best_measurements as select_measurements

    gathered = inputs.gather(parse_plan(PLAN))
    slugs = list(Tier.objects.filter(retired=False).values_list("slug", flat=True))
    selected = select_measurements(slugs, ["gbm", "inference"])
    missing = {k: v for k, v in selected.items() if isinstance(v, NoMeasurement)}
    alone = {(slug, cls): estimated_alone(slug, cls, why) for (slug, cls), why in missing.items()}
    assert len(alone) == len(missing)
    figures = {isinstance(found, BestMeasurement) for found in alone.values()}
    assert figures == {True, False}  # figures and reasons both compared
    said = lambda m: json.dumps(m.to_json())  # noqa: E731
    for key, found in alone.items():
        kept = gathered.measurements[key]
        if isinstance(found, BestMeasurement):  # inference's samples: arrays, compared apart
            times = [m.extra.get("service_times_s") for m in (kept, found)]
            assert (times[0] is None) == (times[1] is None), key
            assert times[0] is None or np.array_equal(times[0], times[1]), key
            bare = [replace(m, extra={**m.extra, "service_times_s": None}) for m in (kept, found)]
            assert bare[0] == bare[1], key
        else:
            assert isinstance(kept, NoMeasurement), key
            assert said(kept.message) == said(found.message), key


def estimated_alone(slug: str, cls: str, why: NoMeasurement):
    """`estimate_into` over one pair: what the pair gets with no other tier to share with."""
    from benchmarks_app.estimate_selectors import estimate_into
    from benchmarks_app.findings import Findings

    one = Findings([slug], [cls])
    one.put(slug, cls, why)
    estimate_into(one)
    return one[slug, cls]
