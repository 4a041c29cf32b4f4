"""Schemathesis hooks for `cargo xtask fuzz-api` (loaded through SCHEMATHESIS_HOOKS).

Works around one schemathesis bug; it changes no check. See docs/testing.md.

Stateful testing infers links such as "GET /v1/chats -> GET /v1/recipes/{id}" from a list's
`recipe_id` field, reading every item of the array (`$response.body#/*/recipe_id`). A nullable
field's `null`s are kept among the candidates, and a picked `null` is sent as the path segment
`None`: `GET /v1/recipes/None` -> 400, reported as "schema-valid request rejected" although
`None` is no UUID. A single `null` is already skipped by schemathesis; this drops the `null`s
from multi-item matches the same way.
"""

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
