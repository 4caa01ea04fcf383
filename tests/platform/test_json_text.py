"""A database column's JSON (core/json_text.py): what `json.dumps(..., sort_keys=True)` wrote, read back the
same, written by orjson, and by the standard module where orjson refuses the value."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.json_text import json_text, written

values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_a_column_reads_back_as_the_standard_module_wrote_it(value: object) -> None:
    assert json.loads(json_text(value)) == json.loads(json.dumps(value, sort_keys=True))


def test_keys_are_sorted_and_a_64_bit_overflow_is_written_exactly() -> None:
    assert json_text({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'
    assert json.loads(json_text({"seed": 2**70})) == {"seed": 2**70}
    assert json.loads(json_text({3: "x"})) == {"3": "x"}  # a number as a key, written as json.dumps does


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_a_value_written_is_handed_on_as_a_read_of_its_column_gives_it(value: object) -> None:
    text, read = written(value)
    assert text == json_text(value)
    assert read == json.loads(text)
    assert type(read) is type(json.loads(text))


def test_tuples_and_number_keys_are_handed_on_as_read() -> None:
    assert written({"lines": (1, 2), 3: "x"})[1] == {"3": "x", "lines": [1, 2]}
    assert written({"seed": 2**70})[1] == {"seed": 2**70}  # the standard module's, exact
