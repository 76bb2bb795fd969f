#!/usr/bin/env bash
# The whole test suite in lanes (`make test`): each lane's time printed, every test run in
# exactly one lane, and a closing line that adds them up.
#   unit          everything but the lanes below, spread over the cores (pytest-xdist)
#   browser       headless Chromium pages (the accessibility crawl a test per language
#                 and width), spread over the cores
#   faults        real workers, beat and a Redis of their own, killed and cut off: alone,
#                 so that no other lane competes with the timings they check
#   schemathesis  generated requests against docs/openapi.yaml
#   schemathesis-sqlite
#                 the same seeded run on SQLite (DATABASE_URL unset), not in the default
#                 lanes: CI adds it (.ci/run)
# With PYTEST_ARGS, runs just `pytest $PYTEST_ARGS` instead (a focused run).
# LANES="unit browser" runs some lanes only; XDIST_WORKERS (default: auto) sets -n.
# Lanes joined by "+" run at once ("schemathesis+schemathesis-sqlite": two single-process
# lanes on two cores), each logging to its own file, printed when all of them are done.
set -u
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
if [ -n "${PYTEST_ARGS:-}" ]; then
  # shellcheck disable=SC2086
  exec "$PY" -m pytest $PYTEST_ARGS
fi
LANES=${LANES:-unit browser faults schemathesis}
WORKERS=${XDIST_WORKERS:-auto}
RESULTS=${LANE_RESULTS:-test-artifacts/lanes}
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
rc=0
lane() {  # lane NAME [env NAME=...|-u NAME] -- PYTEST-ARGS...: one lane, timed
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local start; start=$(date +%s)
  echo "=== [$(date -u +%H:%M:%S)] test lane: $name"
  env "${envs[@]}" "$PY" -m pytest -p no:cacheprovider --durations=15 \
    --junitxml="$RESULTS/$name.xml" "$@"
  local lane_rc=$?
  echo "=== test lane $name took $(( $(date +%s) - start ))s (exit $lane_rc)"
  return $lane_rc
}
run_lane() {
  case $1 in
    unit) lane unit -- -n "$WORKERS" -m "not browser and not faults and not schemathesis" ;;
    browser) lane browser -- -n "$WORKERS" -m "browser and not faults and not schemathesis" ;;
    faults) lane faults -- -m faults ;;
    schemathesis) lane schemathesis -- -m schemathesis ;;
    schemathesis-sqlite) lane schemathesis-sqlite -u DATABASE_URL -- -m schemathesis \
      tests/test_api_schemathesis.py ;;
    *) echo "unknown lane: $1" >&2; return 2 ;;
  esac
}
for group in $LANES; do
  if [[ $group != *+* ]]; then
    run_lane "$group" || rc=$?
    continue
  fi
  pids=() names=()
  for name in ${group//+/ }; do
    run_lane "$name" > "$RESULTS/$name.log" 2>&1 &
    pids+=($!) names+=("$name")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || rc=$?
    cat "$RESULTS/${names[$i]}.log"
  done
done
"$PY" scripts/lane_totals.py "$RESULTS"/*.xml || { [ $rc -ne 0 ] || rc=1; }
exit $rc
