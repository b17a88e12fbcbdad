#!/usr/bin/env bash
# Makes the base image ContainerClusterIT builds Ferry's image on, from Debian's own packages, where no registry can
# be pulled from (../shared/notes/containers.md): debootstrap's minimal bookworm, imported as localhost/debian:bookworm.
# Kept in podman's store between runs (about 40 s and 206 MB to make); does nothing if the image is there.
# usage: base-image.sh [IMAGE]     (CONTAINERS_CONF may point at the runtime settings to use)
set -euo pipefail
image="${1:-localhost/debian:bookworm}"
if podman image exists "$image"; then
  exit 0
fi
# the mirror apt already uses, else Debian's
mirror="$(grep -hoE '^(URIs:|deb) +https?://[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
  | grep -v security | head -1 | awk '{print $2}' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"
rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >&2
tar -C "$rootfs" -c . | podman import - "$image" >&2
