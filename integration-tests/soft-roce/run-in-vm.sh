#!/usr/bin/env bash
# Runs a command inside a throw-away QEMU VM that has a real soft-RoCE device (rdma_rxe), and exits with the
# command's exit status. The build/CI hosts' kernel has no InfiniBand support and KVM cannot boot a stock
# kernel there, so the VM is a Debian kernel under QEMU's software emulation (TCG) whose root filesystem is
# the host's own, shared read-only over 9p with a tmpfs overlay on top (see README.md, and init.sh for the
# guest side). Everything the host has installed (JDK, Maven, rdma tools, the source tree) is therefore
# available in the guest; only directories passed with --share are written back to the host.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: run-in-vm.sh [options] -- COMMAND [ARGS...]
       run-in-vm.sh [options] --check

Boots a QEMU VM with soft-RoCE device rxe0 on 192.168.77.1 (netdev rxenet0) and runs COMMAND there as
root, in the current directory, with the current PATH and JAVA_HOME. Exits with COMMAND's status;
124 if the VM timed out, 125 if the VM itself failed (boot, setup, missing exit marker).

options:
  --mem SIZE      guest memory (default 2G)
  --timeout SECS  kill the VM after SECS seconds (default 900)
  --share DIR     make host directory DIR writable in the guest, at the same path (repeatable);
                  everything else the guest writes is discarded
  --cache DIR     kernel/initramfs cache (default $FERRY_VM_CACHE or /var/cache/ferry-soft-roce)
  --check         run guest-check.sh: prove that RDMA (verbs, rdma_cm, RDMA READ) works in the guest
  -h, --help      this text

The command travels on the kernel command line (limit ~2 KiB): pass a script path for long commands.
Must run as root. Speeds measured in the VM are emulation speed, never RDMA speed.
EOF
}

log() { echo "soft-roce: $*" >&2; }
die() { log "$*"; exit 125; }

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MEM=2G
TIMEOUT=900
CACHE="${FERRY_VM_CACHE:-/var/cache/ferry-soft-roce}"
SHARES=()
CHECK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mem) MEM="${2:?--mem needs a value}"; shift 2 ;;
    --timeout) TIMEOUT="${2:?--timeout needs a value}"; shift 2 ;;
    --share) SHARES+=("${2:?--share needs a directory}"); shift 2 ;;
    --cache) CACHE="${2:?--cache needs a directory}"; shift 2 ;;
    --check) CHECK=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) usage >&2; exit 2 ;;
  esac
done
if [ "$CHECK" = 1 ]; then
  [ $# -eq 0 ] || { log "--check takes no command"; exit 2; }
  set -- bash "$HERE/guest-check.sh"
fi
[ $# -gt 0 ] || { usage >&2; exit 2; }
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || { log "--timeout must be a number of seconds"; exit 2; }
# From here on, any failure of ours (not of the command) exits 125, like "the VM itself failed".
set -E
trap 'log "failed: line $LINENO: $BASH_COMMAND"; exit 125' ERR
[ "$(id -u)" = 0 ] || die "must run as root (QEMU shares / with the guest, and the cache is under /var/cache)"

# --- host tools: normally installed by the caller; install what is missing ----------------------------
# Each entry is "package:command-or-path". busybox must be the static one: it runs alone in the initramfs.
missing=()
for want in qemu-system-x86:qemu-system-x86_64 cpio:cpio kmod:depmod iproute2:rdma rdma-core:rdma-ndd \
            ibverbs-utils:ibv_devices ibverbs-providers:/etc/libibverbs.d/rxe.driver rdmacm-utils:rping \
            perftest:ib_read_bw libibverbs-dev:/usr/include/infiniband/verbs.h \
            librdmacm-dev:/usr/include/rdma/rdma_cma.h; do
  pkg="${want%%:*}" what="${want#*:}"
  case "$what" in
    /*) [ -e "$what" ] || missing+=("$pkg") ;;
    *) command -v "$what" >/dev/null 2>&1 || missing+=("$pkg") ;;
  esac
done
if ! [ -x /bin/busybox ] || ldd /bin/busybox >/dev/null 2>&1; then missing+=(busybox-static); fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Wait for a concurrent apt/dpkg (e.g. CI's own install step) instead of failing on its lock.
  apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}" >&2
fi

# --- cache: kernel + initramfs, prepared once and reused ------------------------------------------------
mkdir -p "$CACHE"
CACHE="$(realpath "$CACHE")"
exec 9>"$CACHE/.lock"
flock 9   # two runs at once (parallel CI jobs) must not both populate the cache
rm -rf "$CACHE"/.tmp-*   # leftovers of an interrupted preparation; under the lock nobody else owns them

# The real kernel package behind the meta package (a glob would download every kernel in the archive;
# the -cloud flavour lacks rdma_rxe).
resolve_kernel() { apt-cache depends linux-image-amd64 2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'; }
# apt-cache fails outright on a machine without package lists: that is the case the update below is for.
KPKG="$(resolve_kernel || true)"
if [ -z "$KPKG" ]; then
  apt-get update -qq >&2 || true
  KPKG="$(resolve_kernel || true)"
fi
# Download and unpack under temporary names, rename only when complete: an interrupted run leaves nothing
# that a later run would mistake for a good kernel.
fetch_kernel() {
  local tmp
  tmp="$(mktemp -d "$CACHE/.tmp-kernel.XXXXXX")"
  chown _apt "$tmp" 2>/dev/null || true   # lets apt download sandboxed (no warning)
  log "downloading $KPKG (~70 MB, once)"
  (cd "$tmp" && apt-get download -q "$KPKG" >&2) || { log "apt-get download $KPKG failed"; rm -rf "$tmp"; return 1; }
  # (explicit checks: errexit is off inside a function called from an || list)
  dpkg-deb -x "$tmp"/"$KPKG"_*.deb "$tmp/root" && depmod -b "$tmp/root" "$KVER" || die "unpacking $KPKG failed"
  [ -f "$tmp/root/boot/vmlinuz-$KVER" ] && [ -n "$(find "$tmp/root/lib/modules/$KVER" -name 'rdma_rxe.ko*' -print -quit)" ] \
    || die "$KPKG has no vmlinuz-$KVER or no rdma_rxe module"
  mv "$tmp/root" "$KDIR" && rm -rf "$tmp"
}
if [ -n "$KPKG" ]; then
  KVER="${KPKG#linux-image-}"
  KDIR="$CACHE/kernel-$KVER"
  [ -d "$KDIR" ] || fetch_kernel || KPKG=""
fi
if [ -z "$KPKG" ]; then
  # Offline (no package lists, or the download failed): use whatever kernel is already cached.
  KDIR="$(ls -d "$CACHE"/kernel-* 2>/dev/null | tail -n 1 || true)"
  [ -n "$KDIR" ] || die "cannot resolve or download linux-image-amd64's kernel, and nothing is cached in $CACHE"
  KVER="${KDIR##*/kernel-}"
  log "using the cached kernel $KVER"
fi

# initramfs = static busybox + init.sh + the modules needed to reach the host root. Its name carries a hash
# of everything that goes into it, so editing init.sh (or a new kernel) rebuilds it automatically.
BOOT_MODULES="virtio_pci 9pnet_virtio 9p overlay virtio_net"
hash="$( { cat "$HERE/init.sh"; echo "$KVER $BOOT_MODULES"; sha256sum </bin/busybox; } | sha256sum | cut -c1-16)"
INITRD="$CACHE/initramfs-$KVER-$hash.cpio.gz"
if [ ! -f "$INITRD" ]; then
  log "building $(basename "$INITRD")"
  stage="$(mktemp -d "$CACHE/.tmp-initramfs.XXXXXX")"
  mkdir -p "$stage/bin" "$stage/modules"
  cp /bin/busybox "$stage/bin/busybox"
  install -m 755 "$HERE/init.sh" "$stage/init"
  # --show-depends lists "insmod PATH" lines, dependencies first; "builtin NAME" ones need nothing.
  for m in $BOOT_MODULES; do modprobe -d "$KDIR" -S "$KVER" --show-depends "$m"; done \
    | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$stage/paths"
  while read -r ko; do
    name="$(basename "$ko")"
    case "$name" in   # busybox insmod wants plain .ko files
      *.ko.xz) name="${name%.xz}"; xz -dc "$ko" >"$stage/modules/$name" ;;
      *.ko.zst) name="${name%.zst}"; zstd -qdc "$ko" >"$stage/modules/$name" ;;
      *) cp "$ko" "$stage/modules/$name" ;;
    esac
    echo "$name" >>"$stage/modules/order"
  done <"$stage/paths"
  rm "$stage/paths"
  (cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$stage.cpio.gz"
  mv "$stage.cpio.gz" "$INITRD"
  rm -rf "$stage"
  # Drop what older kernels / init scripts left behind.
  for old in "$CACHE"/kernel-* "$CACHE"/initramfs-*; do
    [ "$old" = "$KDIR" ] || [ "$old" = "$INITRD" ] || rm -rf "$old"
  done
fi
exec 9>&-   # releases the lock

# --- the guest command ---------------------------------------------------------------------------------
# One bash script: same directory, same PATH and JAVA_HOME, then the command with its words quoted.
script="cd $(printf '%q' "$PWD") || exit 125; export PATH=$(printf '%q' "$PATH")"
[ -z "${JAVA_HOME:-}" ] || script+="; export JAVA_HOME=$(printf '%q' "$JAVA_HOME")"
script+="; $(printf '%q ' "$@")"

virtfs=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
share_list=""
i=0
for dir in "${SHARES[@]+"${SHARES[@]}"}"; do
  mkdir -p "$dir"
  dir="$(realpath "$dir")"
  case "$dir" in *$'\n'*|*,*) die "--share path must not contain a newline or a comma: $dir" ;; esac
  virtfs+=(-virtfs "local,path=$dir,mount_tag=share$i,security_model=none,multidevs=remap")
  share_list+="$dir"$'\n'
  i=$((i + 1))
done

b64() { printf '%s' "$1" | base64 -w0; }
append="console=ttyS0 panic=-1 quiet ferry_kmods=$(b64 "$KDIR/lib/modules") ferry_run=$(b64 "$script")"
[ -z "$share_list" ] || append+=" ferry_shares=$(b64 "$share_list")"
# x86 COMMAND_LINE_SIZE is 2048 bytes including the terminating NUL.
if [ ${#append} -gt 2047 ]; then
  die "command too long for the kernel command line (${#append} of 2047 bytes, after base64): put it in a script and pass the script's path"
fi

# --- boot ----------------------------------------------------------------------------------------------
console="$(mktemp /tmp/ferry-soft-roce-console.XXXXXX)"
trap 'rm -f "$console"' EXIT
log "booting $KVER under QEMU TCG (mem $MEM, timeout ${TIMEOUT}s): $*"
start=$SECONDS
# TCG, not KVM: KVM cannot boot a stock kernel on these hosts. One vCPU was faster than two on a 2-core
# host. The console goes to stdout (CI log) and, via logfile=, to a file we search for the exit marker.
# QEMU runs in the background so that Ctrl-C / SIGTERM reach our trap, which stops it.
trap - ERR   # QEMU's and the command's failures are reported below, not as ours
set +e
timeout -k 15 "$TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m "$MEM" \
  -nodefaults -no-user-config -display none -no-reboot \
  -chardev "stdio,id=con,signal=off,logfile=$console" -serial chardev:con \
  -kernel "$KDIR/boot/vmlinuz-$KVER" -initrd "$INITRD" -append "$append" \
  "${virtfs[@]}" </dev/null &
qemu=$!
trap 'log "interrupted, stopping the VM"; kill -TERM $qemu 2>/dev/null; wait $qemu; exit 130' INT TERM
wait $qemu
qrc=$?
set -e
trap - INT TERM

marker="$(tr -d '\r' <"$console" | grep -a -o -E '^FERRY-VM-(EXIT [0-9]+|SETUP-FAILED)' | tail -n 1 || true)"
elapsed=$((SECONDS - start))
case "$marker" in
  "FERRY-VM-EXIT "*)
    rc="${marker#FERRY-VM-EXIT }"
    log "command exited with $rc (VM ran ${elapsed}s)"
    exit "$rc" ;;
  FERRY-VM-SETUP-FAILED) die "guest setup failed (see the console output above)" ;;
esac
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
  log "timed out after ${TIMEOUT}s: the VM was killed (raise --timeout if the command is just slow)"
  exit 124
fi
die "the VM stopped without an exit marker (QEMU status $qrc after ${elapsed}s): the guest crashed or failed to boot, see the console output above"
