"""Web load benchmark: a shared plan page and the htmx recompute, each beside a trivial view.

Serves the app with gunicorn (sync workers) on loopback from a throwaway SQLite
database set up here (migrate, bootstrap, a user with --plans plans, each opened once
so the home page has their stored figures, a share link), then drives it with `wrk`
(installed with apt-get when missing and we are root; else a Python load generator
with threads, and the results say so):

- GET /healthz: the trivial Django view, the baseline (full middleware stack);
- GET /s/<token>/: the shared plan page (frozen figures + today's recompute, body cached
  by token, language and data generation);
- GET / logged in: the home page (the plan list with each plan's stored figures, the
  catalog-freshness panel cached by data generation, the benchmark targets);
- POST /plans/<id>/ with HX-Request: the live recompute as the editor sends it (session
  cookie + CSRF token); every request types a different monthly spend, so no cache
  answers it: the form is validated by the schema, the plan evaluated, the results
  partial rendered.

The machine is shared, so its load drifts: the endpoints take turns in short rounds (a
warm-up round first), each at CONNECTIONS concurrent connections with no think time
(each of 10 users sends its next request as soon as the last one answers: harsher than
people typing); req/s is over all rounds, latency percentiles the median of the
rounds'. Three runs (--parts):

- ten: the four endpoints at 10 users on the default catalog. Targets (issues 5 and
  10): shared page at >= 0.5x the trivial view's requests per second; recompute p95 <
  100 ms (printed beside /healthz's p95 in the same rounds);
- typing: 10 typing users who think about 2 s (0.5-1.5x, random) between recomputes;
- crowd: first --crowd-tiers tiers (20,000) are imported through the catalog's import
  path (bench/catalog_page.py's CSV: a new data generation) and the plans opened again,
  then the shared page and the home page at 50 users (--crowd), interleaved the same
  way. Target (issue 15 item 11): home page at >= 0.5x the shared page's req/s.

Prints a table and writes bench/results/web_load.json (web_load_<copies>.json with
--copies).

    .venv/bin/python bench/web_load.py [--duration 10] [--workers 2] [--connections 10]
                                       [--cache redis|file] [--plans 5] [--crowd 50]
                                       [--crowd-tiers 20000] [--parts ten,typing,crowd]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import platform
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
RESULTS = ROOT / "bench" / "results" / "web_load.json"  # web_load_<copies>.json at scale
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
RESERVED = "aws-c5.4xlarge-us-east-1-reserved-1y"

SEED = f"""
import json, secrets
from django.contrib.auth import get_user_model
from planner.services import plans as services
password = secrets.token_urlsafe(12)
user = get_user_model().objects.create_user("bench", "bench@example.com", password)
plan = services.plan_create(owner=user, plan=services.parse({{
    "currency": "USD", "name": "Move to Extreme", "baseline": {{"monthly": "480"}},
    "one_time": {{"migration_hours": "40", "migration_rate": "87.50"}},
    "candidates": [{{"tier": "{EXTREME}", "count": 1}}, {{"tier": "{RESERVED}", "count": 1}}],
}}))
# The user's other plans, for the home page's list: other spends and candidates.
others = [services.plan_create(owner=user, plan=services.parse({{
    "currency": "EUR" if n % 2 else "USD", "name": f"Scenario {{n}}",
    "baseline": {{"monthly": str(300 + 90 * n)}},
    "candidates": [{{"tier": "{EXTREME}", "count": 1 + n % 2}}],
}})) for n in range(1, __PLANS__)]
share = services.share_create(plan=plan, user=user)
print("SEED" + json.dumps({{"password": password, "plan": str(plan.code), "token": share.token,
                            "plans": [str(p.code) for p in [plan, *others]]}}))
"""
# A catalog at cloud scale for the 50-user run: bench/catalog_page.py's tiers, imported
# through the catalog's own import path (a new data generation, as a price feed makes).
GROW = """
import sys, time
sys.path.insert(0, {bench!r})
from catalog_page import tiers_csv
from catalog.io.importer import import_catalog
from catalog.models import Tier
started = time.perf_counter()
import_catalog(tiers_csv({tiers}), "csv")
print("GROW", Tier.objects.filter(retired=False).count(), round(time.perf_counter() - started, 1))
"""

LUA = r"""
local template = os.getenv("BENCH_BODY")
local headers = {}
for pair in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^\n]+") do
  local k, v = pair:match("^([^:]+):%s*(.*)$")
  headers[k] = v
end
local method = os.getenv("BENCH_METHOD") or "GET"
local counter = 0
local think = tonumber(os.getenv("BENCH_THINK_MS") or "0")
if think > 0 then
  -- a user who looks at the answer before typing again: 50-150 % of the mean think time
  delay = function() return math.floor(think * (0.5 + math.random())) end
end
request = function()
  if method == "GET" then return wrk.format("GET", nil, headers, nil) end
  counter = counter + 1
  -- a different spend every request: each one is computed, never served from a cache
  local spend = string.format("%.2f", 300 + (counter * 7919 % 100000) / 100)
  local body = template:gsub("__SPEND__", spend)
  return wrk.format("POST", nil, headers, body)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT{"requests":%d,"duration_us":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,' ..
    '"mean_us":%.1f,"max_us":%d,"errors":%d,"non_2xx":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), latency.mean, latency.max,
    e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_ok(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def environment(tmp: Path, cache: str) -> tuple[dict[str, str], str]:
    """The server's environment. Production runs with Redis as its cache (REDIS_URL is
    required there), so the bench does too when one answers (REDIS_URL, else the local
    default); `--cache file` measures the file cache `make run` uses without servers."""
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    env.update(
        SQLITE_PATH=str(tmp / "bench.sqlite3"),
        PLANNER_VAR_DIR=str(tmp / "var"),
        PLANNER_QUEUE_PREFIX=f"bench-{secrets.token_hex(4)}-",
        SECRET_KEY=secrets.token_urlsafe(40),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        PYTHONPATH=str(ROOT),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    if cache == "redis" and not redis_ok(env["REDIS_URL"]):
        print(f"== no Redis at {env['REDIS_URL']}: the file cache instead")
        cache = "file"
    if cache == "file":
        env.pop("REDIS_URL", None)
    return env, cache


def manage(env: dict[str, str], *args: str) -> str:
    cmd = [sys.executable, str(ROOT / "manage.py"), *args]
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout


def seed(env: dict[str, str], copies: int = 0, plans: int = 1) -> dict:
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "bootstrap", "--no-input")
    if copies:  # a catalog at scale: bench/api_scale.py's imported copies of the default tiers
        grow = (f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); "
                "from api_scale import copies_csv; from catalog.io.importer import import_catalog; "
                f"import_catalog(copies_csv({copies}), 'csv')")  # fmt: skip
        manage(env, "shell", "-c", grow)
    out = manage(env, "shell", "-c", SEED.replace("__PLANS__", str(max(1, plans))))
    return json.loads(out.split("SEED", 1)[1].strip())


def grow(env: dict[str, str], tiers: int) -> tuple[int, float]:
    """Import `tiers` more tiers (the running server sees a new data generation)."""
    out = manage(env, "shell", "-c", GROW.format(bench=str(ROOT / "bench"), tiers=tiers))
    count, seconds = out.split("GROW", 1)[1].split()
    return int(count), float(seconds)


def start_gunicorn(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen:
    cmd = [str(VENV_BIN / "gunicorn"), "config.wsgi:application", "-k", "sync",
           "-w", str(workers), "-b", f"127.0.0.1:{port}", "--backlog", "256"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited:\n{log.read_text()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10)
            return proc
        except OSError:  # refused while booting, or a slow first answer
            time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGTERM)  # never leave a server behind
    raise TimeoutError(f"gunicorn not answering:\n{log.read_text()}")


def login(base: str, password: str) -> dict[str, str]:
    """A real browser-like login: the session and CSRF cookies the editor's requests carry."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"username": "bench", "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    opener.open(urllib.request.Request(f"{base}/accounts/login/", data=data,
                                       headers={"Referer": f"{base}/accounts/login/"}))  # fmt: skip
    return {c.name: c.value for c in jar}


def recompute_body(csrf: str) -> str:
    """What the editor posts (its formsets, rates as the form shows them: percentages)."""
    fields = {
        "csrfmiddlewaretoken": csrf, "currency": "USD", "name": "Move to Extreme",
        "horizon_months": "36", "annual_discount_rate": "7", "utilisation_target": "70",
        "monthly_growth": "0", "spot_interruption_allowance": "10",
        "baseline__monthly": "__SPEND__", "baseline__count": "1",
        "one_time__other": "0", "monthly__egress": "0", "monthly__other": "0",
        "cand-0-tier": EXTREME, "cand-0-count": "1", "cand-1-tier": RESERVED,
        "cand-1-count": "1", "cand-2-tier": "",
    }  # fmt: skip
    for prefix in FORMSETS:
        rows = 3 if prefix == "cand" else 1
        fields |= {f"{prefix}-TOTAL_FORMS": str(rows), f"{prefix}-INITIAL_FORMS": "0"}
    return urllib.parse.urlencode(fields)


# The editor's formsets: each posts its management fields.
FORMSETS = ("cand", "commit", "owned", "wl_gbm", "wl_sklearn", "wl_features", "wl_hpo",
            "wl_inference", "wl_nn", "wl_deep_learning")  # fmt: skip


def ensure_wrk() -> str | None:
    if shutil.which("wrk"):
        return shutil.which("wrk")
    if os.geteuid() == 0 and shutil.which("apt-get"):
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update", "-qq"], check=False, **quiet)
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "wrk"], check=False, env=apt_env, **quiet
        )
    return shutil.which("wrk")


def run_wrk(wrk: str, url: str, seconds: float, connections: int, **extra: str) -> dict:
    script = Path(tempfile.mkstemp(suffix=".lua")[1])
    script.write_text(LUA)
    env = {**os.environ, **extra}
    cmd = [wrk, "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
           "-s", str(script), url]  # fmt: skip
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    script.unlink()
    raw = json.loads(out.split("RESULT", 1)[1].strip())
    return summarise(raw["requests"], raw["duration_us"] / 1e6, raw, raw["errors"], raw["non_2xx"])


def combine(rounds: list[dict]) -> dict:
    """Interleaved rounds as one figure: requests per second over all rounds; latency
    percentiles as the median of the rounds' (the worst round's p95 kept beside)."""
    requests = sum(r["requests"] for r in rounds)
    seconds = sum(r["seconds"] for r in rounds)
    out = {"requests": requests, "rps": round(requests / seconds, 1), "rounds": len(rounds)}
    for key in ("p50_ms", "p95_ms", "p99_ms", "mean_ms"):
        out[key] = round(statistics.median(r[key] for r in rounds), 1)
    out["worst_round_p95_ms"] = max(r["p95_ms"] for r in rounds)
    out["errors"] = sum(r["errors"] for r in rounds)
    out["non_2xx"] = sum(r["non_2xx"] for r in rounds)
    return out


def summarise(requests: int, seconds: float, us: dict, errors: int, non_2xx: int) -> dict:
    return {
        "requests": requests,
        "seconds": seconds,
        "rps": round(requests / seconds, 1),
        "p50_ms": round(us["p50_us"] / 1000, 1),
        "p95_ms": round(us["p95_us"] / 1000, 1),
        "p99_ms": round(us["p99_us"] / 1000, 1),
        "mean_ms": round(us["mean_us"] / 1000, 1),
        "errors": errors,
        "non_2xx": non_2xx,
    }


def run_python(url: str, seconds: float, connections: int, method: str, headers: dict,
               body: str, think_ms: int = 0) -> dict:  # fmt: skip
    """The fallback load generator: `connections` threads, each a closed loop."""
    latencies: list[float] = []
    errors = non_2xx = 0
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def user(n: int) -> None:
        nonlocal errors, non_2xx
        count = 0
        while time.monotonic() < deadline:
            count += 1
            data = None
            if method == "POST":
                spend = f"{300 + (count * 7919 + n) % 100000 / 100:.2f}"
                data = body.replace("__SPEND__", spend).encode()
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    response.read()
                    ok = 200 <= response.status < 300
            except urllib.error.HTTPError:
                ok = False
            except (urllib.error.URLError, ConnectionError):
                with lock:
                    errors += 1
                continue
            with lock:
                latencies.append(time.perf_counter() - start)
                non_2xx += not ok
            if think_ms:
                time.sleep(think_ms * (0.5 + random.random()) / 1000)

    threads = [threading.Thread(target=user, args=(n,)) for n in range(connections)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    us = {"p50_us": q[49] * 1e6, "p95_us": q[94] * 1e6, "p99_us": q[98] * 1e6,
          "mean_us": statistics.fmean(latencies) * 1e6 if latencies else 0.0}  # fmt: skip
    return summarise(len(latencies), elapsed, us, errors, non_2xx)


def drain(base: str) -> None:
    """Wait out the requests a finished load run left queued (wrk stops mid-flight), so
    they do not count against the next endpoint measured."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        start = time.perf_counter()
        urllib.request.urlopen(f"{base}/healthz", timeout=10).read()
        if time.perf_counter() - start < 0.01:
            return
        time.sleep(0.05)


def measure(tool: str | None, endpoint: tuple, seconds: float, connections: int,
            think_ms: int = 0) -> dict:  # fmt: skip
    url, method, headers, payload = endpoint
    if tool:
        extra = {"BENCH_METHOD": method, "BENCH_BODY": payload, "BENCH_THINK_MS": str(think_ms),
                 "BENCH_HEADERS": "\n".join(f"{k}: {v}" for k, v in headers.items())}  # fmt: skip
        return run_wrk(tool, url, seconds, connections, **extra)
    return run_python(url, seconds, connections, method, headers, payload, think_ms)


PARTS = ("ten", "typing", "crowd")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per endpoint")
    parser.add_argument("--round", type=float, default=2, help="seconds per interleaved round")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--connections", type=int, default=10, help="concurrent users")
    parser.add_argument(
        "--think-ms",
        type=int,
        default=2000,
        help="mean think time of the typing users (second recompute figure)",
    )
    parser.add_argument("--cache", choices=("redis", "file"), default="redis",
                        help="Django cache: Redis (as in production) or file")  # fmt: skip
    parser.add_argument("--typing-duration", type=int, default=20,
                        help="seconds of the typing users' run")  # fmt: skip
    parser.add_argument("--crowd", type=int, default=50,
                        help="users of the shared-page-versus-home-page run")  # fmt: skip
    parser.add_argument("--crowd-tiers", type=int, default=20_000,
                        help="tiers imported before the crowd run (0: none)")  # fmt: skip
    parser.add_argument("--plans", type=int, default=5,
                        help="plans of the bench user (the home page lists them)")  # fmt: skip
    parser.add_argument("--parts", default=",".join(PARTS),
                        help="runs, in this order: ten (10 users, 4 endpoints), typing "
                             "(users who think), crowd (50 users, home vs shared)")  # fmt: skip
    parser.add_argument("--copies", type=int, default=0,
                        help="also import this many copies of the default tiers (2000: the "
                             "2,018-tier catalog of bench/api_scale.py)")  # fmt: skip
    args = parser.parse_args()
    args.parts = [p for p in PARTS if p in args.parts.split(",")]
    return args


def view_plans(base: str, cookie_header: str, codes: list[str]) -> None:
    """Each plan opened once, as its owner would: the home page then shows stored figures."""
    for code in codes:
        viewed = urllib.request.Request(f"{base}/plans/{code}/", headers={"Cookie": cookie_header})
        urllib.request.urlopen(viewed).read()


def interleaved(tool: str | None, endpoints: dict[str, tuple], rounds: int, seconds: float,
                connections: int, base: str) -> dict[str, dict]:  # fmt: skip
    """The endpoints in turn, round after round (round 0 warms up every worker and cache):
    the machine is shared, so its load drifts, and the ratios compare like with like."""
    collected: dict[str, list[dict]] = {name: [] for name in endpoints}
    for index in range(rounds + 1):
        for name, endpoint in endpoints.items():
            outcome = measure(tool, endpoint, seconds, connections)
            if index:
                collected[name].append(outcome)
            drain(base)
    return {name: combine(rounds_) for name, rounds_ in collected.items()}


def main() -> int:
    args = arguments()
    tmp = Path(tempfile.mkdtemp(prefix="web-load-"))
    env, cache = environment(tmp, args.cache)
    print(f"== setting up a throwaway database in {tmp}")
    seeded = seed(env, args.copies, args.plans)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    print(f"== gunicorn, {args.workers} sync workers, on {base} (cache: {cache})")
    server = start_gunicorn(env, port, args.workers, tmp / "gunicorn.log")
    catalog = f"default + {args.copies} imported copies" if args.copies else "default"
    crowd_catalog = catalog
    results: dict[str, dict] = {}
    try:
        cookies = login(base, seeded["password"])
        cookie_header = "; ".join(f"{k}={v}" for k, v in cookies.items())
        recompute_headers = {
            "Cookie": cookie_header, "X-CSRFToken": cookies["csrftoken"], "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded", "Referer": f"{base}/",
        }  # fmt: skip
        body = recompute_body(cookies["csrftoken"])
        view_plans(base, cookie_header, seeded["plans"])
        endpoints = {
            "healthz": (f"{base}/healthz", "GET", {}, ""),
            "shared_page": (f"{base}/s/{seeded['token']}/", "GET", {}, ""),
            "home": (f"{base}/", "GET", {"Cookie": cookie_header}, ""),
            "recompute": (f"{base}/plans/{seeded['plan']}/", "POST", recompute_headers, body),
        }
        check = urllib.request.Request(endpoints["recompute"][0], method="POST",
                                       data=body.replace("__SPEND__", "480").encode(),
                                       headers=recompute_headers)  # fmt: skip
        answer = urllib.request.urlopen(check).read().decode()
        assert 'data-testid="headline"' in answer, "the recompute did not answer with results"
        sizes = {name: len(urllib.request.urlopen(urllib.request.Request(url, headers=h)).read())
                 for name, (url, method, h, _body) in endpoints.items()
                 if method == "GET"}  # fmt: skip
        sizes["recompute"] = len(answer.encode())
        wrk = ensure_wrk()
        tool = (
            subprocess.run([wrk, "-v"], capture_output=True, text=True).stdout.split("\n")[0]
            if wrk
            else "python threads (wrk not available: install it with apt-get install wrk)"
        )
        print(f"== load tool: {tool}")
        rounds = max(1, round(args.duration / args.round))
        if "ten" in args.parts:
            results |= interleaved(wrk, endpoints, rounds, args.round, args.connections, base)
        if "typing" in args.parts:
            # Users who think between edits: Python threads, not wrk. With think time wrk's
            # delay() and gunicorn's sync workers (a new connection per request) inflate its
            # latencies several-fold (checked side by side); at ~5 req/s the threads' own
            # cost is small.
            typing = measure(None, endpoints["recompute"], args.typing_duration,
                             args.connections, think_ms=args.think_ms)  # fmt: skip
            typing["tool"] = "python threads"
            typing["think_time_ms_mean"] = args.think_ms
            results["recompute_typing_users"] = typing
        if "crowd" in args.parts:
            if args.crowd_tiers:
                tiers, seconds = grow(env, args.crowd_tiers)
                crowd_catalog = f"{tiers} tiers ({args.crowd_tiers} imported in {seconds} s)"
                print(f"== crowd run on {crowd_catalog}")
                view_plans(base, cookie_header, seeded["plans"])  # today's figures stored
            crowd = {name: endpoints[name] for name in ("shared_page", "home")}
            sizes |= {f"{name}_crowd": len(urllib.request.urlopen(urllib.request.Request(
                url, headers=h)).read()) for name, (url, _m, h, _b) in crowd.items()}  # fmt: skip
            found = interleaved(wrk, crowd, rounds, args.round, args.crowd, base)
            results |= {f"{name}_{args.crowd}_users": r for name, r in found.items()}
        for name, r in results.items():
            print(f"{name:24} {r['rps']:8.1f} req/s   p50 {r['p50_ms']:7.1f} ms   "
                  f"p95 {r['p95_ms']:7.1f} ms   p99 {r['p99_ms']:7.1f} ms   "
                  f"errors {r['errors']} non-2xx {r['non_2xx']}")  # fmt: skip
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    targets = verdicts(results, args)
    load = os.getloadavg()
    report = {
        "benchmark": "web_load",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count(), "load_average_after": [round(x, 2) for x in load]},
        "server": {"gunicorn_sync_workers": args.workers, "cache": cache, "database": "sqlite",
                   "catalog": catalog, "crowd_catalog": crowd_catalog,
                   "plans_of_the_user": max(1, args.plans)},
        "load": {"tool": tool, "connections": args.connections, "crowd": args.crowd,
                 "round_s": args.round, "rounds": rounds, "think_time_s": 0, "parts": args.parts,
                 "method": "endpoints interleaved round by round after a warm-up round; "
                           "req/s over all rounds, latency percentiles the median of the "
                           "rounds'"},
        "response_bytes": sizes,
        "results": results,
        "targets": targets,
    }  # fmt: skip
    out = RESULTS.with_name(f"web_load_{args.copies}.json") if args.copies else RESULTS
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"== wrote {out.relative_to(ROOT)} (load average now {load[0]:.2f})")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def verdicts(results: dict[str, dict], args: argparse.Namespace) -> dict[str, dict]:
    """Each target whose runs were made: its value, and whether it is met (printed too)."""
    targets = {}
    if "ten" in args.parts:
        ratio = results["shared_page"]["rps"] / results["healthz"]["rps"]
        p95 = results["recompute"]["p95_ms"]
        beside = results["healthz"]["p95_ms"]
        targets["shared_page_rps_vs_trivial"] = {"value": round(ratio, 2), "target": ">= 0.5",
                                                 "met": ratio >= 0.5}  # fmt: skip
        targets["recompute_p95_ms_10_users_no_think_time"] = {
            "value": p95,
            "target": "< 100",
            "met": p95 < 100,
            "healthz_p95_ms": beside,
            "vs_healthz_p95": round(p95 / beside, 2) if beside else None,
        }
        print(f"shared page at {ratio:.2f}x the trivial view's req/s (target >= 0.5): "
              f"{'met' if ratio >= 0.5 else 'NOT met'}")  # fmt: skip
        print(f"recompute p95 {p95} ms at {args.connections} users with no think time "
              f"(target < 100 ms): {'met' if p95 < 100 else 'NOT met'}; /healthz p95 "
              f"{beside} ms in the same rounds ({p95 / max(beside, 0.1):.1f}x)")  # fmt: skip
    if "typing" in args.parts:
        typing = results["recompute_typing_users"]
        print(f"recompute with typing users (think {args.think_ms} ms): "
              f"p95 {typing['p95_ms']} ms")  # fmt: skip
    if "crowd" in args.parts:
        home = results[f"home_{args.crowd}_users"]["rps"]
        shared = results[f"shared_page_{args.crowd}_users"]["rps"]
        ratio = home / shared
        targets[f"home_rps_vs_shared_page_{args.crowd}_users"] = {
            "value": round(ratio, 2),
            "target": ">= 0.5",
            "met": ratio >= 0.5,
        }
        print(f"home page at {ratio:.2f}x the shared page's req/s at {args.crowd} users "
              f"(target >= 0.5): {'met' if ratio >= 0.5 else 'NOT met'}")  # fmt: skip
    return targets


if __name__ == "__main__":
    sys.exit(main())
