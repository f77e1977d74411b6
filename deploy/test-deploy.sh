#!/usr/bin/env bash
# `npm run test:deploy`: the deployment test, beside (not inside) `npm test`.
#  - with podman (and runc, debootstrap, catatonit; .ci/run installs them): the test base image and the
#    stand-ins for the official PostgreSQL and HAProxy images (made once, reused), the five images one after another
#    (sharing their first stages), their sizes, `podman kube play` of the manifests' Pod parts, the stack Pod
#    (deploy/stack/stack.yaml) played and checked, then the replica test with the images as containers behind HAProxy;
#  - without podman: the replica test with the deployables as plain processes behind HAProxy.
# Each phase prints how long it took. The Kubernetes manifests' schema validation is part of `npm test`
# (test/deploy/kubernetes-manifests.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
export APOLLO_TELEMETRY_DISABLED=1
phase() { echo "== $1 ($(( $(date +%s) - started )) s so far, load average $(cut -d' ' -f1-3 /proc/loadavg))"; }
started=$(date +%s)

if command -v podman >/dev/null && [ "${REPLICA_TEST_RUNTIME:-podman}" = podman ]; then
  export CONTAINERS_CONF="${CONTAINERS_CONF:-$(pwd)/deploy/podman/containers.conf}"
  export IMAGE_TAG="${IMAGE_TAG:-test}"
  phase "test base image"
  BASE_IMAGE="${BASE_IMAGE:-$(deploy/podman/build-test-base-image.sh)}"
  export BASE_IMAGE
  phase "PostgreSQL and HAProxy stand-ins"
  service_images="$(deploy/podman/build-test-service-images.sh)"
  # shellcheck disable=SC2086 # POSTGRES_IMAGE=... and HAPROXY_IMAGE=..., one word each
  export $service_images
  phase "images on $BASE_IMAGE"
  deploy/podman/build-images.sh
  phase "podman kube play"
  # podman's secrets and pods are named as the manifests name them, so two checks at once would collide: one waits.
  flock /tmp/compliance-graph-kube-play.lock node --import tsx deploy/podman/kube-play-check.ts
  phase "the stack Pod"
  # It publishes 4000 and 4080 and names its Pod, volume and Secret as stack.yaml does: one at a time, too.
  flock /tmp/compliance-graph-stack-check.lock node --import tsx deploy/podman/stack-check.ts
  phase "replica test (podman)"
  REPLICA_TEST_RUNTIME=podman node --import tsx deploy/replica-test/main.ts
else
  phase "replica test (processes)"
  REPLICA_TEST_RUNTIME=processes node --import tsx deploy/replica-test/main.ts
fi
phase "done"
