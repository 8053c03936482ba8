#!/usr/bin/env bash
# Provides Artifact Hub's published OpenAPI document (docs/api/openapi.yaml of github.com/artifacthub/hub at the
# tag below) to the tests' local catalog server. The server always checks every request and answer against the
# project's own contract of the part of the API the agent uses (packages/testkit/src/catalog-contract.ts); where
# this script finds the document, it checks against the document too, and a test checks that the contract agrees
# with it. The document is never committed (the project does not vendor third-party text) and no package registry
# ships it (the Go module proxy refuses github.com/artifacthub/hub), so it is taken where it can be had: it must
# match the sha256 pinned here, is kept once in <cache>/artifacthub-<version>/openapi.yaml, and its path is printed
# on stdout. <cache> is BINNACLE_ARTIFACTHUB_CACHE_DIR (this document only), else BINNACLE_CACHE_DIR, else
# ~/.cache/binnacle. Where it comes from, first found wins:
#   1. that cache (a developer machine that had it once);
#   2. BINNACLE_ARTIFACTHUB_OPENAPI: a copy of the file;
#   3. BINNACLE_ARTIFACTHUB_GIT: a clone (or bare git directory) of artifacthub/hub, read at the tag;
#   4. the file at the tag on GitHub (machines with internet access; 10 s to connect).
# Exit status 3: none of them has it (a machine that reaches only package registries, as CI's); the tests then
# check against the contract alone and say so. Any other failure (a copy that does not match, a clone without the
# tag) is an error. See docs/adr/0023-chart-catalog-tested-against-its-openapi-document.md.
set -euo pipefail
version="v1.22.0"
sha256="0b49d3a9e454a12ea4246d1c7c00f0f59b787bb24d18847c3c806306fc322cda"
dir="${BINNACLE_ARTIFACTHUB_CACHE_DIR:-${BINNACLE_CACHE_DIR:-$HOME/.cache/binnacle}}/artifacthub-$version"
matches() { [ -s "$1" ] && [ "$(sha256sum "$1" | cut -c1-64)" = "$sha256" ]; }
if matches "$dir/openapi.yaml"; then echo "$dir/openapi.yaml"; exit 0; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
candidate="$work/openapi.yaml"
if [ -n "${BINNACLE_ARTIFACTHUB_OPENAPI:-}" ]; then
  cp "$BINNACLE_ARTIFACTHUB_OPENAPI" "$candidate"
  from="$BINNACLE_ARTIFACTHUB_OPENAPI"
elif [ -n "${BINNACLE_ARTIFACTHUB_GIT:-}" ]; then
  git -C "$BINNACLE_ARTIFACTHUB_GIT" show "$version:docs/api/openapi.yaml" >"$candidate"
  from="$BINNACLE_ARTIFACTHUB_GIT at $version"
else
  from="https://raw.githubusercontent.com/artifacthub/hub/$version/docs/api/openapi.yaml"
  if ! curl -fsSL --connect-timeout 10 --max-time 60 -o "$candidate" "$from"; then
    echo "openapi.sh: Artifact Hub's OpenAPI document $version is not in $dir and $from could not be fetched;" \
      "set BINNACLE_ARTIFACTHUB_OPENAPI to a copy of it, or BINNACLE_ARTIFACTHUB_GIT to a clone of artifacthub/hub" >&2
    exit 3
  fi
fi
if ! matches "$candidate"; then
  echo "openapi.sh: $from does not match the pinned sha256 of docs/api/openapi.yaml at $version" >&2
  exit 1
fi
mkdir -p "$dir"
mv "$candidate" "$dir/openapi.yaml.partial" && mv "$dir/openapi.yaml.partial" "$dir/openapi.yaml"
echo "$dir/openapi.yaml"
