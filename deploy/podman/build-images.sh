#!/usr/bin/env bash
# Builds the images (gateway, trpd, aopd, console, and the compose stack's dev-identity-provider) one after the other from the repository's root, on BASE_IMAGE
# (default: the Containerfiles' own, the official Node image), tagged compliance-graph/<name>:${IMAGE_TAG:-local}, and
# prints each image's size. One at a time on purpose: they share their first stages (the source, the pages' build),
# so each later build reuses the earlier one's layers instead of redoing them in parallel.
#
# CONTAINER_ENGINE=docker builds with Docker instead of podman.
#
# Usage: [BASE_IMAGE=...] [IMAGE_TAG=...] [CONTAINER_ENGINE=docker] deploy/podman/build-images.sh [name ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/deploy/podman/containers.conf}"
tag="${IMAGE_TAG:-local}"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(gateway trpd aopd console dev-identity-provider)
engine="${CONTAINER_ENGINE:-podman}"
# podman's default is the OCI format, which has no HEALTHCHECK; Docker's images always keep it.
engine_flags=()
[ "$engine" = podman ] && engine_flags=(--format docker --layers)
for name in "${names[@]}"; do
  start=$(date +%s)
  "$engine" build --quiet "${engine_flags[@]}" \
    ${BASE_IMAGE:+--build-arg "BASE_IMAGE=$BASE_IMAGE"} \
    -f "$root/deploy/containers/$name.Containerfile" -t "localhost/compliance-graph/$name:$tag" "$root" >/dev/null
  size=$("$engine" image inspect --format '{{.Size}}' "localhost/compliance-graph/$name:$tag")
  echo "$name: localhost/compliance-graph/$name:$tag, $((size / 1000000)) MB, built in $(( $(date +%s) - start )) s" >&2
done
