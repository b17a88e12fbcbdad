#!/usr/bin/env bash
# Makes what BrowserAttackTest drives a real web browser with: Debian's Chromium and ChromeDriver, and Selenium from
# PyPI in a venv (Selenium is told where the driver is, so it downloads no browser). Prints the venv's python; the
# test reads it from FERRY_BROWSER_PYTHON.
set -euo pipefail
venv="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ferry/browser-venv}"
need=()
for pkg in chromium chromium-driver python3-venv; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
if ! "$venv/bin/python" -c "import selenium" >/dev/null 2>&1; then
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q selenium==4.27.1 >&2
fi
echo "$venv/bin/python"
