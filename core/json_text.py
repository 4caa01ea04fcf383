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
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=True)


def written(value: Any) -> tuple[str, Any]:
    """`json_text(value)` and the value as a read of it gives it (lists for tuples, keys as text): what a
    unit that wrote a row hands on instead of reading it back. Read by orjson when orjson wrote it (no
    integer past 64 bits then, and floats come back exactly), by the standard module otherwise."""
    try:
        text = orjson.dumps(value, option=_OPTIONS)
    except orjson.JSONEncodeError:
        standard = json.dumps(value, sort_keys=True)
        return standard, json.loads(standard)
    return text.decode(), orjson.loads(text)
