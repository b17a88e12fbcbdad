# Functions the benchmark scripts share; sourced, with $ferry, $port and $work set.

now() { date +%s.%N; }

# waits until file $1 holds pattern $2 (a server's log line), at most 5 minutes
wait_for() {
  for _ in $(seq 1500); do
    grep -q "$2" "$1" && return 0
    sleep 0.2
  done
  echo "no '$2' in $1" >&2; tail -20 "$1" >&2; exit 1
}

# loads the SSB tables from $work/csv with bin/ferry load --create
load_all() {
  for t in lineorder customer supplier part dwdate; do
    "$ferry" load --port "$port" --create --table "$t" --csv "$work/csv/$t.csv" >/dev/null 2>&1
  done
}

kill9() { kill -9 "$@" 2>/dev/null || true; wait "$@" 2>/dev/null || true; } 2>/dev/null
