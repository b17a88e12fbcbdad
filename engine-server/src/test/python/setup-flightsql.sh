#!/usr/bin/env bash
# Makes a Python with ADBC's Flight SQL driver and pyarrow, the Arrow clients Python users reach Ferry's Flight SQL
# endpoint with, for AdbcClientTest. Prints the venv's python; the test reads it from FERRY_FLIGHT_PYTHON.
set -euo pipefail
venv="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ferry/flightsql-venv}"
if ! dpkg -s python3-venv >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq python3-venv >&2
fi
if ! "$venv/bin/python" -c "import adbc_driver_flightsql.dbapi, pyarrow.flight" >/dev/null 2>&1; then
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q adbc-driver-flightsql==1.13.0 pyarrow==26.0.1 >&2
fi
echo "$venv/bin/python"
