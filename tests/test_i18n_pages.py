"""Pages in German: German labels, decimal commas, money after the number; input read likewise."""

import pytest

from planner.models import Plan
from tests.support.dashboard import (
    edit_url,
    field_error,
    form_data,
    login,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
NBSP = "\u00a0"


def german(user):
    client = login(user)
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    return client


def test_the_language_switch_turns_the_editor_german(owner):
    plan = saved_plan(owner)
    html = german(owner).get(edit_url(plan)).content.decode()
    assert '<html lang="de">' in html
    assert "Aktuelle monatliche Ausgaben" in html
    assert "Heute und die Kandidaten" in html
    assert 'value="480,00"' in html  # the stored 480.00, shown German
    assert f"12.599,64{NBSP}$" in html  # 36 x 349.99
    assert "spart" in html and "im Monat" in html
    assert "Amortisation" in html


def test_english_stays_english(owner):
    plan = saved_plan(owner)
    html = login(owner).get(edit_url(plan)).content.decode()
    assert '<html lang="en">' in html
    assert "Current monthly spend" in html
    assert "$12,599.64" in html


def test_german_input_with_a_decimal_comma_is_read_as_a_decimal(owner):
    response = german(owner).post(
        "/plans/new", form_data(baseline__monthly="480,50", action="save")
    )
    assert response.status_code == 302
    assert Plan.objects.get().inputs["baseline"]["monthly"] == "480.50"


def test_schema_messages_come_in_german_with_german_numbers(owner):
    response = german(owner).post(
        "/plans/new",
        form_data(
            action="save",
            cand_0__count="",
            wl_inference_0__peak_rps="1000000000000",
            wl_inference_0__p99_ms="100",
        ),
    )
    assert response.status_code == 400
    message = field_error(response.content.decode(), "wl_inference_0__peak_rps")
    assert message == "Darf höchstens 1.000.000 Anfragen/s sein."
    assert Plan.objects.count() == 0


def test_the_home_page_in_german(owner):
    html = german(owner).get("/").content.decode()
    assert "Ihre Pläne" in html
    assert "Aktualität des Katalogs" in html
