#!/usr/bin/env bash
# Builds VictoriaMetrics single-node (the second metrics store of the integration tests) from this wrapper module,
# once per go.mod/go.sum, into ~/.cache/binnacle/go-victoriametrics-<hash>/victoria-metrics; prints the binary's path.
# Go comes from PATH or from the toolchain test/cluster/build.sh unpacks into the cache (bootstrap runs that first).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${BINNACLE_CACHE_DIR:-$HOME/.cache/binnacle}
recipe=1
dir="$cache_root/go-victoriametrics-$( (echo "$recipe"; cat "$here/go.mod" "$here/go.sum") | sha256sum | cut -c1-16)"
if [ -x "$dir/victoria-metrics" ]; then echo "$dir/victoria-metrics"; exit 0; fi
mkdir -p "$cache_root"
exec 9>"$cache_root/build-victoriametrics.lock"
flock 9
if [ -x "$dir/victoria-metrics" ]; then echo "$dir/victoria-metrics"; exit 0; fi
go_ok() { command -v go >/dev/null && go env GOVERSION | grep -Eq '^go1\.(2[6-9]|[3-9][0-9])'; }
if ! go_ok; then
  for root in "$cache_root"/go1.2[6-9]*/go/bin; do [ -x "$root/go" ] && export PATH="$root:$PATH"; done
  go_ok || { echo "victoriametrics/build.sh: Go 1.26+ is missing; run test/cluster/build.sh first, it fetches one" >&2; exit 1; }
fi
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
echo "victoriametrics/build.sh: building VictoriaMetrics single-node (first run takes a few minutes)" >&2
start=$(date +%s)
rm -rf "$dir.partial" && mkdir -p "$dir.partial"
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$dir.partial/victoria-metrics" \
  github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics)
rm -rf "$dir" && mv "$dir.partial" "$dir"
echo "victoriametrics/build.sh: built in $(( $(date +%s) - start ))s" >&2
echo "$dir/victoria-metrics"
