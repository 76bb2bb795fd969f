"""One evaluate path: the editor, the API and the services give one answer, cached by the
data generation, the date, the currency and the plan's content."""

import datetime as dt
import json
import pickle
from decimal import Decimal

import pytest
from django.core.cache import cache

from catalog.models import Tier
from common.django import clock
from common.messages import Message
from planner.compute.answer import Answer
from planner.services import evaluation
from planner.services import plans as services
from planner.web import dashboard
from tests.support.api import post_json, token_client
from tests.support.catalog import add_price, add_rate
from tests.support.dashboard import CLOUD, DEDICATED, days_ago, edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
PLAN = {
    "currency": "USD",
    "baseline": {"monthly": "1200"},
    "one_time": {"migration_hours": "40", "migration_rate": "90"},
    "candidates": [{"tier": DEDICATED, "count": 2}, {"tier": CLOUD, "count": 3}],
}


def plan(**changes):
    return services.parse({**PLAN, **changes})


def monthly(answer: Answer, tier: str) -> str:
    [option] = [o for o in answer.options if o.parts[0].tier == tier]
    return str(option.money.monthly[0])


def test_the_cached_answer_is_the_evaluation_and_the_apis(owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    cached = evaluation.answer(plan())
    assert isinstance(cached, Answer)
    assert cached == evaluation.evaluate(plan()).answer()
    api = token_client(owner)[0]
    answer = post_json(api, "/api/v1/evaluate", PLAN)
    assert answer.status_code == 200
    assert answer.content == evaluation.comparison_json(plan())
    assert answer.json() == evaluation.evaluate(plan()).to_dict()


def test_the_cache_keeps_the_model_and_gives_it_back_whole():
    """Django's cache pickles: the answer comes back as the same model, its sentences as
    the same messages (code and typed parameters), and it encodes to the same bytes."""
    fresh = evaluation.evaluate(plan()).answer()
    kept = pickle.loads(pickle.dumps(fresh))
    assert kept == fresh and kept is not fresh
    assert kept.options[0].title == fresh.options[0].title
    assert isinstance(kept.options[0].title, Message)
    assert kept.options[0].payback == fresh.options[0].payback
    assert kept.options[0].payback.params == {"month": 8}  # typed: an integer, not text
    assert kept.headline.sentences == fresh.headline.sentences
    assert kept.options[0].money.total == fresh.options[0].money.total
    assert isinstance(kept.options[0].money.total, Decimal)
    assert evaluation.encoded(kept.model_dump()) == evaluation.encoded(fresh.model_dump())
    cached = evaluation.answer(plan())  # through the cache: stored, then read back
    assert evaluation.answer(plan()) == cached == fresh


def test_a_second_answer_costs_only_the_generation_read(django_assert_num_queries):
    parsed = plan()
    first = evaluation.answer(parsed)
    with django_assert_num_queries(1):
        assert evaluation.answer(parsed) == first
    with django_assert_num_queries(1):  # encoded from the cached model: no evaluation
        first_bytes = evaluation.comparison_json(parsed)
    assert first_bytes == evaluation.encoded(first.model_dump())
    with django_assert_num_queries(1):
        assert evaluation.comparison_json(parsed) == first_bytes


def test_a_new_price_reaches_the_answer_at_once():
    before = evaluation.answer(plan())
    add_price(Tier.objects.get(slug=DEDICATED), "299.99", days_ago(0), unit="month")
    after = evaluation.answer(plan())
    assert (monthly(before, DEDICATED), monthly(after, DEDICATED)) == ("699.98", "599.98")
    assert after == evaluation.evaluate(plan()).answer()
    assert json.loads(evaluation.comparison_json(plan())) == evaluation.evaluate(plan()).to_dict()


def test_a_price_dated_tomorrow_counts_from_tomorrow_without_another_write(monkeypatch):
    today = clock.today()
    add_price(Tier.objects.get(slug=DEDICATED), "299.99", today + dt.timedelta(days=1),
              unit="month")  # fmt: skip
    assert monthly(evaluation.answer(plan()), DEDICATED) == "699.98"
    monkeypatch.setattr(clock, "today", lambda: today + dt.timedelta(days=1))
    assert monthly(evaluation.answer(plan()), DEDICATED) == "599.98"


def test_two_spellings_of_one_plan_share_one_answer_and_other_plans_do_not():
    today = clock.today()
    # A plan in EUR needs a rate to be valid.
    add_rate(days_ago(30).isoformat(), "EUR", "USD", "1.08")
    generation = evaluation.engine_inputs.generation_or_current(None)

    def key(data: dict) -> str:
        return evaluation.cache_key("comparison", services.parse(data), today, generation)

    spelled = {**PLAN, "baseline": {"monthly": 1200.0}, "horizon_months": 36}
    assert key(spelled) == key(PLAN)
    assert key({**PLAN, "currency": "EUR"}) != key(PLAN)
    assert key({**PLAN, "name": "another plan"}) != key(PLAN)


def test_a_page_reads_the_cached_model_and_no_json_of_it(owner):
    """The editor's figures come from the answer's model as the cache keeps it: the page
    neither encodes the answer to JSON nor reads JSON back (the API's bytes are written
    only when the API asks), and the dashboard refuses anything but the model."""
    stored = saved_plan(owner)
    parsed = services.stored_plan(stored)
    generation = evaluation.engine_inputs.generation_or_current(None)
    today = clock.today()
    cache.clear()
    page = login(owner).get(edit_url(stored))
    assert page.status_code == 200 and 'data-testid="headline"' in page.content.decode()
    kept = cache.get(evaluation.cache_key("answer", parsed, today, generation))
    assert isinstance(kept, Answer)
    assert cache.get(evaluation.cache_key("comparison", parsed, today, generation)) is None
    assert dashboard.results(kept).best.total == kept.options[0].money.total
    with pytest.raises(TypeError):
        dashboard.results(json.loads(evaluation.comparison_json(parsed)))


def test_the_answers_sources_leave_the_engines_comparison_as_it_was():
    """Provenance is set on the answer's copies: the capacities the engine's comparison
    holds (the capacity table built them, the odds read them again) gain no sources."""
    gbm = {"kind": "gbm", "rows": 1_000_000, "features": 50, "trees": 200,
           "trainings_per_month": 10}  # fmt: skip
    evaluated = evaluation.evaluate(plan(workloads=[gbm]))
    answer = evaluated.answer()
    sized = [p.capacity for o in answer.options for p in o.parts if p.capacity is not None]
    assert sized and all(c.provenance is not None for c in sized)
    held = [p.capacity for o in evaluated.comparison.options for p in o.parts]
    assert any(c is not None for c in held)
    assert all(c.provenance is None for c in held if c is not None)


def test_a_request_digests_the_plan_once_for_its_keys(monkeypatch):
    """`comparison_json` and `snapshot` look up two kinds under one plan: its digest is made
    once, the keys the same as each made on its own."""
    parsed, today = plan(), clock.today()
    generation = evaluation.engine_inputs.generation_or_current(None)
    digest = evaluation.content_digest(parsed)
    for kind in ("comparison", "answer", "snapshot"):
        assert evaluation.cache_key(kind, parsed, today, generation, content=digest) == (
            evaluation.cache_key(kind, parsed, today, generation)
        )
    made = []
    real = evaluation.content_digest
    monkeypatch.setattr(evaluation, "content_digest", lambda p: made.append(p) or real(p))
    cache.clear()
    data = evaluation.comparison_json(parsed)  # a miss: the comparison's and the answer's keys
    assert len(made) == 1
    assert cache.get(evaluation.cache_key("comparison", parsed, today, generation)) == data
    made.clear()
    evaluation.snapshot(parsed)  # a miss: the snapshot's and the comparison's keys
    assert len(made) == 1
