#!/usr/bin/env bash
# Makes a Python with phoenixdb, the Avatica client Python users connect to Ferry with, for PythonClientTest.
# Debian's packages give gssapi (phoenixdb imports it; building it from PyPI needs Kerberos headers), protobuf and
# requests; pip adds phoenixdb itself into a venv that sees them. Prints the venv's python; the test reads it from
# FERRY_PYTHON.
set -euo pipefail
venv="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ferry/phoenixdb-venv}"
need=()
for pkg in python3-venv python3-gssapi python3-protobuf python3-requests; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >&2
fi
if ! "$venv/bin/python" -c "import phoenixdb" >/dev/null 2>&1; then
  /usr/bin/python3 -m venv --system-site-packages "$venv" >&2
  "$venv/bin/pip" install -q --no-deps phoenixdb==1.2.2 requests-gssapi==1.4.0 >&2
fi
echo "$venv/bin/python"
