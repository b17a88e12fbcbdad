#!/usr/bin/env bash
# A cluster's coordinator restarted against loading the same tables from CSV (docs/performance.md, "Restarting a
# cluster's coordinator"): one run of each, side by side, on this machine.
#
#   benchmarks/scripts/cluster-restart.sh [SCALE]     (default 1: SSB SF 1, 6 M lineorder rows, 600 MB of CSV)
#
# 1. writes the SSB tables as CSV (bin/ferry gen);
# 2. loads them with bin/ferry load --create into a coordinator with two memory servers, tables in memory only
#                                                                                -> CSV load, in memory
# 3. the same into a coordinator that keeps a data directory                     -> CSV load, kept on disk
# 4. kill -9 of that coordinator, started again on the same directory while the memory servers run on: it adopts
#    the blocks they kept                                                        -> coordinator restart
# 5. kill -9 of everything, the memory servers started afresh, then the coordinator: the rows are read from the
#    coordinator's directory and placed anew                                     -> cluster restart
# A query's answer is compared after each restart with the one before. Prints the seconds of each and the ratios.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ferry="$root/bin/ferry"
scale="${1:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ferry-cluster-restart.XXXXXX")"
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
control=$((port + 1))
export FERRY_HEAP="${FERRY_HEAP:-4g}"
export FERRY_DIRECT_MEMORY="${FERRY_DIRECT_MEMORY:-3g}"
check="SELECT COUNT(*), SUM(lo_revenue), COUNT(DISTINCT lo_custkey) FROM lineorder"

. "$root/benchmarks/scripts/lib.sh"
answer() { "$ferry" sql --port "$port" -e "$check" 2>/dev/null | tail -1; }
coordinator() { # log, extra args...
  local log="$1"; shift
  "$ferry" coordinator --port "$port" --control-port "$control" --no-planner-warmup --load-root "$work/csv" "$@" \
    >"$log" 2>&1 &
  cpid=$!
}
memory_servers() { # tag
  "$ferry" memory --coordinator "127.0.0.1:$control" --name m1 --memory 1500m >"$work/m1-$1.log" 2>&1 &
  m1=$!
  "$ferry" memory --coordinator "127.0.0.1:$control" --name m2 --memory 1500m >"$work/m2-$1.log" 2>&1 &
  m2=$!
}
# starts the coordinator on the data directory, times it to "ready" ($took), keeps its restore line ($restored), and
# checks the query's answer against the one before the restart
restart() { # log, what
  local t0 answer_now
  t0=$(now)
  coordinator "$1" --data-dir "$work/data"
  wait_for "$1" "is ready"
  took="$(echo "$(now) - $t0" | bc)"
  restored="$(grep -o 'restored [0-9]* tables from .*' "$1" || true)"
  answer_now="$(answer)"
  [ "$before" = "$answer_now" ] || { echo "$2: '$answer_now', before '$before'" >&2; exit 1; }
}

echo "writing SSB SF $scale as CSV..."
"$ferry" gen --dataset ssb --scale "$scale" --out "$work/csv" >/dev/null 2>&1
echo "CSV: $(du -sh "$work/csv" | cut -f1)"

coordinator "$work/mem.log" --in-memory; memory_servers mem
wait_for "$work/mem.log" "is ready"; sleep 3
t0=$(now); load_all; t1=$(now)
kill9 $cpid $m1 $m2

coordinator "$work/kept.log" --data-dir "$work/data"; memory_servers kept
wait_for "$work/kept.log" "is ready"; sleep 3
t2=$(now); load_all; t3=$(now)
before="$(answer)"
echo "data directory: $(du -sh "$work/data" | cut -f1)"

kill9 $cpid; sync
restart "$work/restart.log" "coordinator restart"
warm=$took; adopted=$restored

kill9 $cpid $m1 $m2; sync
memory_servers fresh
restart "$work/cold.log" "cluster restart"
cold_s=$took; cold=$restored

awk -v mem="$(echo "$t1 - $t0" | bc)" -v kept="$(echo "$t3 - $t2" | bc)" -v warm="$warm" -v cold="$cold_s" \
    -v a="$adopted" -v c="$cold" -v q="$before" 'BEGIN {
  printf "CSV load into 2 memory servers, in memory:   %7.1f s\n", mem
  printf "CSV load, coordinator keeping a data dir:    %7.1f s   (%.2fx the in-memory load)\n", kept, kept / mem
  printf "coordinator kill -9 and restart:             %7.1f s   (%.2fx the in-memory CSV load)\n", warm, warm / mem
  printf "  %s\n", a
  printf "whole cluster kill -9 and restart:           %7.1f s   (%.2fx the in-memory CSV load)\n", cold, cold / mem
  printf "  %s\n", c
  printf "answer before and after both restarts:       %s\n", q
}'
