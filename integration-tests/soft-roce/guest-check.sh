#!/usr/bin/env bash
# Runs inside the VM (run-in-vm.sh --check): proves that soft-RoCE really moves data. Server and client are
# two processes on the same rxe0 device, both addressing 192.168.77.1. Every step has a timeout because
# RDMA tools can wait forever when the fabric is broken.
set -euo pipefail
ADDR="${FERRY_SOFT_ROCE_ADDR:-192.168.77.1}"
DEV="${FERRY_SOFT_ROCE_DEVICE:-rxe0}"

step() { echo "soft-roce check: $*"; }

step "verbs device list"
ibv_devices | grep -w "$DEV"
ibv_devinfo -d "$DEV" | grep -E 'state|link_layer'
rdma link show

step "rdma_cm ping (rping, 3 round trips)"
# rping can exit 255 after a fully successful run ("rdma_get_cm_event: Bad file descriptor": a teardown
# race, fixed upstream by linux-rdma/rdma-core#1622, not in bookworm's rdma-core 44). So judge it by the
# data it echoed, and fail only on missing data or a timeout (124).
timeout 60 rping -s -a "$ADDR" -C 3 & server=$!
sleep 1
client=0 out="$(timeout 60 rping -c -a "$ADDR" -C 3 -v 2>&1)" || client=$?
echo "$out"
wait "$server" && srv=0 || srv=$?
echo "rping exit codes: client $client, server $srv"
if [ "$client" = 124 ] || [ "$srv" = 124 ] || [ "$(grep -c '^ping data: rdma-ping-' <<<"$out")" != 3 ]; then
  echo "rping failed" >&2
  exit 1
fi

step "RDMA READ bandwidth (ib_read_bw over rdma_cm; emulation speed, not RDMA speed)"
timeout 120 ib_read_bw -d "$DEV" -R -s 65536 -n 200 & server=$!
sleep 1
timeout 120 ib_read_bw -d "$DEV" -R -s 65536 -n 200 "$ADDR"
wait "$server"

step "passed"
