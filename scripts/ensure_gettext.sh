#!/usr/bin/env bash
# The German catalog's completeness test runs makemessages, which needs GNU gettext
# (xgettext, msgmerge, msgfmt). Installs it when missing and we may (root with apt-get).
set -u
if command -v xgettext >/dev/null && command -v msgmerge >/dev/null && command -v msgfmt >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing gettext from Debian's packages"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null) && exit 0
fi
echo "GNU gettext is missing (Debian: apt-get install -y gettext); the i18n tests will fail without it." >&2
[ "${CI:-}" = "true" ] && exit 1
exit 0
