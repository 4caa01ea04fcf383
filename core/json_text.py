"""JSON text for a database column, written by orjson: the standard module took a tenth of a HOSS ranked
start's write unit for the battle's setups and data (docs/performance.md, "The eighth round").

Keys are sorted, as `json.dumps(..., sort_keys=True)` wrote them; what orjson refuses (an integer past 64
bits) is written by the standard module, which every reader (`json.loads`) reads the same. Readers keep
`json.loads`: orjson reads an integer past 64 bits as a float, and older rows may hold one.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def json_text(value: Any) -> str:
    raw = _by_orjson(value)
    return json.dumps(value, sort_keys=True) if raw is None else raw.decode()


def written(value: Any) -> tuple[str, Any]:
    """`json_text(value)` and the value as a read of it gives it (lists for tuples, keys as text): what a
    unit that wrote a row hands on instead of reading it back. Read by orjson when orjson wrote it (no
    integer past 64 bits then, and floats come back exactly), by the standard module otherwise."""
    raw = _by_orjson(value)
    if raw is None:
        text = json.dumps(value, sort_keys=True)
        return text, json.loads(text)
    return raw.decode(), orjson.loads(raw)


def _by_orjson(value: Any) -> bytes | None:
    """orjson's JSON of `value`, or None where orjson refuses it (an integer past 64 bits)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return None
