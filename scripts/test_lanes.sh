#!/usr/bin/env bash
# The whole test suite in lanes (`make test`): each lane's time printed, every test run in
# exactly one lane, and a closing line that adds them up.
#   unit          everything but the lanes below, spread over the cores (pytest-xdist)
#   browser       headless Chromium pages (the accessibility crawl a test per language
#                 and width), spread over the cores
#   faults        real workers, beat and a Redis of their own, killed and cut off: alone,
#                 so that no other lane competes with the timings they check
#   schemathesis  generated requests against docs/openapi.yaml
# With PYTEST_ARGS, runs just `pytest $PYTEST_ARGS` instead (a focused run).
# LANES="unit browser" runs some lanes only; XDIST_WORKERS (default: auto) sets -n.
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
lane() {
  local name=$1; shift
  local start; start=$(date +%s)
  echo "=== [$(date -u +%H:%M:%S)] test lane: $name"
  "$PY" -m pytest -p no:cacheprovider --durations=15 --junitxml="$RESULTS/$name.xml" "$@"
  local lane_rc=$?
  echo "=== test lane $name took $(( $(date +%s) - start ))s (exit $lane_rc)"
  [ $lane_rc -eq 0 ] || rc=$lane_rc
}
for name in $LANES; do
  case $name in
    unit) lane unit -n "$WORKERS" -m "not browser and not faults and not schemathesis" ;;
    browser) lane browser -n "$WORKERS" -m "browser and not faults and not schemathesis" ;;
    faults) lane faults -m faults ;;
    schemathesis) lane schemathesis -m schemathesis ;;
    *) echo "unknown lane: $name" >&2; rc=2 ;;
  esac
done
"$PY" scripts/lane_totals.py "$RESULTS"/*.xml || { [ $rc -ne 0 ] || rc=1; }
exit $rc
