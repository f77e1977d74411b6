#!/usr/bin/env bash
# Builds the base image the container test builds on, where no registry is reachable: a minimal Debian made with
# debootstrap (from the machine's own Debian mirror), with the machine's Node binary and npm copied in where the
# official Node image has them (/usr/local/bin, /usr/local/lib/node_modules/npm) and its `node` user (uid 1000).
# Users build on the official image instead (the Containerfiles' BASE_IMAGE default).
#
# The image is tagged with the Node version and made once: a second call (the second CI run, a developer's rerun)
# finds it and returns at once, so every later build shares its layer.
#
# Usage: deploy/podman/build-test-base-image.sh   (prints the image's name on stdout; needs root, debootstrap, podman)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"

node_bin="$(readlink -f "$(command -v node)")"
node_version="$("$node_bin" --version)"
image="localhost/compliance-graph/test-node-base:${node_version#v}"
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi

mirror="${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)}"
mirror="${mirror:-http://deb.debian.org/debian}"
suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
npm_dir="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"

root="$(mktemp -d /var/tmp/compliance-graph-base.XXXXXX)"
trap 'rm -rf "$root"' EXIT
echo "debootstrap $suite from $mirror into $root" >&2
debootstrap --variant=minbase "$suite" "$root/rootfs" "$mirror" >"$root/debootstrap.log" 2>&1 \
  || { tail -n 20 "$root/debootstrap.log" >&2; exit 1; }

# What the official image's slim variant leaves out, left out here too: documentation, apt's lists and caches.
rm -rf "$root/rootfs/var/lib/apt/lists/"* "$root/rootfs/var/cache/apt/"* "$root/rootfs/usr/share/doc/"* \
  "$root/rootfs/usr/share/man/"* "$root/rootfs/usr/share/locale/"*
install -m 0755 "$node_bin" "$root/rootfs/usr/local/bin/node"
mkdir -p "$root/rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/rootfs/usr/local/bin/npx"
# The machine's certificate authorities (its registry access may pass a TLS-inspecting proxy with a CA of its own):
# npm inside the builds trusts what npm outside trusts.
ca_file="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
env_change=()
if [ -f "$ca_file" ]; then
  install -D -m 0644 "$ca_file" "$root/rootfs/etc/ssl/certs/ca-certificates.crt"
  env_change=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi
chroot "$root/rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$root/rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node

tar -C "$root/rootfs" -c . | podman import \
  "${env_change[@]}" --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  - "$image" >&2
echo "$image"
