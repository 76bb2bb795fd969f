"""The most expensive plan-editor post a logged-in user can send, timed (issue 29, item 1).

In process (Django's test client, no server), on a throwaway SQLite database under a
temporary folder (migrated, the default catalog loaded). A post holding more rows than a
plan can is refused before any form is built; the worst post the editor still reads is
every list at its bound (`planner.web.formsets`: what a plan can hold plus the spare
rows) with every input of every row refused, so that every row is built, validated and
shown again with its errors. Cases:

- over_the_bound: every list's TOTAL_FORMS at 201 (the post that took 23.6 s before):
  refused with the short 400 page;
- every_row_refused: every list at its bound, as many inputs "x" as Django reads (its
  DATA_UPLOAD_MAX_NUMBER_FIELDS; the other rows blank, built all the same), a full page;
- every_row_refused_htmx: the same as the editor's live recompute sends it;
- largest_valid: the largest plan the rows can hold that is valid (every option a part
  each, every workload a GBM training), a full recompute through the engine.

Prints a table and writes bench/results/worst_form.json. Target: every case under 1 s
(the documented cost of any request a user can send to the editor).

    .venv/bin/python bench/worst_form.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "worst_form.json"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
TARGET_S = 1.0


def setup(folder: Path) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ["SQLITE_PATH"] = str(folder / "bench.sqlite3")
    os.environ["PLANNER_QUEUE_PREFIX"] = f"bench-{secrets.token_hex(4)}-"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from catalog.defaults import load_default_catalog

    load_default_catalog()


def posts() -> dict[str, dict[str, str]]:
    from django import forms
    from django.conf import settings

    from planner.compute import schema
    from planner.web import formsets
    from tests.support.dashboard import form_data

    lists = [("candidate", ""), ("commitment", ""), ("owned", "")]
    lists += [("workload", kind) for kind in schema.WORKLOAD_FIELDS]
    over = form_data()
    refused = form_data()
    # Django refuses a post of more fields (400) before any view: the rows beyond stay blank.
    max_fields = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    per_kind = formsets.ALL_WORKLOAD_ROWS // len(schema.WORKLOAD_FIELDS)
    for section, kind in lists:
        name = formsets.prefix(section, kind)
        over[f"{name}-TOTAL_FORMS"] = "201"
        rows = formsets.row_limit(section) if section != "workload" else per_kind
        refused[f"{name}-TOTAL_FORMS"] = str(rows)
        row = formsets.formset_class(section, "en", kind).form
        for i in range(rows):
            for field, widget in row.base_fields.items():
                if not isinstance(widget, forms.BooleanField) and len(refused) < max_fields:
                    refused[f"{name}-{i}-{field}"] = "x"
    valid = form_data()
    options, workloads = 100, 50
    valid["cand-TOTAL_FORMS"] = str(options)
    for i in range(options):
        valid.update({f"cand-{i}-name": f"option {i}", f"cand-{i}-tier": EXTREME,
                      f"cand-{i}-count": str(1 + i % 4)})  # fmt: skip
    valid["wl_gbm-TOTAL_FORMS"] = str(workloads)
    for i in range(workloads):
        valid.update({f"wl_gbm-{i}-name": f"training {i}", f"wl_gbm-{i}-trainings_per_month": "4",
                      f"wl_gbm-{i}-rows": str(100_000 * (1 + i)), f"wl_gbm-{i}-features": "50",
                      f"wl_gbm-{i}-trees": "200"})  # fmt: skip
    return {"over_the_bound": over, "every_row_refused": refused,
            "every_row_refused_htmx": refused, "largest_valid": valid}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp))
        return run(args.rounds)


def run(rounds: int) -> int:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("bench", "bench@example.com", "pw-bench-1")
    client = Client()
    client.force_login(user)
    out: dict[str, dict] = {}
    for case, data in posts().items():
        headers = {"HX-Request": "true"} if case.endswith("htmx") or case == "largest_valid" else {}
        times, status, size = [], 0, 0
        client.post("/plans/new", data, headers=headers)  # warm: imports, catalog frame
        for _ in range(rounds):
            start = time.perf_counter()
            response = client.post("/plans/new", data, headers=headers)
            times.append(time.perf_counter() - start)
            status, size = response.status_code, len(response.content)
        out[case] = {"fields_posted": len(data), "status": status, "response_bytes": size,
                     "median_s": round(statistics.median(times), 3),
                     "max_s": round(max(times), 3)}  # fmt: skip
    worst = max(out.values(), key=lambda c: c["max_s"])["max_s"]
    result = {"cases": out, "worst_s": worst, "target_s": TARGET_S,
              "python": platform.python_version(), "host": platform.node()}  # fmt: skip
    print(f"{'case':26} {'fields':>7} {'status':>6} {'bytes':>9} {'median s':>9} {'max s':>7}")
    for case, row in out.items():
        print(f"{case:26} {row['fields_posted']:7} {row['status']:6} {row['response_bytes']:9} "
              f"{row['median_s']:9.3f} {row['max_s']:7.3f}")  # fmt: skip
    print(f"worst form: {worst:.3f} s (target < {TARGET_S:.0f} s)")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
