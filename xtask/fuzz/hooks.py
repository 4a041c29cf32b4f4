"""Schemathesis hooks for `cargo xtask fuzz-api` (loaded through SCHEMATHESIS_HOOKS).

Works around one schemathesis bug and makes generated `Idempotency-Key`s unique; neither changes
a check. See docs/testing.md.

Stateful testing infers links such as "GET /v1/chats -> GET /v1/recipes/{id}" from a list's
`recipe_id` field, reading every item of the array (`$response.body#/*/recipe_id`). A nullable
field's `null`s are kept among the candidates, and a picked `null` is sent as the path segment
`None`: `GET /v1/recipes/None` -> 400, reported as "schema-valid request rejected" although
`None` is no UUID. A single `null` is already skipped by schemathesis; this drops the `null`s
from multi-item matches the same way.
"""

import re
import uuid

import schemathesis
from schemathesis.specs.openapi import expressions

_evaluate_wildcard = expressions.evaluate_wildcard


def _evaluate_wildcard_without_nulls(expr, output):
    value = _evaluate_wildcard(expr, output)
    if isinstance(value, expressions.MultiMatch):
        kept = [v for v in value.values if v is not None]
        if not kept:
            return None  # like a single null: the link is not followed
        if len(kept) == 1:
            return kept[0]
        return expressions.MultiMatch(kept)
    return value


expressions.evaluate_wildcard = _evaluate_wildcard_without_nulls


# Every POST and PATCH under /v1 takes an optional `Idempotency-Key`. Generated keys are short and
# repeat ("0", "00"…), and a key sent again with another body is rightly `422
# idempotency_key_reused` (or `409` while the first try runs): a valid case would be reported as
# rejected. A well-formed key is made unique before the call, as a real client's keys are; a
# malformed one is sent as generated, so a negative case still expects its `400`.
_WELL_FORMED_KEY = re.compile(r"[!-~]{1,255}")


@schemathesis.hook
def before_call(ctx, case, kwargs):
    headers = case.headers or {}
    for name, value in list(headers.items()):
        if name.lower() == "idempotency-key" and isinstance(value, str) and _WELL_FORMED_KEY.fullmatch(value):
            headers[name] = f"{value[:200]}-{uuid.uuid4().hex}"
