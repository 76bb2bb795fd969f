#!/usr/bin/env bash
# The benchmark runner scores its host with stress-ng (Debian package stress-ng), the test
# behind the public data's sng_div16_* columns. Installs it when missing and we may (root
# with apt-get); otherwise says how. A runner without it still runs: the host then has no
# score of its own, and estimates use its CPU model's published score where there is one.
set -u
if command -v stress-ng >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing stress-ng from Debian's packages"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null) && exit 0
fi
echo "stress-ng is missing: install it (Debian: apt-get install -y stress-ng); the host gets no CPU score of its own without it." >&2
exit 0
