"""CPU names from feeds, offers and fingerprints reduce to one model key (or a family label)."""

import pytest

from estimates.cpu_keys import cpu_key, display


@pytest.mark.parametrize(
    ("text", "key", "exact", "family"),
    [
        # lscpu as Spare Cores' runs saw it, and AWS's offer files (physicalProcessor)
        ("Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz", "xeon-8275cl", True, "xeon-8"),
        ("Intel Xeon Platinum 8124M", "xeon-8124m", True, "xeon-8"),
        ("INTEL XEON PLATINUM 8573C", "xeon-8573c", True, "xeon-8"),
        ("Intel Xeon 8375C (Ice Lake)", "xeon-8375c", True, "xeon-8"),
        ("AMD EPYC 7R13 Processor", "epyc-7r13", True, "epyc-7"),
        ("AMD EPYC 9V45 96-Core Processor", "epyc-9v45", True, "epyc-9"),
        ("Intel(R) Xeon(R) 6975P-C", "xeon-6975p-c", True, "xeon-6"),
        ("Intel Xeon CPU E5-2686 v4 @ 2.30GHz", "xeon-e5-2686v4", True, "xeon-e5"),
        ("Intel(R) Xeon(R) E-2288G CPU @ 3.70GHz", "xeon-e-2288g", True, "xeon-e-2"),
        ("AWS Graviton3 Processor", "graviton3", True, "graviton3"),
        ("ARM Neoverse-N1 16 Core 0 MHz", "neoverse-n1", True, "neoverse-n1"),
        # dedicated servers: InMotion, Hetzner auction, Ryzen
        ("AMD EPYC 4545P", "epyc-4545p", True, "epyc-4"),
        ("AMD EPYC 4345P 8-Core Processor", "epyc-4345p", True, "epyc-4"),
        ("Intel Core i7-6700", "core-i7-6700", True, "core-i7"),
        ("AMD Ryzen 9 7950X", "ryzen-7950x", True, "ryzen-7"),
        # family labels only
        ("AMD EPYC", "epyc", False, "epyc"),
        ("Intel Xeon CPU @ 2.20GHz", "xeon", False, "xeon"),
        ("AMD EPYC-Milan Processor", "epyc-milan", False, "epyc-milan"),
        ("Intel Xeon Family", "xeon", False, "xeon"),
        ("Intel Skylake E5 2686 v5", "xeon-e5-2686v5", False, "xeon-e5"),
        ("Intel Core Processor (Haswell, no TSX)", "intel-haswell", False, "intel-haswell"),
        ("Intel Xeon Processor (Cascadelake)", "xeon-cascadelake", False, "xeon-cascadelake"),
    ],
)
def test_feed_names_reduce_to_model_keys(text, key, exact, family):
    found = cpu_key(text)
    assert (found.key, found.exact, found.family) == (key, exact, family)


def test_spellings_of_one_model_meet():
    spellings = [
        "Intel(R) Xeon(R) Platinum 8573C",
        "INTEL XEON PLATINUM 8573C",
        "INTEL(R) XEON(R) PLATINUM 8573C",
    ]
    assert {cpu_key(s).key for s in spellings} == {"xeon-8573c"}


@pytest.mark.parametrize("text", [None, "", "   ", "Standard", "unknown"])
def test_no_cpu_named_gives_no_key(text):
    assert not cpu_key(text)


def test_display_drops_lscpu_noise():
    assert display("Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz") == (
        "Intel Xeon Platinum 8275CL"
    )
