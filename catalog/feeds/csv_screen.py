"""Screening a large CSV file a megabyte at a time, for the lines worth parsing.

A regional AWS offer file has a million lines, of which the importer keeps about one in
twenty. Handing every line to `csv.reader` and then to Python costs more than the rest of
an import together. This module lets C do that work a block of text at a time:

- one compiled regular expression checks that every line of a block is in the exact
  form the feed writes (every field quoted, no quote or line break inside a field, the
  header's number of fields) and that each checked column holds a value the line-by-line
  checks would accept; a block that does not match is handed back whole, and the caller
  checks it, and everything after it, line by line (so a refusal names the same lines);
- of a block that matches, only the lines that hold every wanted value as a whole field
  are returned, numbered, for `csv.reader`: found by searching the block (in C) for the
  rarest of the wanted texts, each line found then tested for the others.

Written here rather than taken from a library: no CSV library screens blocks of text
with a caller's per-column patterns; pyarrow's and pandas' readers parse every field of
every line (the cost this avoids) and report no physical line numbers.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import NamedTuple

BLOCK_CHARS = 1 << 20
FIELD = r'"[^"\n]*+"'  # quoted, no quote or line break inside; possessive: no backtracking


def block_pattern(width: int, cells: dict[int, str], split_at: int | None = None,
                  variants: tuple[dict[int, str], ...] = ()) -> re.Pattern[str]:  # fmt: skip
    """A pattern for a block of whole lines of `width` quoted fields. `cells` gives the
    pattern of a field's content by column index (default: anything). Where `variants` is
    given, the fields from column `split_at` on follow one of them (each a `cells`-like
    overlay), as a line's term type decides which columns must hold what."""

    def fields(start: int, overlay: dict[int, str]) -> str:
        both = {**cells, **overlay}
        return ",".join(f'"{both[i]}"' if i in both else FIELD for i in range(start, width))

    if variants and split_at:
        head = ",".join(f'"{cells[i]}"' if i in cells else FIELD for i in range(split_at))
        line = head + ",(?:" + "|".join(fields(split_at, v) for v in variants) + ")"
    else:
        line = fields(0, {})
    return re.compile(f"(?:{line}\\n)*+")


def needles(columns: dict[int, str], width: int) -> list[str]:
    """The wanted values as the quoted fields they must be, a run of adjacent columns as
    one text (a longer text is rarer, so fewer lines hold it), the longest first."""
    runs: list[list[int]] = []
    for index in sorted(columns):
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    out = []
    for run in runs:
        before = "," if run[0] > 0 else ""
        after = "," if run[-1] < width - 1 else ""
        out.append(before + ",".join(f'"{columns[i]}"' for i in run) + after)
    return sorted(out, key=len, reverse=True)


class Block(NamedTuple):
    first_line: int
    lines: list[tuple[int, str]]  # the candidates: (line number, text without line break)
    rest: str | None  # a block not in the feed's form: its text, for line-by-line reading


def screen(
    text: io.TextIOBase, pattern: re.Pattern[str], wanted: list[str], first_line: int
) -> Iterator[Block]:
    """Read `text` to its end a block at a time, its lines numbered from `first_line`.
    Yields each block in the feed's exact form with its candidate lines: those holding
    each of the `wanted` texts (`needles`; at least one). The first block
    not in that form ends the screening: it is yielded as `rest`, and the caller reads it
    and the rest of `text` line by line."""
    line = first_line
    while True:
        block = text.read(BLOCK_CHARS)
        if not block:
            return
        if not block.endswith("\n"):
            block += text.readline()
        if pattern.fullmatch(block) is None:
            yield Block(line, [], block)
            return
        first, numbered = line, []
        lead, others = wanted[0], wanted[1:]
        counted, at = 0, block.find(lead)
        while at >= 0:  # each line holding the first text, then tested for the others
            start, end = block.rfind("\n", 0, at) + 1, block.find("\n", at)
            line += block.count("\n", counted, start)
            counted, found = start, block[start:end]
            if all(map(found.__contains__, others)):
                numbered.append((line, found))
            at = block.find(lead, end)
        line += block.count("\n", counted)
        yield Block(first, numbered, None)
