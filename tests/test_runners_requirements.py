"""requirements-gpu.txt replaces requirements.txt on GPU targets; requirements-nn.txt is extra."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pins(path: Path) -> dict[str, str]:
    """name (lowercase, extras dropped) → the whole requirement line, comments skipped."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            name = re.split(r"[\[=<>!~; ]", line, maxsplit=1)[0].lower()
            out[name] = line
    return out


def test_the_gpu_file_is_requirements_txt_with_the_full_xgboost_wheel():
    cpu, gpu = pins(ROOT / "requirements.txt"), pins(ROOT / "requirements-gpu.txt")
    assert "xgboost-cpu" in cpu and "xgboost-cpu" not in gpu  # never both wheels
    version = re.search(r"==([\w.]+)", cpu["xgboost-cpu"])[1]
    assert gpu["xgboost"] == f"xgboost=={version}"
    same = {k: v for k, v in cpu.items() if not k.startswith("xgboost")}
    assert {k: v for k, v in gpu.items() if k != "xgboost"} == same


def test_the_cpu_file_picks_the_xgboost_wheel_by_platform_marker():
    text = (ROOT / "requirements.txt").read_text()
    assert re.search(r'^xgboost-cpu==[\d.]+; sys_platform == "linux"$', text, re.M)
    assert re.search(r'^xgboost==[\d.]+; sys_platform != "linux"$', text, re.M)


def test_the_nn_extra_pins_torch():
    assert re.search(r"^torch==\d+\.\d+\.\d+$", (ROOT / "requirements-nn.txt").read_text(), re.M)
