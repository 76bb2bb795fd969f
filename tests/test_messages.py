"""Messages as data: a code and typed parameters, English for the API, the reader's
language and formats on a page, and the same message back from its JSON form."""

import datetime as dt
import re
from decimal import Decimal

import pytest

from common import message_texts
from common.django.message_render import render
from common.message_texts import N_, NP_, TEXTS
from common.messages import (
    Message,
    Money,
    Number,
    Percent,
    ProfileRef,
    TierRef,
    as_api,
    msg,
    plain,
    said,
)


@pytest.fixture
def codes(monkeypatch):
    monkeypatch.setitem(
        TEXTS, "test.saving", N_("%(tier)s saves %(amount)s a month from %(since)s (%(share)s)")
    )
    monkeypatch.setitem(
        TEXTS,
        "test.servers",
        NP_("%(count)s server of %(profile)s", "%(count)s servers of %(profile)s", "count"),
    )
    message_texts.placeholders.cache_clear()
    yield
    message_texts.placeholders.cache_clear()


def saving() -> Message:
    return msg(
        "test.saving",
        tier=TierRef("inmotion-extreme", "InMotion Extreme"),
        amount=Money(Decimal("1234.50"), "USD"),
        since=dt.date(2026, 1, 5),
        share=Percent(Decimal("0.125")),
    )


def test_the_api_text_is_english_with_iso_dates_and_plain_decimals(codes):
    assert plain(saving()) == "InMotion Extreme saves 1234.50 USD a month from 2026-01-05 (12.5 %)"


def test_a_page_shows_the_readers_formats(codes):
    assert (
        render(saving(), "en")
        == "InMotion Extreme saves $1,234.50 a month from Jan 5, 2026 (12.5%)"
    )


def test_german_localises_every_parameter_even_without_a_translation(codes):
    text = render(saving(), "de")
    assert "1.234,50\u00a0$" in text and "5. Jan. 2026" in text and "12,5\u00a0%" in text


def test_the_count_picks_singular_or_plural(codes):
    one = msg("test.servers", count=1, profile=ProfileRef("gbm-xgboost", "1.0"))
    three = msg("test.servers", count=3, profile=ProfileRef("gbm-xgboost", "1.0"))
    assert plain(one) == "1 server of gbm-xgboost 1.0"
    assert plain(three) == "3 servers of gbm-xgboost 1.0"
    assert render(three, "en") == "3 servers of gbm-xgboost 1.0"


def test_a_message_survives_its_json_form_with_types_kept(codes):
    nested = msg("common.text", text="x")
    original = Message(
        "test.servers", {"count": 2, "profile": ProfileRef("p", "1.0"), "why": nested,
                          "factor": Number(Decimal("1.50"), 2), "ratio": 0.25}
    )  # fmt: skip
    assert Message.from_json(original.to_json()).to_json() == original.to_json()
    assert Message.from_json(original.to_json()).params["why"] == nested


def test_a_profile_said_by_its_title_keeps_it_through_json_and_the_api_form_stays(codes):
    titled = msg("test.servers", count=1, profile=ProfileRef("gbm-xgboost", "1.0", "XGBoost"))
    assert render(titled, "en") == "1 server of XGBoost 1.0"
    assert Message.from_json(titled.to_json()) == titled
    untitled = msg("test.servers", count=1, profile=ProfileRef("gbm-xgboost", "1.0"))
    assert untitled.to_json()["params"]["profile"] == {"profile": "gbm-xgboost", "version": "1.0"}


def test_the_api_form_has_code_params_and_text(codes):
    api = as_api(saving())
    assert api["code"] == "test.saving"
    assert api["params"]["amount"] == {"amount": "1234.50", "currency": "USD"}
    assert api["params"]["since"] == {"date": "2026-01-05"}
    assert api["text"] == plain(saving())


def test_an_unknown_code_or_a_missing_parameter_is_refused_at_once(codes):
    with pytest.raises(KeyError, match="unknown message code"):
        msg("test.nothing")
    with pytest.raises(KeyError, match="lacks parameters"):
        msg("test.saving", tier=TierRef("x"))


def test_every_registered_text_has_german_with_the_same_placeholders():
    from django.utils import translation

    from common.message_texts import _PLACEHOLDER

    wrong = []
    with translation.override("de"):
        for code, text in TEXTS.items():
            forms = [text.singular] + ([text.plural] if text.plural else [])
            for english in forms:
                german = (
                    translation.ngettext(
                        text.singular, text.plural, 1 if english == text.singular else 2
                    )
                    if text.plural
                    else translation.gettext(english)
                )
                if set(_PLACEHOLDER.findall(german)) != set(_PLACEHOLDER.findall(english)):
                    wrong.append((code, english, german))
                elif german == english and re.search(
                    r"[A-Za-z]", re.sub(r"%\(\w+\)[a-z]", "", english)
                ):
                    wrong.append((code, english, "untranslated"))
    assert not wrong


def test_said_says_what_plain_and_to_json_say_for_every_parameter_type(codes):
    """The answer's tiers with no figure are said in one walk (`said`): the same English
    and JSON as `plain` and `to_json`, each parameter type, nested, in a list, with and
    without a memo shared over messages."""
    nested = msg("test.servers", count=3, profile=ProfileRef("gbm-xgboost", "1.0", "XGBoost"))
    cases = [
        saving(),
        nested,
        msg("test.servers", count=1, profile=[ProfileRef("p", "1.0"), ProfileRef("q", "2")]),
        Message("test.saving", {"tier": TierRef("t"), "amount": Number(Decimal("1.50"), 2),
                                "since": nested, "share": 0.25, "extra": [1, True, None]}),
        msg("common.text", text="x"),
    ]  # fmt: skip
    for message in cases:
        fresh = Message.from_json(message.to_json())  # its English not said yet
        assert said_as_json(fresh) == (plain(message), message.to_json())
        assert said_as_json(fresh) == (plain(fresh), fresh.to_json())  # and kept
        memo: dict = {}
        assert said_as_json(Message.from_json(message.to_json()), memo) == (
            plain(message),
            message.to_json(),
        )
        assert said_as_json(fresh, memo) == (plain(message), message.to_json())


def said_as_json(message: Message, memo: dict | None = None) -> tuple:
    """`said` as (English, `to_json()`), to compare with `plain` and `to_json`."""
    text, params = said(message, memo)
    return text, {"code": message.code, "params": params}
