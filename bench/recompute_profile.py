"""One editor recompute, end to end, under cProfile: where its time goes and its queries.

Sets up a throwaway SQLite database (migrate, bootstrap: the default catalog; `--copies N`
adds N imported copies of its tiers as bench/api_scale.py does, `--tiers N` N tiers of
bench/catalog_page.py's CSV), a user with `--plans` plans (the first the one
bench/web_load.py edits: 480 a month against one Extreme server and one reserved
c5.4xlarge, with migration hours), each opened once with the test client (every
per-process memo and cache entry warm, as in a served worker). Then posts the recompute
as the editor sends it (HX-Request, the formset fields, a different monthly spend each
time, so no cached answer serves it) `--runs` times: prints the SQL queries of one
recompute (and each of them with `-v`), the time per request in the quietest batch of
ten (and its CPU time), and the `--top` functions by cumulative and by own time. With
`--home` it profiles GET / the same way, with `--shared` the shared page. Not run in CI.

    .venv/bin/python bench/recompute_profile.py [--runs 50] [--top 40] [--copies 0]
                                                [--tiers 0] [--plans 1] [--home | --shared]
                                                [-v] [--out FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def setup(copies: int, tiers: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="recompute-profile-"))
    os.environ["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    os.environ["PLANNER_VAR_DIR"] = str(tmp / "var")
    os.environ.pop("DATABASE_URL", None)
    os.environ["DEBUG"] = "0"
    os.environ["PLANNER_QUEUE_PREFIX"] = f"bench-prof-{secrets.token_hex(4)}-"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("bootstrap", no_input=True, verbosity=0)
    if copies:
        from api_scale import copies_csv

        from catalog.io.importer import import_catalog

        import_catalog(copies_csv(copies), "csv")
    if tiers:
        from catalog_page import tiers_csv

        from catalog.io.importer import import_catalog

        started = time.perf_counter()
        import_catalog(tiers_csv(tiers), "csv")
        print(f"== {tiers} tiers imported in {time.perf_counter() - started:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--copies", type=int, default=0)
    parser.add_argument(
        "--tiers",
        type=int,
        default=0,
        help="also import this many tiers (bench/catalog_page.py's CSV)",
    )
    parser.add_argument("--plans", type=int, default=1, help="the user's plans, each viewed")
    parser.add_argument("--home", action="store_true", help="profile GET / instead")
    parser.add_argument("--shared", action="store_true", help="profile the shared page instead")
    parser.add_argument("-v", action="store_true", help="print each query")
    parser.add_argument("--out", help="also write the raw profile here (pstats)")
    args = parser.parse_args()
    setup(args.copies, args.tiers)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from web_load import EXTREME, RESERVED, recompute_body

    from planner.services import plans as services

    user = get_user_model().objects.create_user("bench", "bench@example.com", "x")
    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    for n in range(args.plans):
        plan = services.plan_create(owner=user, plan=services.parse({
            "currency": "USD", "name": f"Move to Extreme {n + 1}",
            "baseline": {"monthly": str(480 + 10 * n)},
            "one_time": {"migration_hours": "40", "migration_rate": "87.50"},
            "candidates": [{"tier": EXTREME, "count": 1}, {"tier": RESERVED, "count": 1}],
        }))  # fmt: skip
        url = f"/plans/{plan.code}/"
        assert client.get(url).status_code == 200  # viewed once: stored figures, warm memos
    body = recompute_body("x")
    headers = {"HTTP_HX_REQUEST": "true", "content_type": "application/x-www-form-urlencoded"}
    counter = iter(range(10**9))

    share = services.share_create(plan=plan, user=user)
    anonymous = Client()

    def once() -> None:
        if args.shared:
            response = anonymous.get(f"/s/{share.token}/")
        elif args.home:
            response = client.get("/")
        else:
            spend = f"{300 + next(counter) * 7919 % 100000 / 100:.2f}"
            response = client.post(url, body.replace("__SPEND__", spend), **headers)
        assert response.status_code == 200, response.status_code
        if not (args.home or args.shared):
            assert b'data-testid="headline"' in response.content

    for _ in range(3):
        once()  # warm
    with CaptureQueriesContext(connection) as queries:
        once()
    what = "GET /" if args.home else "the shared page" if args.shared else "one recompute"
    print(f"== {what}: {len(queries.captured_queries)} SQL queries")
    if args.v:
        for q in queries.captured_queries:
            print("  ", q["sql"][:300])
    # In batches of ten: the machine is shared, so the quietest batch says most about
    # the request itself (the median is printed beside it).
    batches, cpu = [], []
    for _ in range(max(1, args.runs // 10)):
        start, began = time.perf_counter(), time.process_time()
        for _ in range(10):
            once()
        batches.append((time.perf_counter() - start) / 10 * 1000)
        cpu.append((time.process_time() - began) / 10 * 1000)
    print(
        f"== {len(batches) * 10} requests unprofiled: {min(batches):.1f} ms each in the "
        f"quietest batch of ten ({min(cpu):.1f} ms of CPU), median batch "
        f"{statistics.median(batches):.1f} ms"
    )
    if not args.top and not args.out:
        return 0
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.runs):
        once()
    profile.disable()
    if args.out:
        profile.dump_stats(args.out)
    stats = pstats.Stats(profile).strip_dirs()
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
