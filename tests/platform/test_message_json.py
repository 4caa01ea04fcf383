"""A message stored in the outbox reads back as the same message, whatever its texts' parameters hold."""

from __future__ import annotations

import json
from datetime import date

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.infra import messages
from services.infra.messages import (
    CardStrip,
    Day,
    Embed,
    EmbedField,
    MessageSpec,
    Number,
    Select,
    SelectOption,
    StripCard,
    Text,
)

plain = st.one_of(
    st.text(max_size=20),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)
leaves = st.one_of(
    plain,
    st.builds(Number, st.integers(min_value=-(10**12), max_value=10**12)),
    st.builds(Day, st.dates(min_value=date(1970, 1, 1), max_value=date(2999, 12, 31))),
)
keys = st.sampled_from(["profile.title", "hoss.gold_amount", "=", "x.y"])


def texts(params: st.SearchStrategy[object]) -> st.SearchStrategy[Text]:
    return st.builds(Text, keys, st.dictionaries(st.sampled_from("abcde"), params, max_size=4))


nested = st.recursive(
    leaves, lambda inner: st.one_of(texts(inner), st.lists(texts(inner), min_size=1, max_size=3))
)


@settings(max_examples=150, deadline=None)
@given(content=texts(nested), field=texts(nested))
def test_a_stored_message_reads_back_the_same(content: Text, field: Text) -> None:
    spec = MessageSpec(content=content, embeds=(Embed(title=field, fields=(EmbedField(field, content),)),))
    assert MessageSpec.from_json(spec.to_json()) == spec


def test_strips_and_selects_read_back_the_same() -> None:
    """A hand's figures and its « Voir une carte » select, stored in the outbox with the DM."""
    strip = CardStrip(
        "choco-hand-1.png", "choco", (StripCard("merlin"), StripCard("circe", "or_2", 0)), figures=True
    )
    select = Select(
        "cardview:choco",
        Text("collection.entry.placeholder"),
        (SelectOption(Text.per_locale({"fr": "Circé", "en": "Circe"}), "circe|or_2|0|0"),),
    )
    spec = MessageSpec(strips=(strip,), selects=(select,))
    assert MessageSpec.from_json(spec.to_json()) == spec
    assert MessageSpec.from_json(MessageSpec(strips=(strip,)).to_json()).selects == ()


def _a_post() -> MessageSpec:
    name = Text("choco.board.name", {"fr": "Joséphine Grelotte", "en": "Joséphine Shiver"})
    line = Text("choco.hand.wizard", {"label": "M1", "name": name, "pa": 1, "pv": 5, "n": Number(15100)})
    return MessageSpec(
        content=Text("choco.play.hand_dm", {"id": 3, "thread": "<#2>"}),
        embeds=(Embed(title=Text("choco.play.hand_title", {"id": 3}), description=Text.lines([line, line])),),
        ping_users=(2**62,),
    )


def test_a_payload_is_written_by_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    """The standard module's writing was three quarters of a post's payload (docs/performance.md)."""

    def refused(*_: object, **__: object) -> str:
        raise AssertionError("json.dumps wrote the payload")

    monkeypatch.setattr(json, "dumps", refused)
    spec = _a_post()
    raw = spec.to_json()
    assert MessageSpec.from_json(raw) == spec
    assert "Joséphine" in raw  # UTF-8, not escaped


def test_a_payload_the_standard_module_wrote_reads_back_the_same() -> None:
    """Rows written before orjson (ASCII-escaped, spaced) are read as they were written."""
    spec = _a_post()
    older = json.dumps(json.loads(spec.to_json()), sort_keys=True)
    assert "\\u00e9" in older
    assert MessageSpec.from_json(older) == spec


def test_a_number_orjson_refuses_is_written_by_the_standard_module() -> None:
    spec = MessageSpec(content=Text("x.y", {"big": 2**70}))
    assert MessageSpec.from_json(spec.to_json()) == spec


def test_a_payload_hands_its_parameters_to_orjson_unwalked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Walking each parameter in Python before orjson wrote them was a quarter of a Chocobataille post's
    payload (docs/performance.md): orjson calls back for a Text, a Number or a Day only."""

    def walked(value: object) -> object:
        raise AssertionError(f"a parameter walked in Python: {value!r}")

    monkeypatch.setattr(messages, "_param_to_json", walked)
    spec = _a_post()
    assert MessageSpec.from_json(spec.to_json()) == spec


@settings(max_examples=100, deadline=None)
@given(content=texts(nested), field=texts(nested))
def test_a_payload_is_the_text_a_walk_of_its_parameters_writes(content: Text, field: Text) -> None:
    """Rows stay byte for byte what they were (kept specs are found by their payload)."""
    spec = MessageSpec(content=content, embeds=(Embed(title=field, fields=(EmbedField(field, content),)),))
    walked = orjson.dumps(spec._as_json(Text.to_json), option=orjson.OPT_SORT_KEYS).decode()
    assert spec.to_json() == walked


def test_a_row_written_before_orjson_wrote_the_dataclasses_reads_back_the_same() -> None:
    """Rows queued before the texts were written by orjson itself mark them ("$text", "$texts", "$int",
    "$date"); a row still pending at an upgrade is delivered as it was written."""
    older = (
        '{"content":{"key":"choco.play.hand_dm","params":{"id":3,"n":{"$int":15100},'
        '"day":{"$date":"2026-12-01"},"name":{"$text":{"key":"=","params":{"text":"Zoé"}}},'
        '"items":{"$texts":[{"key":"a.b","params":{}},{"key":"c.d","params":{"x":1}}]}}},'
        '"embeds":[],"buttons":[],"ping_users":[],"show_label":null,"archive_thread":false,'
        '"attachments":[],"strips":[],"selects":[]}'
    )
    expected = Text(
        "choco.play.hand_dm",
        {
            "id": 3,
            "n": Number(15100),
            "day": Day(date(2026, 12, 1)),
            "name": Text.raw("Zoé"),
            "items": [Text("a.b"), Text("c.d", {"x": 1})],
        },
    )
    assert MessageSpec.from_json(older) == MessageSpec(content=expected)
    assert MessageSpec.from_json(MessageSpec(content=expected).to_json()) == MessageSpec(content=expected)


def test_a_payload_writes_its_texts_as_orjson_writes_the_dataclasses() -> None:
    """A Text, a Number and a Day are written as orjson writes a dataclass itself, in C: a call back into
    Python for each Text was two thirds of a Chocobataille post's payload."""
    spec = _a_post()
    assert orjson.loads(spec.to_json())["embeds"][0]["description"]["params"]["items"][0] == {
        "key": "choco.hand.wizard",
        "params": {
            "label": "M1",
            "n": {"value": 15100},
            "name": {
                "key": "choco.board.name",
                "params": {"fr": "Joséphine Grelotte", "en": "Joséphine Shiver"},
            },
            "pa": 1,
            "pv": 5,
        },
    }
