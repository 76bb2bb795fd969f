"""The German catalog is complete: every marked string translated, nothing fuzzy, .mo up to date.

`makemessages` runs on a copy of the source tree with the committed catalog, so it
finds exactly the strings the code marks today; any that are new come out empty
(or fuzzy, when gettext guesses from a similar one) and fail here with their text.
"""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ("planner", "catalog", "benchmarks_app", "bills", "common", "templates", "manage.py")
# Never user-facing: tests, build outputs, the virtualenv.
IGNORE = [".venv", "tests", "var", "staticfiles", "bench", "node_modules"]


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


def _unquote(line: str) -> str:
    return ast.literal_eval(line.strip())


def parse_po(text: str) -> list[Entry]:
    """A small .po reader: enough for gettext's own output (multi-line strings, plurals)."""
    entries: list[Entry] = []
    for block in text.split("\n\n"):
        entry, target = Entry(), None
        for line in block.splitlines():
            if line.startswith("#~"):
                entry.obsolete = True
                continue
            if line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#") or not line.strip():
                continue
            elif line.startswith('"'):
                _append(entry, target, _unquote(line))
            else:
                keyword, _, rest = line.partition(" ")
                target = keyword
                _append(entry, target, _unquote(rest), start=True)
        if target is not None or entry.obsolete:
            entries.append(entry)
    return entries


def _append(entry: Entry, target: str | None, value: str, start: bool = False) -> None:
    if target == "msgid":
        entry.msgid += value
    elif target == "msgid_plural":
        entry.msgid_plural += value
    elif target == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + value
    elif target and target.startswith("msgstr"):
        index = int(target[7:-1]) if "[" in target else 0
        entry.msgstr[index] = entry.msgstr.get(index, "") + value


def problems(entries: list[Entry]) -> list[str]:
    out = []
    for e in entries:
        if e.obsolete or not e.msgid:
            continue
        if "fuzzy" in e.flags:
            out.append(f"fuzzy: {e.msgid!r}")
        elif not e.msgstr or any(not v for v in e.msgstr.values()):
            out.append(f"untranslated: {e.msgid!r}")
    return out


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> list[Entry]:
    """makemessages over a copy of the sources, merged with the committed catalog."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("GNU gettext is missing (Debian: apt-get install gettext)")
    work = tmp_path_factory.mktemp("i18n")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, work / name)
    shutil.copytree(ROOT / "locale", work / "locale")
    from django.conf import settings

    here = Path.cwd()
    old_paths = settings.LOCALE_PATHS
    try:
        os.chdir(work)
        settings.LOCALE_PATHS = [work / "locale"]
        call_command("makemessages", locale=["de"], ignore_patterns=IGNORE, verbosity=0)
    finally:
        os.chdir(here)
        settings.LOCALE_PATHS = old_paths
    return parse_po((work / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text())


def test_every_marked_string_has_a_german_translation(extracted):
    found = {e.msgid for e in extracted}
    # The extraction really ran over the code and the templates of all three apps:
    assert {"Current monthly spend", "Catalog freshness", "Benchmarks", "current price"} <= found
    missing = problems(extracted)
    assert not missing, f"{len(missing)} strings need a German translation:\n" + "\n".join(
        missing[:50]
    )


def test_the_committed_catalog_has_no_empty_or_fuzzy_entries():
    assert not problems(parse_po(PO.read_text()))


def test_the_committed_mo_is_compiled_from_the_po():
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    for entry in parse_po(PO.read_text()):
        if entry.obsolete or not entry.msgid or "fuzzy" in entry.flags:
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural:
            for index, text in entry.msgstr.items():
                assert compiled.get((key, index)) == text, (entry.msgid, index)
        else:
            assert compiled.get(key) == entry.msgstr[0], entry.msgid


def test_msgfmt_accepts_the_catalog(tmp_path):
    if not shutil.which("msgfmt"):
        pytest.fail("GNU gettext is missing (Debian: apt-get install gettext)")
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(PO)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
