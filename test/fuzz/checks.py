"""The conventions every answer of the agent and the hub keeps (docs/api/errors.md), as schemathesis checks,
and the hook that keeps a run from revoking what it stands on.

Loaded by schemathesis.toml (`hooks`); ADR 0052 says why these beside schemathesis's own checks.
"""

import json
import os
import re
from pathlib import Path

import schemathesis

_errors_md = Path(__file__).resolve().parents[2] / "docs" / "api" / "errors.md"


def _catalogue() -> dict[str, int]:
    """Every documented code with its status, read from the table errors.md carries (kept equal to errors.ts)."""
    text = _errors_md.read_text(encoding="utf-8")
    table = text.split("<!-- error-codes:begin -->", 1)[1].split("<!-- error-codes:end -->", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", table, flags=re.MULTILINE)
    if not rows:
        raise RuntimeError(f"no error codes found in {_errors_md}")
    return {code: int(status) for code, status in rows}


CODES = _catalogue()

# Ids of objects the run itself stands on (the caller's own token, ...): BINNACLE_FUZZ_KEEP, comma-separated.
KEEP = frozenset(filter(None, os.environ.get("BINNACLE_FUZZ_KEEP", "").split(",")))
# A well-formed id nothing has.
NOBODY = "00000000-0000-4000-8000-000000000000"


@schemathesis.hook
def before_call(context, case, kwargs):
    """A change naming an object the run stands on names nobody instead.

    Schemathesis reuses ids from earlier answers, so it finds the caller's own token in `GET /api/pats` and
    would revoke it, leaving every later request a 401 that tests nothing.
    """
    if case.method.upper() in ("GET", "HEAD") or not case.path_parameters:
        return
    for name, value in case.path_parameters.items():
        if value in KEEP:
            case.path_parameters[name] = NOBODY


def _header(response, name: str) -> str | None:
    values = response.headers.get(name)
    return values[0] if values else None


@schemathesis.check
def error_shape(ctx, response, case):
    """An error answer is `application/json` `{error: string, code: <a catalogue code>}` with the code's status."""
    if response.status_code < 400:
        return None
    media_type = (_header(response, "content-type") or "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise AssertionError(f"error answer {response.status_code} has Content-Type {media_type or 'none'}, not application/json")
    try:
        body = json.loads(response.content)
    except ValueError as error:
        raise AssertionError(f"error answer {response.status_code} is not JSON: {error}") from None
    if not isinstance(body, dict) or not isinstance(body.get("error"), str) or not isinstance(body.get("code"), str):
        raise AssertionError(f"error answer {response.status_code} is not {{error: string, code: string}}")
    if not body["error"]:
        raise AssertionError(f"error answer {response.status_code} has an empty message")
    code = body["code"]
    if code not in CODES:
        raise AssertionError(f"code {code!r} is not in the catalogue (docs/api/errors.md)")
    if CODES[code] != response.status_code:
        raise AssertionError(f"code {code!r} is documented with {CODES[code]}, answered with {response.status_code}")
    return None


@schemathesis.check
def no_store(ctx, response, case):
    """Every answer, errors included, carries `Cache-Control: no-store` (errors.md)."""
    if _header(response, "cache-control") != "no-store":
        raise AssertionError(f"Cache-Control is {_header(response, 'cache-control')!r}, not 'no-store'")
    return None


@schemathesis.check
def valid_input_taken(ctx, response, case):
    """A request its document allows is never refused as malformed (400 `invalid_request`).

    Other refusals of a well-formed request keep their own codes (`unknown_kind` for a kind the cluster does not
    serve, `invalid_yaml`, `invalid_query`, 422 `invalid`): those depend on the cluster, not on the document.
    """
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    if case.method.upper() != case.operation.method.upper():
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        return None
    if isinstance(body, dict) and body.get("code") == "invalid_request":
        raise AssertionError(f"the document allows this request, the server refused it: {body.get('error')}")
    return None
