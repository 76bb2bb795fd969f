"""A regular expression for the decimal strings whose value lies in a closed range.

JSON Schema's `minimum`/`maximum` bind only a number; an amount the API also takes as a
string ("0.25") needs its bounds in the string's `pattern`, so that the document says
exactly which strings are taken (docs/design.md, "Bounds"). No library writes decimal
ranges as a pattern (the known generators do whole numbers only), hence this module.

The strings: an optional "+", digits with an optional fraction ("1", "1.", "1.50",
".5"), no exponent; a "-" only on a zero ("-0.00" is zero). With `places`, a fraction
has at most that many significant places (trailing zeros are free: "1.230" is 1.23).
Pure: no Django.
"""

from __future__ import annotations

from decimal import Decimal

D = "[0-9]"


def _int_range(low: int, high: int) -> list[str]:
    """Patterns for the whole numbers low…high written without leading zeros (0 as "0")."""
    if low > high:
        return []
    out: list[str] = []
    if low == 0:
        out.append("0")
        low = 1
        if low > high:
            return out
    width = len(str(low))
    while low <= high:
        # within one digit count
        top = min(high, 10**width - 1)
        out += _same_width(str(low), str(top))
        low, width = top + 1, width + 1
    return out


def _same_width(a: str, b: str) -> list[str]:
    """Patterns for the numbers a…b of the same digit count (a <= b)."""
    if len(a) == 1:
        return [a if a == b else f"[{a}-{b}]"]
    if a == b:
        return [a]
    rest = len(a) - 1
    if a[0] == b[0]:
        return [a[0] + p for p in _same_width(a[1:], b[1:])]
    out: list[str] = []
    # a[0] followed by a[1:]…99…9
    if a[1:] == "0" * rest:
        first_full = int(a[0])
    else:
        out += [a[0] + p for p in _same_width(a[1:], "9" * rest)]
        first_full = int(a[0]) + 1
    last_full = int(b[0]) if b[1:] == "9" * rest else int(b[0]) - 1
    if first_full <= last_full:
        lead = str(first_full) if first_full == last_full else f"[{first_full}-{last_full}]"
        out.append(f"{lead}{D}{{{rest}}}")
    if b[1:] != "9" * rest:
        out += [b[0] + p for p in _same_width("0" * rest, b[1:])]
    return out


def _tail(used: int, places: int | None) -> str | None:
    """Any digits after `used` fixed ones (at most `places` significant), then zeros."""
    if places is None:
        return f"{D}*"
    if used > places:
        return None
    return f"{D}{{0,{places - used}}}0*"


def _fraction_at_least(digits: str, places: int | None) -> list[str]:
    """Fraction digit strings F (after the point) with 0.F >= 0.digits (digits non-empty,
    no trailing zero)."""
    out: list[str] = []
    for i, d in enumerate(digits):
        if d != "9":
            tail = _tail(i + 1, places)
            if tail is not None:
                low = int(d) + 1
                cls = str(low) if low == 9 else f"[{low}-9]"
                out.append(digits[:i] + cls + tail)
    tail = _tail(len(digits), places)
    if tail is not None:
        out.append(digits + tail)
    return out


def _fraction_at_most(digits: str, places: int | None) -> list[str]:
    """Fraction digit strings F (possibly empty) with 0.F <= 0.digits."""
    out: list[str] = []
    for i, d in enumerate(digits):
        if d != "0":
            tail = _tail(i + 1, places)
            if tail is not None:
                high = int(d) - 1
                cls = "0" if high == 0 else f"[0-{high}]"
                out.append(digits[:i] + cls + tail)
    out.append(digits + "0*")
    out += [digits[:i] for i in range(len(digits))]  # a shorter prefix: the rest is zeros
    return out


def _fraction_between(low: str, high: str, places: int | None) -> list[str]:
    """0.low <= 0.F <= 0.high, both digit strings without trailing zeros (low may be "")."""
    common = 0
    while common < min(len(low), len(high)) and low[common] == high[common]:
        common += 1
    head = high[:common]
    low_rest, high_rest = low[common:], high[common:]
    if not low_rest:
        return [head + p for p in _fraction_at_most(high_rest, _less(places, common))]
    # low_rest and high_rest differ at their first digit, low's smaller.
    out = (
        [
            head + low_rest[0] + p
            for p in _fraction_at_least(low_rest[1:], _less(places, common + 1))
        ]
        if low_rest[1:]
        else [head + low_rest[0] + (_tail(common + 1, places) or "")]
    )
    first, last = int(low_rest[0]) + 1, int(high_rest[0]) - 1
    tail = _tail(common + 1, places)
    if first <= last and tail is not None:
        cls = str(first) if first == last else f"[{first}-{last}]"
        out.append(head + cls + tail)
    if high_rest[1:]:
        out += [
            head + high_rest[0] + p
            for p in _fraction_at_most(high_rest[1:], _less(places, common + 1))
        ]
    else:
        out.append(head + high_rest[0] + "0*")
    return out  # fmt: skip


def _less(places: int | None, used: int) -> int | None:
    return None if places is None else places - used


def _digits(fraction: Decimal) -> str:
    """0.050 → "05"; 0 → ""."""
    text = format(fraction, "f")
    return text.split(".", 1)[1].rstrip("0") if "." in text else ""


def _alt(items: list[str]) -> str:
    return items[0] if len(items) == 1 else "(" + "|".join(items) + ")"


def decimal_range_pattern(low: Decimal, high: Decimal, places: int | None = None) -> str:
    """An anchored pattern for the decimal strings whose value v has low <= v <= high
    (0 <= low <= high) and, with `places`, at most that many places."""
    if low < 0 or high < low:
        raise ValueError("0 <= low <= high")
    a, b = int(low), int(high)  # whole parts (non-negative: floor)
    lo_f, hi_f = _digits(low - a), _digits(high - b)
    any_fraction = _tail(0, places) or "0*"
    # (whole parts, fraction patterns, whether the whole number alone is in the range)
    branches: list[tuple[list[str], list[str], bool]] = []
    if a == b:
        branches.append(([str(a)], _fraction_between(lo_f, hi_f, places), not lo_f))
    else:
        first = _fraction_at_least(lo_f, places) if lo_f else [any_fraction]
        branches.append(([str(a)], first, not lo_f))
        if a + 1 <= b - 1:
            branches.append((_int_range(a + 1, b - 1), [any_fraction], True))
        branches.append(([str(b)], _fraction_at_most(hi_f, places) if hi_f else ["0*"], True))
    alternatives: list[str] = []
    for wholes, fractions, whole_alone in branches:
        fraction = _alt(fractions)
        nonempty = _alt(_nonempty(fractions))
        for whole in wholes:
            digits = "0+" if whole == "0" else f"0*{whole}"
            if whole_alone:
                alternatives.append(f"{digits}(\\.{fraction})?")
            else:
                alternatives.append(f"{digits}\\.{nonempty}")
            if whole == "0":  # ".5": no whole digits, a fraction digit follows the point
                alternatives.append(f"\\.{nonempty}")
    signed = "\\+?" + _alt(alternatives)
    if low == 0:
        signed = f"({signed}|-(0+(\\.0*)?|0*\\.0+))"
    return f"^{signed}$"


def _nonempty(fractions: list[str]) -> list[str]:
    """The same fraction patterns, less the empty string."""
    out = []
    for f in fractions:
        if f == "":
            continue
        if f in (f"{D}*", "0*"):
            out.append(f"{D}+" if f == f"{D}*" else "0+")
        elif f.startswith(f"{D}{{0,"):
            n = f[len(f"{D}{{0,") :].split("}", 1)[0]
            out.append(f"({D}{{1,{n}}}0*|0+)")
        else:
            out.append(f)
    return out
