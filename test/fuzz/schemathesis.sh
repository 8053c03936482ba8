#!/usr/bin/env bash
# Provides schemathesis (the OpenAPI fuzzer of test/e2e/openapi-fuzz.int.test.ts, ADR 0052) without touching the
# system Python: a virtual environment of python3 with exactly the packages of requirements.txt, each checked
# against its pinned hashes, made once into ~/.cache/binnacle/schemathesis-<hash>/. The hash covers the
# requirements, this recipe's number and the interpreter, so a new pin or another Python makes a new one. The
# path of the `st` command is printed on stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
recipe=1
python=$(command -v python3)
interpreter="$(readlink -f "$python") $("$python" -c 'import sys; print(sys.version)')"
hash=$( (cat "$here/requirements.txt"; echo "$recipe $interpreter") | sha256sum | cut -c1-16)
dir="${BINNACLE_CACHE_DIR:-$HOME/.cache/binnacle}/schemathesis-$hash"
if [ -f "$dir/.complete" ]; then echo "$dir/bin/st"; exit 0; fi

# One build at a time (bootstrap and a test may ask at once); a second caller waits and then uses its result.
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
if [ ! -f "$dir/.complete" ]; then
  # A venv's scripts name its own path in their #! line, so it is made in place; the stamp marks it complete.
  rm -rf "$dir"
  "$python" -m venv "$dir"
  # --require-hashes refuses anything not pinned with a matching hash; every dependency is listed (--no-deps).
  "$dir/bin/pip" install --quiet --disable-pip-version-check --no-input --require-hashes --no-deps \
    -r "$here/requirements.txt" >&2
  "$dir/bin/st" --version >/dev/null
  touch "$dir/.complete"
fi
echo "$dir/bin/st"
