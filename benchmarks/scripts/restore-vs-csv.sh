#!/usr/bin/env bash
# Restart from a data directory against loading the same tables from CSV (docs/performance.md, "Restart from a data
# directory"): one run of each, side by side, on this machine.
#
#   benchmarks/scripts/restore-vs-csv.sh [SCALE]     (default 1: SSB SF 1, 6 M lineorder rows, 600 MB of CSV)
#
# 1. writes the SSB tables as CSV (bin/ferry gen);
# 2. loads them with bin/ferry load --create into `ferry local --in-memory`      -> CSV load, in memory
# 3. loads them the same way into `ferry local --data-dir DIR`                   -> CSV load, kept on disk
# 4. stops that server and starts it again on DIR: the tables are restored      -> restore
# and prints the seconds of each and the ratios. Needs the server jar (bin/ferry builds it) and ~3x the CSV's size
# of free disk under ${TMPDIR:-/tmp}.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ferry="$root/bin/ferry"
scale="${1:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ferry-restore.XXXXXX")"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
export FERRY_HEAP="${FERRY_HEAP:-6g}"

. "$root/benchmarks/scripts/lib.sh"

echo "writing SSB SF $scale as CSV..."
"$ferry" gen --dataset ssb --scale "$scale" --out "$work/csv" >/dev/null 2>&1
echo "CSV: $(du -sh "$work/csv" | cut -f1)"

stop() { kill "$1"; wait "$1" 2>/dev/null || true; }

"$ferry" local --in-memory --no-planner-warmup --port "$port" --load-root "$work/csv" >"$work/mem.log" 2>&1 &
pid=$!; wait_for "$work/mem.log" "is ready"
t0=$(now); load_all; t1=$(now)
stop $pid

"$ferry" local --data-dir "$work/data" --no-planner-warmup --port "$port" --load-root "$work/csv" >"$work/kept.log" 2>&1 &
pid=$!; wait_for "$work/kept.log" "is ready"
t2=$(now); load_all; t3=$(now)
stop $pid
echo "data directory: $(du -sh "$work/data" | cut -f1)"

sync; t4=$(now)
"$ferry" local --data-dir "$work/data" --no-planner-warmup --port "$port" >"$work/restart.log" 2>&1 &
pid=$!; wait_for "$work/restart.log" "is ready"
t5=$(now)
restored="$(grep -o 'restoring tables from [^:]*: done, .*' "$work/restart.log" || true)"
stop $pid

# a JVM that starts and serves with nothing to restore, to tell the restore from the start-up around it
t6=$(now)
"$ferry" local --in-memory --no-planner-warmup --port "$port" >"$work/empty.log" 2>&1 &
pid=$!; wait_for "$work/empty.log" "is ready"; t7=$(now)
stop $pid

awk -v mem="$(echo "$t1 - $t0" | bc)" -v kept="$(echo "$t3 - $t2" | bc)" -v restart="$(echo "$t5 - $t4" | bc)" \
    -v empty="$(echo "$t7 - $t6" | bc)" -v line="$restored" 'BEGIN {
  printf "CSV load, in memory:            %7.1f s\n", mem
  printf "CSV load, kept in a data dir:   %7.1f s   (%.2fx the in-memory load)\n", kept, kept / mem
  printf "restart, restoring the tables:  %7.1f s   (%.2fx the in-memory CSV load; an empty start takes %.1f s)\n", restart, restart / mem, empty
  printf "  %s\n", line
}'
