#!/usr/bin/env bash
# Builds one Go program from the wrapper module test/cluster/go/<module>/ (its go.mod pins it as a tool), once per
# go.mod/go.sum, into ~/.cache/binnacle/go-<module>-<hash>/<binary>; prints the binary's path. Each module's
# build.sh calls this with its own names. Go comes from PATH or from the toolchain test/cluster/build.sh unpacks
# into the cache (bootstrap runs that first).
# usage: build-tool.sh <module> <binary> <go package> <label>
set -euo pipefail
module=$1 binary=$2 package=$3 label=$4
here=$(cd "$(dirname "$0")/$module" && pwd)
. "$(dirname "$0")/../cache-lock.sh"
recipe=1
dir="$cache_root/go-$module-$( (echo "$recipe"; cat "$here/go.mod" "$here/go.sum") | sha256sum | cut -c1-16)"
if [ -x "$dir/$binary" ]; then echo "$dir/$binary"; exit 0; fi
cache_lock
if [ -x "$dir/$binary" ]; then echo "$dir/$binary"; exit 0; fi
go_ok() { command -v go >/dev/null && go env GOVERSION | grep -Eq '^go1\.(2[6-9]|[3-9][0-9])'; }
if ! go_ok; then
  for root in "$cache_root"/go1.2[6-9]*/go/bin; do [ -x "$root/go" ] && export PATH="$root:$PATH"; done
  go_ok || { echo "$module/build.sh: Go 1.26+ is missing; run test/cluster/build.sh first, it fetches one" >&2; exit 1; }
fi
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
echo "$module/build.sh: building $label (the first run takes minutes)" >&2
start=$(date +%s)
rm -rf "$dir.partial" && mkdir -p "$dir.partial"
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$dir.partial/$binary" "$package")
rm -rf "$dir" && mv "$dir.partial" "$dir"
echo "$module/build.sh: built in $(( $(date +%s) - start ))s" >&2
echo "$dir/$binary"
