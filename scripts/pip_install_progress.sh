#!/usr/bin/env bash
# `pip install` with progress a terminal can see (make venv, make run): pip names each
# package as it downloads it, but its "Installing collected packages" step (about three
# minutes for the large wheels on a fresh machine) prints nothing, so a line every 15 s
# says how long it has been and how much of the environment is written so far.
#   scripts/pip_install_progress.sh .venv/bin/python -r requirements-dev.txt
set -u
py=$1
shift
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
start=$SECONDS
(
  while sleep 15; do
    printf '   ... installing: %s s so far, %s MB in %s\n' $((SECONDS - start)) \
      "$(du -sm "$site" 2>/dev/null | cut -f1)" "$site"
  done
) &
ticker=$!
trap 'kill $ticker 2>/dev/null' EXIT
"$py" -m pip install --disable-pip-version-check --progress-bar on "$@" \
  | grep --line-buffered -v '^Requirement already satisfied'
exit "${PIPESTATUS[0]}"
