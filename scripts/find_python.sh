#!/usr/bin/env bash
# Print the path of a Python >= 3.12 that really runs (a pyenv shim for an
# inactive version does not), or say what to install and fail.
set -u
ok() { "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
for cand in ${PYTHON:-} python3.14 python3.13 python3.12 python3; do
  path=$(command -v "$cand" 2>/dev/null) || continue
  if ok "$path"; then echo "$path"; exit 0; fi
done
root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
if [ -d "$root/versions" ]; then
  for dir in $(ls -1 "$root/versions" | grep -E '^3\.[0-9]+\.[0-9]+$' | sort -t. -k1,1nr -k2,2nr -k3,3nr); do
    for exe in "$root/versions/$dir/bin/python3"; do
      if [ -x "$exe" ] && ok "$exe"; then echo "$exe"; exit 0; fi
    done
  done
fi
echo "No Python >= 3.12 found: install Python 3.12 or newer (e.g. 'pyenv install 3.13' or your OS package python3.13) and run make again." >&2
exit 1
