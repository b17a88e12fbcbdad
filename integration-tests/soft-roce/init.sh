#!/bin/busybox sh
# /init of the initramfs that run-in-vm.sh builds: runs as PID 1 inside the QEMU guest.
#
# Stage 1 (here, in the busybox initramfs): mount the host's root filesystem (shared read-only over 9p)
# under a tmpfs overlay at /newroot, so the guest sees the host's JDK, Maven, rdma tools and source tree
# and can still write. Stage 2 (chrooted into /newroot): load soft-RoCE, give it a netdev, run the command.
# PID 1 stays in the initramfs, because the kernel runs its module helper there (see modprobe-chroot).
#
# Parameters come from the kernel command line (set by run-in-vm.sh), base64-encoded:
#   ferry_run=    bash script to run (already contains cd, PATH, JAVA_HOME and the command)
#   ferry_kmods=  host path of the extracted kernel's lib/modules, bound to /lib/modules in the guest
#   ferry_shares= newline-separated host directories exported read-write as 9p tags share0, share1, ...
# The guest always ends by printing "FERRY-VM-EXIT <code>" (or "FERRY-VM-SETUP-FAILED") and powering off:
# QEMU exits 0 whatever happens inside, so that marker is the only way the host learns the result.

/bin/busybox mkdir -p /bin /proc /sys /dev
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# The initramfs has no /dev/console node, so the kernel could not give us stdio: take the serial console.
exec </dev/console >/dev/console 2>&1

R=/newroot
off() { sync; poweroff -f; sleep 5; reboot -f; }
fail() { echo "soft-roce: guest setup failed: $*"; echo; echo "FERRY-VM-SETUP-FAILED"; off; }
# Run a host tool inside the new root with a clean, predictable environment.
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

for w in $(cat /proc/cmdline); do
  case "$w" in
    ferry_run=*)    RUN="${w#ferry_run=}" ;;
    ferry_kmods=*)  KMODS="$(echo "${w#ferry_kmods=}" | base64 -d)" ;;
    ferry_shares=*) SHARES="$(echo "${w#ferry_shares=}" | base64 -d)" ;;
  esac
done
[ -n "$RUN" ] && [ -n "$KMODS" ] || fail "ferry_run= or ferry_kmods= missing from the kernel command line"

# virtio + 9p + overlay, in dependency order (run-in-vm.sh resolved the order with modprobe --show-depends).
while read -r m; do
  insmod "/modules/$m" || fail "insmod $m"
done </modules/order

mkdir -p /lower /rw "$R"
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower || fail "mount host root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /rw && mkdir -p /rw/upper /rw/work || fail "tmpfs for the overlay"
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work "$R" || fail "overlay on the host root"

mount -t proc proc "$R/proc" && mount -t sysfs sysfs "$R/sys" && mount -t devtmpfs devtmpfs "$R/dev" \
  && mkdir -p "$R/dev/pts" "$R/dev/shm" && mount -t devpts devpts "$R/dev/pts" && mount -t tmpfs tmpfs "$R/dev/shm" \
  && mount -t tmpfs tmpfs "$R/run" || fail "mount proc/sys/dev/run in the new root"
# Bind inside the chroot: the host's /lib is a symlink (merged /usr) that must resolve in the new root.
in_root mkdir -p /lib/modules && in_root mount --bind "$KMODS" /lib/modules || fail "bind $KMODS to /lib/modules"

i=0
if [ -n "$SHARES" ]; then
  while IFS= read -r dir; do
    in_root mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 "share$i" "$dir" || fail "mount share$i at $dir"
    i=$((i + 1))
  done <<EOF
$SHARES
EOF
fi

# The kernel loads helper modules (e.g. crc32 for rdma_rxe) through /proc/sys/kernel/modprobe, from the
# initramfs root, where there is no module tree: route those requests into the new root.
printf '#!/bin/sh\nexec /bin/chroot %s /sbin/modprobe "$@"\n' "$R" >/bin/modprobe-chroot
chmod 755 /bin/modprobe-chroot
echo /bin/modprobe-chroot >/proc/sys/kernel/modprobe

# Java's InetAddress.getLocalHost() and friends want a resolvable host name.
hostname ferry-vm
echo "127.0.1.1 ferry-vm" >>"$R/etc/hosts"

# Soft-RoCE: rxe0 on a dummy netdev. Server and client both use 192.168.77.1 (one rxe device, one host).
in_root modprobe rdma_rxe || fail "modprobe rdma_rxe"
in_root modprobe rdma_ucm || fail "modprobe rdma_ucm"
in_root modprobe dummy || fail "modprobe dummy"
in_root ip link set lo up || fail "ip link set lo up"
in_root ip link add rxenet0 type dummy && in_root ip addr add 192.168.77.1/24 dev rxenet0 \
  && in_root ip link set rxenet0 up || fail "dummy netdev rxenet0"
in_root rdma link add rxe0 type rxe netdev rxenet0 || fail "rdma link add rxe0"

# The command, as root, with stdin closed (nobody can type into the guest).
chroot "$R" /usr/bin/env -i HOME=/root USER=root LOGNAME=root TERM=dumb LANG=C.UTF-8 \
  FERRY_SOFT_ROCE=1 FERRY_SOFT_ROCE_DEVICE=rxe0 FERRY_SOFT_ROCE_ADDR=192.168.77.1 \
  /bin/bash -c "$(echo "$RUN" | base64 -d)" </dev/null
rc=$?
echo
echo "FERRY-VM-EXIT $rc"
off
