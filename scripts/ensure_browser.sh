#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (no tool may download its own browser here).
# Installs it when missing and we may (root with apt-get); otherwise says how.
set -u
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing chromium and chromium-driver from Debian's packages"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) && exit 0
fi
echo "Chromium is missing: install it (Debian: apt-get install -y chromium chromium-driver); browser tests will fail without it." >&2
[ "${CI:-}" = "true" ] && exit 1
exit 0
