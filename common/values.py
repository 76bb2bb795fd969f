"""Comparing plain values as a reader would: "349.99" and 349.99 are the same figure."""

from decimal import Decimal
from typing import Any


def same_value(a: Any, b: Any) -> bool:
    """Equal, or lists of pairwise same values, or numbers equal as decimals.

    A boolean or None equals only itself (True is not "1"); text that is no number
    compares as text.
    """
    if a == b:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return False
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except ArithmeticError:
        return False
