"""The default catalog that ships with the code, loaded by `make run` (manage.py bootstrap).

`catalog/data/default_catalog.csv` is in the import format (catalog/FORMAT.md): the tiers
and price points of the field-notes case (docs/design.md, "The field-notes case") and
public list prices, each with its source and date, plus sourced ECB exchange rates.
Loading is idempotent: a row already present with the same amount changes nothing, and
a tier already recorded keeps what staff have since edited on it. A shipped price is
never corrected in place (the import would refuse it): a correction is a new row with
its own date.
"""

from pathlib import Path

from catalog.io.importer import import_catalog
from common.messages import Message, msg, plain

DEFAULT_CATALOG = Path(__file__).resolve().parent / "data" / "default_catalog.csv"


def load_default_catalog(path: Path = DEFAULT_CATALOG) -> str:
    """Import the default catalog; return a one-line summary of what changed, in English."""
    return plain(load_default_catalog_message(path))


def load_default_catalog_message(path: Path = DEFAULT_CATALOG) -> Message:
    """Import the default catalog; the summary as a message, for a page."""
    result = import_catalog(path.read_bytes(), "csv", update_tiers=False)
    counts = {
        "tiers": len(result.new_tiers) + len(result.changed_tiers) + len(result.unchanged_tiers),
        "prices": len(result.new_prices) + len(result.unchanged_prices),
        "rates": len(result.new_rates) + len(result.unchanged_rates),
        "new": len(result.new_tiers) + len(result.new_prices) + len(result.new_rates),
    }
    if result.changed_tiers:
        return msg("catalog.default_summary_updated", **counts, updated=len(result.changed_tiers))
    return msg("catalog.default_summary", **counts)
