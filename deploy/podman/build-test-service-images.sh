#!/usr/bin/env bash
# Builds the stand-ins for the official PostgreSQL and HAProxy images that the stack Pod's test runs where no
# registry is reachable (test-postgres.Containerfile, test-haproxy.Containerfile), on BASE_IMAGE (the test base image),
# from the machine's Debian mirror (the build context is this folder). Tagged with the base image's tag; made once, like the base image. Prints
# `POSTGRES_IMAGE=...` and `HAPROXY_IMAGE=...` on stdout, the variables `npm run stack:pod` reads.
#
# Usage: BASE_IMAGE=<the test base image> deploy/podman/build-test-service-images.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/deploy/podman/containers.conf}"
: "${BASE_IMAGE:?BASE_IMAGE is required: the test base image (build-test-base-image.sh prints it).}"
for name in postgres haproxy; do
  image="localhost/compliance-graph/test-$name:${BASE_IMAGE##*:}"
  if ! podman image exists "$image"; then
    start=$(date +%s)
    podman build --quiet --format docker --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" \
      -f "$root/deploy/podman/test-$name.Containerfile" -t "$image" "$root/deploy/podman" >/dev/null
    echo "test-$name: $image, built in $(( $(date +%s) - start )) s" >&2
  fi
  echo "$(echo "$name" | tr a-z A-Z)_IMAGE=$image"
done
