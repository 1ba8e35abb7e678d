#!/bin/bash
# Build the real flannel CNI plugin, flannel-io/cni-plugin v1.1.2 (the plugin left
# containernetworking/plugins in v1.0.0; v1.1.2 is built against exactly cni v1.1.2 and
# plugins v1.1.1, the versions cnisim models), offline in GOPATH mode against Debian's
# golang-github-appc-cni-dev (libcni v1.1.2 in /usr/share/gocode).
# Usage: build-flannel.sh <flannel-io/cni-plugin git dir> <output-binary>
set -euo pipefail
repo=${1:?usage: build-flannel.sh <cni-plugin git dir> <output-binary>}
out=${2:?usage: build-flannel.sh <cni-plugin git dir> <output-binary>}
work=$(mktemp -d /tmp/cnirec-flannel.XXXXXX)
trap 'rm -rf "$work"' EXIT
src="$work/src/github.com/flannel-io/cni-plugin"
mkdir -p "$src" "$(dirname "$out")"
for f in flannel.go flannel_linux.go; do
  git --git-dir="$repo" show "v1.1.2:$f" >"$src/$f"
done
cd "$src"
# The release build stamps Program/Version (scripts/build_flannel.sh); do the same.
GO111MODULE=off GOPATH="/usr/share/gocode:$work" GOCACHE="$work/cache" GOFLAGS= CGO_ENABLED=0 \
  go build -o "$out" -ldflags "-X main.Program=flannel -X main.Version=v1.1.2 -X main.Commit=18a3027e -X main.buildDate=2022-12-05T16:14:29Z" .
