"""Every response carries a strict Content-Security-Policy and a Permissions-Policy.

The policy allows our own origin only, with no inline script or style and no eval,
so no template of ours may hold any (the browser test checks the pages live).
"""

import re
from pathlib import Path

import pytest
from django.test import Client

from planner.services import plans as services
from tests.support.dashboard import login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = [ROOT / "templates", *ROOT.glob("*/templates")]
INLINE = {
    "a style attribute": re.compile(r"\sstyle\s*="),
    "a <style> element": re.compile(r"<style[\s>]"),
    "an inline <script>": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>"),
    "an on* handler": re.compile(r"\son[a-z]+\s*=", re.I),
    "an hx-on handler": re.compile(r"\shx-on"),
}


def csp(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().partition(" ")[::2] for part in header.split(";"))


@pytest.fixture
def pages(owner) -> dict[str, tuple[Client, str]]:
    plan = saved_plan(owner)
    share = services.share_create(plan=plan, user=owner)
    me = login(owner)
    return {
        "home": (me, "/"),
        "editor": (me, f"/plans/{plan.code}/"),
        "login": (Client(), "/accounts/login/"),
        "shared page": (Client(), f"/s/{share.token}/"),
        "shared csv": (Client(), f"/s/{share.token}/comparison.csv"),
        "api": (Client(), f"/api/v1/shared/{share.token}"),
        "healthz": (Client(), "/healthz"),
        "admin login": (Client(), "/admin/login/"),
        "not found": (Client(), "/no-such-page"),
        "nul in path": (Client(), "/s/%00/"),
    }


def test_every_response_has_a_strict_content_security_policy(pages):
    for name, (client, url) in pages.items():
        policy = csp(client.get(url))
        assert policy["default-src"] == "'self'", name
        assert (policy["frame-ancestors"], policy["object-src"]) == ("'none'", "'none'"), name
        text = " ".join(policy.values())
        assert "unsafe" not in text and "nonce" not in text, name


# Chromium's policy-controlled features this header may name (its
# third_party/blink/renderer/core/permissions_policy/permissions_policy_features.json5 and
# the console's "Unrecognized feature" warning): "bluetooth" is not one.
KNOWN_FEATURES = frozenset({
    "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
    "geolocation", "gyroscope", "hid", "idle-detection", "magnetometer", "microphone",
    "midi", "payment", "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
    "xr-spatial-tracking",
})  # fmt: skip


def test_the_header_names_only_features_chromium_knows():
    from planner.middleware import PERMISSIONS_POLICY

    named = {part.strip().split("=", 1)[0] for part in PERMISSIONS_POLICY.split(",")}
    assert "bluetooth" not in named
    assert named <= KNOWN_FEATURES, named - KNOWN_FEATURES


def test_every_response_denies_powerful_browser_features(pages):
    for name, (client, url) in pages.items():
        allowed = dict(
            part.strip().split("=", 1) for part in client.get(url)["Permissions-Policy"].split(",")
        )
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert allowed[feature] == "()", (name, feature)


def test_a_cached_shared_page_is_the_same_bytes_for_every_visitor(pages):
    client, url = pages["shared page"]
    assert client.get(url).content == Client().get(url).content  # so: no nonce in it


def test_no_template_holds_inline_script_style_or_handlers():
    found = []
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html"):
            text = re.sub(
                r"{#.*?#}|{% comment %}.*?{% endcomment %}", "", path.read_text(), flags=re.S
            )
            found += [
                f"{path.relative_to(ROOT)}: {what}"
                for what, rx in INLINE.items()
                if rx.search(text)
            ]
    assert found == []
