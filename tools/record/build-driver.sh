#!/bin/bash
# Build the Go driver (tools/record/driver) against the real libcni v1.1.2 shipped by Debian
# (golang-github-appc-cni-dev, /usr/share/gocode), in GOPATH mode, without network.
# Usage: build-driver.sh <output-binary>
set -euo pipefail
out=${1:?usage: build-driver.sh <output-binary>}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/cnirec-gobuild.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/cnidriver" "$(dirname "$out")"
cp "$here/driver/main.go" "$work/src/cnidriver/"
cd "$work/src/cnidriver"
GO111MODULE=off GOPATH="/usr/share/gocode:$work" GOCACHE="$work/cache" GOFLAGS= CGO_ENABLED=0 \
  go build -o "$out" .
