#!/usr/bin/env bash
# Builds the local control plane from the committed Go wrapper modules. Two profiles (ADR 0059):
#   build.sh demo    kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, etcd, kwok, metrics-server:
#                    what `npm start` runs when no cluster is configured
#   build.sh [full]  also the CNCF distribution registry (the OCI chart source), Flux's source-, kustomize- and
#                    helm-controller (with their CRDs), Argo CD's CRDs and the ecosystem projects' CRDs (ADR 0127) taken
#                    from their modules, and Karpenter with its kwok cloud provider: what the tests use
# Each module is built once per go.mod/go.sum into ~/.cache/binnacle/go-<module>-<hash>, so bumping one never
# rebuilds the others; ~/.cache/binnacle/cluster-<hash>/bin links a profile's modules together and its path is
# printed on stdout. Progress, with an estimate per module, goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cache-lock.sh"
k8s_version=$(sed -n 's/^require k8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' "$here/go/k8s/go.mod")
[ -n "$k8s_version" ] || { echo "build.sh: cannot read the k8s.io/kubernetes version from go/k8s/go.mod" >&2; exit 1; }
# Bump a module's recipe when its build steps below change, so its cached build is redone.
declare -A recipe=([k8s]=1 [kwok]=3 [metrics-server]=1 [registry]=1 [flux]=1 [argocd]=2 [ecosystem]=1 [karpenter]=2)
case "${1:-full}" in
  demo) modules="k8s kwok metrics-server" ;;
  full) modules="k8s kwok metrics-server registry flux argocd ecosystem karpenter" ;;
  *) echo "usage: build.sh [demo|full]" >&2; exit 2 ;;
esac
# Cold build times measured on a quiet 2-core machine (docs/development.md); the estimates printed below.
declare -A seconds=([k8s]=225 [kwok]=50 [metrics-server]=85 [registry]=50 [flux]=180 [argocd]=5 [ecosystem]=5 [karpenter]=80)
declare -A label=([k8s]="Kubernetes $k8s_version (apiserver, controller-manager, scheduler, kubectl, etcd)"
  [kwok]="kwok" [metrics-server]="metrics-server" [registry]="the distribution registry"
  [flux]="Flux source-, kustomize- and helm-controller" [argocd]="Argo CD's CRDs (a download)"
  [ecosystem]="the ecosystem projects' CRDs (downloads)" [karpenter]="Karpenter with its kwok cloud provider")
declare -A tools=(
  [k8s]="kube-apiserver kube-controller-manager kube-scheduler kubectl etcd"
  [kwok]="kwok kwok-stages kwok-crds"
  [metrics-server]="metrics-server"
  [registry]="registry"
  [flux]="source-controller kustomize-controller helm-controller flux-crds"
  [argocd]="argocd-crds"
  [ecosystem]="ecosystem-crds"
  [karpenter]="karpenter"
)
module_dir() {
  echo "$cache_root/go-$1-$( (echo "${recipe[$1]}"; cat "$here/go/$1/go.mod" "$here/go/$1/go.sum") | sha256sum | cut -c1-16)"
}
built() { for t in ${tools[$1]}; do [ -e "$2/$t" ] || return 1; done; }
bin="$cache_root/cluster-$(for m in $modules; do module_dir "$m"; done | sha256sum | cut -c1-16)/bin"
all_built() { for m in $modules; do built "$m" "$bin" || return 1; done; }
if all_built; then echo "$bin"; exit 0; fi
# One build at a time: a second caller (another test run, cluster:up) waits here, then finds the first one's result.
cache_lock
if all_built; then echo "$bin"; exit 0; fi

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
minor=$(echo "$k8s_version" | cut -d. -f2)
stamp="-s -w -X k8s.io/component-base/version.gitVersion=$k8s_version -X k8s.io/component-base/version.gitMajor=1"
stamp="$stamp -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
stamp="$stamp -X k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z -X k8s.io/client-go/pkg/version.gitVersion=$k8s_version"

build_k8s() {
  (cd "$here/go/k8s" && go build -trimpath -ldflags "$stamp" -o "$1/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
  (cd "$here/go/k8s" && go build -trimpath -ldflags "-s -w" -o "$1/etcd" go.etcd.io/etcd/server/v3)
}

build_kwok() {
  (cd "$here/go/kwok" && go build -trimpath -ldflags "-s -w" -o "$1/kwok" sigs.k8s.io/kwok/cmd/kwok)
  # kwok 0.8 needs its Stage documents in its config; keep the ones of the pinned release beside the binary, with
  # the Metric that serves kubelet-style /metrics/resource for metrics-server.
  local src
  src=$(cd "$here/go/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
  mkdir -p "$1/kwok-stages"
  cp "$src"/kustomize/stage/node/fast/node-initialize.yaml \
     "$src"/kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
     "$src"/kustomize/stage/pod/fast/pod-ready.yaml "$src"/kustomize/stage/pod/fast/pod-complete.yaml \
     "$src"/kustomize/stage/pod/fast/pod-delete.yaml "$src"/kustomize/stage/volume/fast/pvc-provision.yaml \
     "$src"/kustomize/stage/volume/fast/pv-bind.yaml "$src"/kustomize/stage/volume/fast/pv-delete.yaml \
     "$src"/kustomize/stage/volume/fast/pvc-delete.yaml "$src"/kustomize/metrics/resource/metrics-resource.yaml \
     "$1/kwok-stages/"
  chmod -R u+w "$1/kwok-stages"
  # The namespaced PortForward CRD, so a test can point one pod's port at a server of its own on loopback.
  mkdir -p "$1/kwok-crds"
  cp "$src"/kustomize/crd/bases/kwok.x-k8s.io_portforwards.yaml "$1/kwok-crds/"
  chmod -R u+w "$1/kwok-crds"
}

build_metrics-server() {
  (cd "$here/go/metrics-server" && go build -trimpath -ldflags "-s -w" -o "$1/metrics-server" \
    sigs.k8s.io/metrics-server/cmd/metrics-server)
}

build_registry() {
  (cd "$here/go/registry" && go build -trimpath -ldflags "-s -w" -o "$1/registry" \
    github.com/distribution/distribution/v3/cmd/registry)
}

# The Go module proxy serves helm-controller's zip but refuses its go.mod (403), so the go command could not
# resolve it. go/flux builds through a file proxy in the cache that holds that one version, its go.mod taken out of
# the zip (Go checks both against go.sum), ahead of the usual proxy.
flux_proxy() {
  local version dir
  version=$(sed -n 's/^\tgithub.com\/fluxcd\/helm-controller \(v[0-9.]*\).*/\1/p' "$here/go/flux/go.mod")
  [ -n "$version" ] || { echo "build.sh: cannot read the helm-controller version from go/flux/go.mod" >&2; exit 1; }
  dir="$cache_root/goproxy/github.com/fluxcd/helm-controller/@v"
  if [ ! -s "$dir/$version.mod" ]; then
    mkdir -p "$dir" && rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    for ext in info zip; do
      curl -fsSL "https://proxy.golang.org/github.com/fluxcd/helm-controller/@v/$version.$ext" -o "$dir.partial/$version.$ext"
    done
    python3 -c 'import sys,zipfile; open(sys.argv[3],"wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
      "$dir.partial/$version.zip" "github.com/fluxcd/helm-controller@$version/go.mod" "$dir.partial/$version.mod"
    mv "$dir.partial/$version".* "$dir/" && rm -rf "$dir.partial"
    ls "$dir" | sed -n 's/\.mod$//p' > "$dir/list"
  fi
  echo "file://$cache_root/goproxy,$(go env GOPROXY)"
}

build_flux() {
  local proxy m src
  proxy=$(flux_proxy)
  for m in source-controller kustomize-controller helm-controller; do
    (cd "$here/go/flux" && GOPROXY=$proxy go build -trimpath -ldflags "-s -w" -o "$1/$m" "github.com/fluxcd/$m")
  done
  # The CRDs of the pinned releases, from the module zips, so cluster:up installs exactly what the controllers serve.
  mkdir -p "$1/flux-crds"
  for m in source-controller kustomize-controller helm-controller; do
    src=$(cd "$here/go/flux" && GOPROXY=$proxy go list -m -f '{{.Dir}}' "github.com/fluxcd/$m")
    cp "$src"/config/crd/bases/*.yaml "$1/flux-crds/"
  done
  chmod -R u+w "$1/flux-crds"
}

# CRDs out of released module zips, nothing of them compiled: each zip is downloaded from the Go module proxy and
# checked against the wrapper module's go.sum with the go command's own hash (h1: the SHA-256 of the sorted file
# digests), then the named CRDs are cut out of the files a glob picks (one file may hold many, like Istio's) into
# <folder>/<CRD name>.yaml. A CRD the table names that the zip lacks fails the build, so a version bump that moves a
# file is caught here. Table lines: <output folder> <module> <glob inside the module> <CRD name>[,<CRD name>...].
module_crds() {
  python3 - "$here/go/$1/go.sum" "$2" "$3" <<'PY'
import base64, fnmatch, hashlib, io, os, re, sys, urllib.request, zipfile
go_sum, out, table = sys.argv[1:]
sums = {}
for line in open(go_sum):
    module, version, h1 = line.split()
    if not version.endswith('/go.mod'):
        sums[module] = (version, h1)
archives = {}
def archive(module):
    if module not in archives:
        version, expected = sums[module]
        escaped = re.sub('[A-Z]', lambda m: '!' + m.group().lower(), module)
        with urllib.request.urlopen(f'https://proxy.golang.org/{escaped}/@v/{version}.zip', timeout=300) as response:
            zip_file = zipfile.ZipFile(io.BytesIO(response.read()))
        names = sorted(zip_file.namelist())
        summary = ''.join(f'{hashlib.sha256(zip_file.read(n)).hexdigest()}  {n}\n' for n in names)
        actual = 'h1:' + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()
        if actual != expected:
            sys.exit(f'build.sh: {module}@{version} is {actual}, {go_sum} says {expected}')
        archives[module] = (zip_file, f'{module}@{version}/')
    return archives[module]
for row in table.split('\n'):
    if not row.strip():
        continue
    folder, module, pattern, wanted = row.split()
    zip_file, prefix = archive(module)
    found = {}
    for name in zip_file.namelist():
        if fnmatch.fnmatchcase(name, prefix + pattern):
            for doc in re.split(r'^---[^\n]*\n', zip_file.read(name).decode(), flags=re.M):
                crd = re.search(r'^metadata:\n(?:(?:  .*)?\n)*?  name: (\S+)', doc, flags=re.M)
                if crd and crd.group(1) in wanted.split(','):
                    found[crd.group(1)] = doc.strip() + '\n'
    missing = set(wanted.split(',')) - set(found)
    if missing:
        sys.exit(f'build.sh: {module} has no {", ".join(sorted(missing))} under {pattern}')
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    for crd, doc in found.items():
        with open(os.path.join(out, folder, crd + '.yaml'), 'w') as f:
            f.write(doc)
PY
}

# Karpenter's kwok cloud provider (`sigs.k8s.io/karpenter/kwok`, in Karpenter's root module): the real provisioning,
# registration and disruption controllers, with Nodes that kwok then runs (ADR 0127). Its CRDs come with the
# ecosystem's.
# Karpenter's operator takes only ports for its metrics and health servers and listens on every interface; the
# build binds both to loopback, as every server in the tests is (ADR 0127): it copies the verified module out of
# the module cache, changes the one file that forms the two addresses, and builds the wrapper module replaced onto
# that copy. A release that forms them elsewhere fails here rather than listening widely.
build_karpenter() {
  local src work
  # `go list -m` names the module's directory only once it is in the module cache.
  src=$(cd "$here/go/karpenter" && go mod download sigs.k8s.io/karpenter && go list -m -f '{{.Dir}}' sigs.k8s.io/karpenter)
  [ -d "$src" ] || { echo "build.sh: sigs.k8s.io/karpenter is not in the module cache after its download" >&2; exit 1; }
  work="$1/src"
  mkdir -p "$work/wrapper" && cp -r "$src" "$work/karpenter" && chmod -R u+w "$work/karpenter"
  sed -i 's/fmt.Sprintf(":%d", /fmt.Sprintf("127.0.0.1:%d", /' "$work/karpenter/pkg/operator/operator.go"
  [ "$(grep -c 'fmt.Sprintf("127.0.0.1:%d", ' "$work/karpenter/pkg/operator/operator.go")" = 2 ] ||
    { echo "build.sh: $src/pkg/operator/operator.go no longer forms Karpenter's two listen addresses as expected" >&2; exit 1; }
  cp "$here/go/karpenter/go.mod" "$here/go/karpenter/go.sum" "$work/wrapper/"
  (cd "$work/wrapper" && go mod edit -replace sigs.k8s.io/karpenter=../karpenter &&
    go build -trimpath -ldflags "-s -w" -o "$1/karpenter" sigs.k8s.io/karpenter/kwok)
  rm -rf "$work"
}

# Argo CD's Application and AppProject CRDs (its controller is not built, ADR 0025).
build_argocd() {
  module_crds argocd "$1" "argocd-crds github.com/argoproj/argo-cd/v3 manifests/crds/*-crd.yaml applications.argoproj.io,appprojects.argoproj.io"
}

# The CRDs of the kinds packages/common/src/ecosystem.ts names (plus KWOKNodeClass, the NodeClass Karpenter's kwok
# provider takes), one folder per integration id (ADR 0127). Only these: every served kind is one more the agents
# list and watch.
build_ecosystem() {
  module_crds ecosystem "$1" "
ecosystem-crds/gateway-api sigs.k8s.io/gateway-api config/crd/standard/*.yaml gatewayclasses.gateway.networking.k8s.io,gateways.gateway.networking.k8s.io,httproutes.gateway.networking.k8s.io,grpcroutes.gateway.networking.k8s.io,referencegrants.gateway.networking.k8s.io
ecosystem-crds/cert-manager github.com/cert-manager/cert-manager deploy/crds/*.yaml certificates.cert-manager.io,certificaterequests.cert-manager.io,issuers.cert-manager.io,clusterissuers.cert-manager.io,orders.acme.cert-manager.io,challenges.acme.cert-manager.io
ecosystem-crds/keda github.com/kedacore/keda/v2 config/crd/bases/*.yaml scaledobjects.keda.sh,scaledjobs.keda.sh,triggerauthentications.keda.sh,clustertriggerauthentications.keda.sh
ecosystem-crds/karpenter sigs.k8s.io/karpenter pkg/apis/crds/*.yaml nodepools.karpenter.sh,nodeclaims.karpenter.sh
ecosystem-crds/karpenter sigs.k8s.io/karpenter kwok/apis/crds/*.yaml kwoknodeclasses.karpenter.kwok.sh
ecosystem-crds/knative knative.dev/serving config/core/300-resources/*.yaml services.serving.knative.dev,configurations.serving.knative.dev,revisions.serving.knative.dev,routes.serving.knative.dev
ecosystem-crds/crossplane github.com/crossplane/crossplane/v2 cluster/crds/*.yaml compositeresourcedefinitions.apiextensions.crossplane.io,compositions.apiextensions.crossplane.io
ecosystem-crds/kyverno github.com/kyverno/kyverno config/crds/kyverno/*.yaml clusterpolicies.kyverno.io,policies.kyverno.io
ecosystem-crds/kyverno github.com/kyverno/kyverno config/crds/policyreport/*.yaml policyreports.wgpolicyk8s.io,clusterpolicyreports.wgpolicyk8s.io
ecosystem-crds/velero github.com/vmware-tanzu/velero config/crd/v1/bases/*.yaml backups.velero.io,restores.velero.io,schedules.velero.io,backupstoragelocations.velero.io
ecosystem-crds/cloudnative-pg github.com/cloudnative-pg/cloudnative-pg config/crd/bases/*.yaml clusters.postgresql.cnpg.io,backups.postgresql.cnpg.io,scheduledbackups.postgresql.cnpg.io,poolers.postgresql.cnpg.io
ecosystem-crds/istio istio.io/api kubernetes/customresourcedefinitions.gen.yaml virtualservices.networking.istio.io,destinationrules.networking.istio.io"
}

estimate() { if [ "$1" -lt 60 ]; then echo "$1 s"; else echo "$(( ($1 + 30) / 60 )) min"; fi; }
todo="" total=0
for m in $modules; do
  built "$m" "$(module_dir "$m")" || { todo="$todo $m"; total=$(( total + seconds[$m] )); }
done
count=$(echo $todo | wc -w) step=0
[ "$count" = 0 ] || echo "build.sh: building $count of the ${1:-full} profile's components once (cached in $cache_root): about $(estimate "$total") on 2 cores" >&2
for m in $todo; do
  dir=$(module_dir "$m")
  step=$(( step + 1 ))
  echo "build.sh: [$step/$count] ${label[$m]}: about $(estimate "${seconds[$m]}")" >&2
  start=$(date +%s)
  rm -rf "$dir.partial" && mkdir -p "$dir.partial"
  "build_$m" "$dir.partial"
  rm -rf "$dir" && mv "$dir.partial" "$dir"
  echo "build.sh: [$step/$count] $m built in $(( $(date +%s) - start ))s" >&2
done
rm -rf "$bin.partial" && mkdir -p "$bin.partial"
for m in $modules; do
  for t in ${tools[$m]}; do ln -s "$(module_dir "$m")/$t" "$bin.partial/$t"; done
done
rm -rf "$bin" && mv "$bin.partial" "$bin"
echo "$bin"
