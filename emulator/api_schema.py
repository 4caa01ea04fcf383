"""Every request the bot sends, checked against Discord's own published description of its HTTP API.

Discord publishes an OpenAPI 3.1 document of API v10 (github.com/discord/discord-api-spec, MIT); the
emulator ships it, pinned by commit (`spec/SOURCE.md`; `tools/discord_spec.py` refreshes it). A request
is checked before any handler runs: its method and path must be an operation of the document, its path
and query parameters and its body (a JSON body, or a multipart body's `payload_json`) must match that
operation's schemas. A mismatch answers 400 "Invalid Form Body" as Discord does, and is recorded as the
bot's bug (`EmulatorCore.record_error`) with the field's path, so the test that sent it fails.

The document's own conventions (its README) are kept: a field typed `integer` accepts a string that
parses as one ("our API accepts strings for int fields if they are parseable as ints"), and `anyOf`
and `oneOf` unions are checked as "one of them matches" (the README: they all mean that only one type
from the list can be used; `oneOf` is read as `anyOf`, since a branch of digits now matches twice).
Two conventions of Discord's that the document does not write are kept too: a snowflake may be sent as
a JSON integer (discord.py sends a new attachment's id, its index, as `0`), and a boolean query value is
true when it is `True`, `true` or `1` and false otherwise (Discord's reference, "Boolean Query Strings";
discord.py sends `1` and `0`). Formats (`int32`, `uri`) are annotations, as the document says it does not
over-specify them.

Measured: a message body checks in about 10 µs with `jsonschema-rs` (Rust), where the pure-Python
`jsonschema` took about 0.9 ms; the suite sends tens of thousands of requests.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import orjson

SPEC = Path(__file__).parent / "spec" / "discord-openapi.json"
INT_STRING = {"type": "string", "pattern": "^-?[0-9]+$"}
SNOWFLAKE_INT = {"type": "integer", "minimum": 0}


@dataclass(frozen=True)
class Operation:
    method: str
    template: str  # the document's path, "/channels/{channel_id}/messages"
    parameters: dict[tuple[str, str], tuple[dict[str, Any], bool]]  # (in, name) -> (schema, required)
    body: dict[str, Any] | None  # the JSON body's schema, when the operation takes one


def _ints_as_strings(node: Any) -> Any:
    """The document with every integer field also accepting an int-parseable string, and every union
    read as "one of these matches" (`oneOf` as `anyOf`: with strings accepted for integers, a nonce of
    digits matches two branches of a union that means one of)."""
    if isinstance(node, list):
        return [_ints_as_strings(item) for item in node]
    if not isinstance(node, dict):
        return node
    walked = {("anyOf" if key == "oneOf" else key): _ints_as_strings(value) for key, value in node.items()}
    kind = walked.get("type")
    if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
        return {"anyOf": [walked, INT_STRING]}
    if walked.get("format") == "snowflake":
        return {"anyOf": [walked, SNOWFLAKE_INT]}
    return walked


@cache
def _document() -> dict[str, Any]:
    document: dict[str, Any] = _ints_as_strings(json.loads(SPEC.read_text(encoding="utf-8")))
    return document


def _validator(schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    """A validator of `schema` whose references reach the document's components."""
    root = {**schema, "components": _document()["components"]}
    return jsonschema_rs.Draft202012Validator(root)


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    found: Any = _document()
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return _resolve(found)


def _operation(method: str, template: str, item: dict[str, Any]) -> Operation:
    declared = item.get("parameters", []) + item[method].get("parameters", [])
    parameters = {}
    for parameter in map(_resolve, declared):
        parameters[parameter["in"], parameter["name"]] = (
            parameter["schema"],
            bool(parameter.get("required")),
        )
    content = item[method].get("requestBody", {}).get("content", {})
    body = content.get("application/json", {}).get("schema")
    return Operation(method.upper(), template, parameters, body)


@cache
def _operations() -> list[tuple[str, re.Pattern[str], Operation]]:
    found = []
    for template, item in _document()["paths"].items():
        pattern = re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)))
        for method in item:
            if method in ("get", "put", "post", "patch", "delete"):
                found.append((method.upper(), pattern, _operation(method, template, item)))
    # A literal segment wins over a parameter ("/users/@me" over "/users/{user_id}").
    found.sort(key=lambda entry: entry[2].template.count("{"))
    return found


_CHECKERS: dict[int, tuple[dict[str, Any], jsonschema_rs.Draft202012Validator]] = {}


def _checker(schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    """The schema's validator, built once: the schemas are the cached document's own objects (the entry
    keeps its schema alive, so its id is never reused)."""
    entry = _CHECKERS.get(id(schema))
    if entry is None:
        entry = _CHECKERS[id(schema)] = (schema, _validator(schema))
    return entry[1]


def _explained(error: jsonschema_rs.ValidationError) -> list[jsonschema_rs.ValidationError]:
    """A union that no branch matched explained by the branch that went deepest into the value: the
    field that broke it, not "is not valid under any of the schemas"."""
    branches = getattr(error.kind, "context", None)
    if not branches:
        return [error]
    depth = len(error.instance_path)

    def fit(branch: list[jsonschema_rs.ValidationError]) -> tuple[bool, int]:
        """A branch whose own `type` the value does not have is another kind of thing (a section, not
        a button): the branches of the value's kind first, then the one that went deepest."""
        kind_differs = any(
            len(e.instance_path) == depth + 1 and e.instance_path[-1] == "type" for e in branch
        )
        return not kind_differs, max((len(e.instance_path) for e in branch), default=-1)

    best = max(branches, key=fit)
    return [found for inner in best for found in _explained(inner)] or [error]


def _field(where: str, path: Any) -> str:
    return where + "".join(f".{part}" if isinstance(part, str) else f"[{part}]" for part in path)


def _errors(schema: dict[str, Any], value: Any, where: str) -> list[str]:
    found = [inner for error in _checker(schema).iter_errors(value) for inner in _explained(error)]
    return [f"{_field(where, error.instance_path)}: {error.message[:300]}" for error in found]


def _typed(value: str, schema: dict[str, Any]) -> Any:
    """A query value (always text in a URL) as the schema's type reads it."""
    kinds = _resolve(schema).get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "boolean" in kinds:  # Discord reads True, true and 1 as true, anything else as false
        return value in ("True", "true", "1")
    if ("integer" in kinds or "number" in kinds) and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


# The verdicts on bulk overwrites' bodies (PUT), by operation and body: every bot start sends its whole
# command list (155 kB for this bot, 8.6 ms to check) and the test suite starts hundreds of bots in each
# process, with the same list. The same body gets the same verdict; it is checked once per process.
_OVERWRITES: dict[tuple[str, bytes], list[str]] = {}
_OVERWRITES_MAX = 16


def _body_errors(method: str, template: str, schema: dict[str, Any], body: Any) -> list[str]:
    if method != "PUT":
        return _errors(schema, body, "body")
    try:
        key = (template, orjson.dumps(body, option=orjson.OPT_SORT_KEYS))
    except orjson.JSONEncodeError:  # e.g. an integer past 64 bits: checked, not remembered
        return _errors(schema, body, "body")
    known = _OVERWRITES.get(key)
    if known is None:
        if len(_OVERWRITES) >= _OVERWRITES_MAX:
            _OVERWRITES.clear()
        known = _OVERWRITES[key] = _errors(schema, body, "body")
    return list(known)


def problems(method: str, path: str, query: dict[str, str], body: Any) -> list[str]:
    """What Discord's API description refuses in this request (`path` without the `/api/v10` prefix):
    nothing when it is a request Discord accepts."""
    for verb, pattern, operation in _operations():
        found = pattern.fullmatch(path) if verb == method else None
        if found is None:
            continue
        errors: list[str] = []
        for (place, name), (schema, required) in operation.parameters.items():
            given = found.groupdict().get(name) if place == "path" else query.get(name)
            if given is None:
                if required:
                    errors.append(f"{place} parameter {name}: missing")
                continue
            errors += _errors(schema, _typed(given, schema), f"{place}.{name}")
        unknown = sorted(set(query) - {name for place, name in operation.parameters if place == "query"})
        errors += [f"query.{name}: not a parameter of {operation.template}" for name in unknown]
        if operation.body is not None and body is not None:
            errors += _body_errors(method, operation.template, operation.body, body)
        elif body is not None:
            errors.append(f"body: {operation.template} takes no body")
        return errors
    return [f"{method} {path}: no such operation in Discord's API"]
