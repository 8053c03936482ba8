#!/usr/bin/env bash
# Builds the local control plane (kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, etcd) and kwok
# from the committed Go wrapper modules, once per go.sum: the binaries land in
# ~/.cache/binnacle/cluster-<hash>/bin and the path is printed on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${BINNACLE_CACHE_DIR:-$HOME/.cache/binnacle}
k8s_version=$(sed -n 's/^require k8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' "$here/go/k8s/go.mod")
[ -n "$k8s_version" ] || { echo "build.sh: cannot read the k8s.io/kubernetes version from go/k8s/go.mod" >&2; exit 1; }
# Bump recipe when the build flags below change, so cached binaries are rebuilt.
recipe=1
key=$( (echo "$recipe"; cat "$here/go/k8s/go.sum" "$here/go/kwok/go.sum" "$here/go/k8s/go.mod" "$here/go/kwok/go.mod") | sha256sum | cut -c1-16)
bin="$cache_root/cluster-$key/bin"
tools="kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok"

complete() { for t in $tools; do [ -x "$bin/$t" ] || return 1; done; [ -d "$bin/kwok-stages" ]; }
if complete; then echo "$bin"; exit 0; fi

# Go 1.26+: the machine's, else the official toolchain module from the Go module proxy (the same zip
# GOTOOLCHAIN downloads), unpacked once into the cache.
go_version=go1.26.8
go_ok() { command -v go >/dev/null && go env GOVERSION | grep -Eq '^go1\.(2[6-9]|[3-9][0-9])'; }
if ! go_ok; then
  go_root="$cache_root/$go_version"
  if [ ! -x "$go_root/go/bin/go" ]; then
    echo "build.sh: no Go 1.26+ found; fetching $go_version from the Go module proxy" >&2
    mkdir -p "$go_root.partial"
    curl -fsSL "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-$go_version.linux-amd64.zip" -o "$go_root.partial/go.zip"
    python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$go_root.partial/go.zip" "$go_root.partial/x"
    mv "$go_root.partial/x/golang.org/toolchain@v0.0.1-$go_version.linux-amd64" "$go_root.partial/go"
    chmod +x "$go_root.partial/go/bin/"* "$go_root.partial/go/pkg/tool/"*/*
    rm -rf "$go_root.partial/go.zip" "$go_root.partial/x" "$go_root" && mv "$go_root.partial" "$go_root"
  fi
  export PATH="$go_root/go/bin:$PATH"
fi
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
mkdir -p "$bin.partial"
start=$(date +%s)
minor=$(echo "$k8s_version" | cut -d. -f2)
stamp="-s -w -X k8s.io/component-base/version.gitVersion=$k8s_version -X k8s.io/component-base/version.gitMajor=1"
stamp="$stamp -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
stamp="$stamp -X k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z -X k8s.io/client-go/pkg/version.gitVersion=$k8s_version"
echo "build.sh: building Kubernetes $k8s_version control plane into $bin (first run takes 10-25 minutes)" >&2
(cd "$here/go/k8s" && go build -trimpath -ldflags "$stamp" -o "$bin.partial/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
(cd "$here/go/k8s" && go build -trimpath -ldflags "-s -w" -o "$bin.partial/etcd" go.etcd.io/etcd/server/v3)
(cd "$here/go/kwok" && go build -trimpath -ldflags "-s -w" -o "$bin.partial/kwok" sigs.k8s.io/kwok/cmd/kwok)
# kwok 0.8 needs its Stage documents in its config; keep the ones of the pinned release beside the binary.
kwok_src=$(cd "$here/go/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
mkdir -p "$bin.partial/kwok-stages"
cp "$kwok_src"/kustomize/stage/node/fast/node-initialize.yaml \
   "$kwok_src"/kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
   "$kwok_src"/kustomize/stage/pod/fast/pod-ready.yaml "$kwok_src"/kustomize/stage/pod/fast/pod-complete.yaml \
   "$kwok_src"/kustomize/stage/pod/fast/pod-delete.yaml "$kwok_src"/kustomize/stage/volume/fast/pvc-provision.yaml \
   "$kwok_src"/kustomize/stage/volume/fast/pv-bind.yaml "$kwok_src"/kustomize/stage/volume/fast/pv-delete.yaml \
   "$kwok_src"/kustomize/stage/volume/fast/pvc-delete.yaml "$bin.partial/kwok-stages/"
chmod -R u+w "$bin.partial/kwok-stages"
rm -rf "$bin" && mv "$bin.partial" "$bin"
echo "build.sh: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
