"""The one rule for text cells in every CSV the product writes: no cell starts a formula.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some, a
leading tab or carriage return) as a formula: `=HYPERLINK(...)` in a shared export
would be a link to anywhere, `@SUM(1+1)*cmd|...` a command (OWASP, "CSV Injection").
Such a text cell gets a leading `'`, which spreadsheets read as "text follows".

A cell that already starts with `'` gets one more, so that removing exactly one
leading quote from a quoted text cell gives back the original (the catalog import
does that). Numbers are written by their own formatters and never pass through
here: a negative amount stays a number.
"""

from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


def neutralise(value: str) -> str:
    """Keep a spreadsheet from running a text cell as a formula."""
    return "'" + value if value.startswith(FORMULA_START) else value
