#!/usr/bin/env bash
# Builds the images (gateway, registry, trpd, aopd, console, and the stack Pod's dev-identity-provider) one after the other from
# the repository's root, on BASE_IMAGE (default: the Containerfiles' own, the official Node image), tagged
# compliance-graph/<name>:${IMAGE_TAG:-local}, and prints each image's size. One at a time on purpose: they share their first stages (the source, the pages' build),
# so each later build reuses the earlier one's layers instead of redoing them in parallel.
#
# Usage: [BASE_IMAGE=...] [IMAGE_TAG=...] deploy/podman/build-images.sh [name ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/deploy/podman/containers.conf}"
tag="${IMAGE_TAG:-local}"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(gateway registry trpd aopd console dev-identity-provider)
for name in "${names[@]}"; do
  start=$(date +%s)
  podman build --quiet --format docker --layers \
    ${BASE_IMAGE:+--build-arg "BASE_IMAGE=$BASE_IMAGE"} \
    -f "$root/deploy/containers/$name.Containerfile" -t "localhost/compliance-graph/$name:$tag" "$root" >/dev/null
  size=$(podman image inspect --format '{{.Size}}' "localhost/compliance-graph/$name:$tag")
  echo "$name: localhost/compliance-graph/$name:$tag, $((size / 1000000)) MB, built in $(( $(date +%s) - start )) s" >&2
done
