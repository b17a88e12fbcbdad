#!/usr/bin/env bash
# Replication's price and its catch-up (docs/performance.md, "Replicas"): one run of each, side by side, on this
# machine.
#
#   benchmarks/scripts/replicas.sh [SCALE]     (default 1: SSB SF 1, 6 M lineorder rows, 600 MB of CSV)
#
# 1. writes the SSB tables as CSV (bin/ferry gen);
# 2. a coordinator with two memory servers and a compute server, each block on one memory server: loads the CSV with
#    bin/ferry load --create (timed), runs the 13 SSB queries (timed, answers kept);
# 3. the same with --replicas 2: every block on both memory servers                       -> load, queries
# 4. kill -9 of memory server m1: the 13 queries again, read from m2's copies (answers compared) -> queries, one down
# 5. m1 started again (a new process, its memory empty): the time until every block has its two copies again,
#    copied from m2 by the coordinator (sys.blocks.copies), and what the coordinator's log says it copied
# Prints the seconds of each and the ratios to the one-copy figures.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ferry="$root/bin/ferry"
scale="${1:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ferry-replicas.XXXXXX")"
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
control=$((port + 1))
export FERRY_HEAP="${FERRY_HEAP:-3g}"
export FERRY_DIRECT_MEMORY="${FERRY_DIRECT_MEMORY:-3g}"

. "$root/benchmarks/scripts/lib.sh"
# runs the 13 queries in one shell (one JVM start in every figure), prints their rows to $1
queries() { "$ferry" sql --port "$port" --output-format csv -f "$work/ssb.sql" 2>/dev/null | grep -v '^$' >"$1"; }
sql() { "$ferry" sql --port "$port" -e "$1" 2>/dev/null | tail -1; }
node() { # name role args...
  local name="$1" role="$2"; shift 2
  "$ferry" "$role" --coordinator "127.0.0.1:$control" --name "$name" "$@" >>"$work/$name.log" 2>&1 &
  eval "$name=$!"
}
cluster() { # log, extra coordinator args...
  local log="$1"; shift
  "$ferry" coordinator --port "$port" --control-port "$control" --no-planner-warmup --in-memory \
    --load-root "$work/csv" "$@" >"$log" 2>&1 &
  cpid=$!
  node m1 memory --memory 2500m; node m2 memory --memory 2500m; node c1 compute
  wait_for "$log" "is ready"
  for _ in $(seq 300); do
    [ "$(sql "SELECT COUNT(*) FROM sys.nodes WHERE state = 'up'" | tr -dc 0-9)" = "4" ] && break
    sleep 0.2
  done
}
timed() { local t0; t0=$(now); "$@"; echo "$(now) - $t0" | bc; }

echo "writing SSB SF $scale as CSV..."
"$ferry" gen --dataset ssb --scale "$scale" --out "$work/csv" >/dev/null 2>&1
java -cp "$root/engine-server/target/ferry-server.jar" io.ferry.server.data.SsbQueries >"$work/ssb.sql"
echo "CSV: $(du -sh "$work/csv" | cut -f1)"

cluster "$work/one.log"
load1=$(timed load_all)
q1=$(timed queries "$work/one.out")
[ "$(wc -l <"$work/one.out")" -gt 26 ] || { echo "the queries answered no rows:" >&2; cat "$work/one.out" >&2; exit 1; }
kill9 $cpid $m1 $m2 $c1

cluster "$work/two.log" --replicas 2
load2=$(timed load_all)
q2=$(timed queries "$work/two.out")
cmp -s "$work/one.out" "$work/two.out" || { echo "the answers with two copies differ" >&2; exit 1; }

kill9 $m1
q2down=$(timed queries "$work/down.out")
cmp -s "$work/one.out" "$work/down.out" || { echo "the answers with m1 down differ" >&2; exit 1; }

t0=$(now)
node m1 memory --memory 2500m
for _ in $(seq 3000); do
  [ "$(sql "SELECT COUNT(*) FROM sys.blocks WHERE copies < 2" | tr -dc 0-9)" = "0" ] && break
  sleep 0.2
done
catchup="$(echo "$(now) - $t0" | bc)"
copied="$(grep -o 'copied [0-9]* blocks .*' "$work/two.log" | tail -1)"
kill9 $m2
q2back=$(timed queries "$work/back.out")
cmp -s "$work/one.out" "$work/back.out" || { echo "the answers from m1's copies differ" >&2; exit 1; }

awk -v l1="$load1" -v l2="$load2" -v q1="$q1" -v q2="$q2" -v qd="$q2down" -v qb="$q2back" -v cu="$catchup" \
    -v copied="$copied" 'BEGIN {
  printf "CSV load, one copy of each block:              %7.1f s\n", l1
  printf "CSV load, --replicas 2:                        %7.1f s   (%.2fx)\n", l2, l2 / l1
  printf "13 SSB queries, one copy:                      %7.1f s\n", q1
  printf "13 SSB queries, two copies:                    %7.1f s   (%.2fx)\n", q2, q2 / q1
  printf "13 SSB queries, two copies, m1 killed:         %7.1f s   (%.2fx)\n", qd, qd / q1
  printf "m1 restarted until every block has 2 copies:   %7.1f s   (%.2fx the one-copy load)\n", cu, cu / l1
  printf "  %s\n", copied
  printf "13 SSB queries from m1 caught up, m2 killed:   %7.1f s   (%.2fx)\n", qb, qb / q1
  printf "answers: equal in all four runs\n"
}'
