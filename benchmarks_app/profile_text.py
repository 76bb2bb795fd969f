"""A profile's words in the reader's language: its title, metric, unit and scaling rule.

A profile's content holds them in English where they have always been (`title`,
`metric.label`, `metric.unit`, `scaling_rule.text`: what the API, the exports and older
installations read) and, per language, under `i18n`, keyed by the path of the English
field each one translates:

    "i18n": {"de": {"title": "XGBoost-Training (hist)", "metric.unit": "Zell-Bäume/s"}}

A language without an entry shows the English, marked as such (a staff edit rarely
brings its German). Plain data: no Django, no request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from common.messages import Message, msg

TRANSLATABLE = ("title", "metric.label", "metric.unit", "scaling_rule.text")
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class Shown:
    text: str
    fallback: bool  # English shown to a reader of another language: the page marks it


def english(content: dict, path: str) -> str:
    value: Any = content
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, str) else ""


def translation(content: dict, path: str, language: str) -> str:
    entries = (content.get("i18n") or {}).get(language) or {}
    value = entries.get(path) if isinstance(entries, dict) else None
    return value if isinstance(value, str) else ""


def shown(content: dict, path: str, language: str | None) -> Shown:
    """The field in `language` ("de", "de-ch"), else its English, marked when it is not."""
    base = (language or SOURCE_LANGUAGE).split("-")[0].lower()
    source = english(content, path)
    if base == SOURCE_LANGUAGE or not source:
        return Shown(source, fallback=False)
    translated = translation(content, path, base)
    return Shown(translated, False) if translated else Shown(source, fallback=True)


def words(
    content: dict, language: str | None, paths: tuple[str, ...] = TRANSLATABLE
) -> dict[str, Shown]:
    """Each field as shown, keyed for a template: "metric.unit" → "metric_unit"."""
    return {path.replace(".", "_"): shown(content, path, language) for path in paths}


def without_stale_translations(before: dict, after: dict) -> dict:
    """`after` less each translation whose English changed while the translation did not:
    a German title that no longer says what the English says is worse than the English."""
    i18n = after.get("i18n")
    if not isinstance(i18n, dict):
        return after
    kept: dict[str, Any] = {}
    for language, entries in i18n.items():
        if not isinstance(entries, dict):
            kept[language] = entries
            continue
        kept[language] = {
            path: text
            for path, text in entries.items()
            if english(before, path) == english(after, path)
            or text != translation(before, path, language)
        }
    return {**after, "i18n": kept}


def problems(i18n: object) -> list[Message]:
    """What is wrong with an `i18n` block; empty when it is usable (or absent)."""
    if i18n is None:
        return []
    if not isinstance(i18n, dict):
        return [msg("benchmarks.profile_i18n_not_object")]
    found = []
    for language, entries in i18n.items():
        where = f"i18n.{language}"
        if not (isinstance(language, str) and language.isalpha() and language.islower()):
            found.append(msg("benchmarks.profile_i18n_language", where=where))
        elif not isinstance(entries, dict):
            found.append(msg("benchmarks.profile_i18n_entries", where=where))
        else:
            found += _entry_problems(where, entries)
    return found


def _entry_problems(where: str, entries: dict) -> list[Message]:
    found = []
    for path, text in entries.items():
        if path not in TRANSLATABLE:
            found.append(msg("benchmarks.profile_i18n_field", where=f"{where}.{path}",
                             fields=list(TRANSLATABLE)))  # fmt: skip
        elif not (isinstance(text, str) and text.strip()):
            found.append(msg("benchmarks.profile_i18n_text", where=f"{where}.{path}"))
    return found
