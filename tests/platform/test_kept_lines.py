"""`Text.lines` keeps the lines it wrote, by their language and their Text's JSON (services/infra/messages.py,
`_line`): a line written again is the one written first, and a line the guard refuses a parameter of is
never kept. Kept lines are off while the tests' wording check reads each text: these tests switch it off."""

from __future__ import annotations

import logging

import pytest

import core.i18n as i18n
from core.message_guard import GUARD, Quoted
from services.infra import messages
from services.infra.messages import Number, Text, render_text

KEY = "immortals.recap.absent"  # « {player} n'a fait aucun choix… »


pytestmark = pytest.mark.usefixtures("unread")


def line(player: object) -> Text:
    return Text(KEY, {"player": Text("profile.title", {"name": player})})


def test_a_line_written_again_is_the_one_kept_by_language() -> None:
    lines = Text.lines([line("Alice"), Text("choco.board.none"), line("Bob")])
    first = render_text(lines, "fr")
    assert len(messages._kept_lines) == 2  # the label is written as it is, not kept
    kept = dict(messages._kept_lines)
    assert render_text(lines, "fr") == first
    assert messages._kept_lines == kept  # found, nothing written again
    english = render_text(lines, "en")
    assert english != first
    assert len(messages._kept_lines) == 4
    messages._kept_lines.clear()
    assert render_text(lines, "fr") == first


def test_a_kept_line_is_found_for_an_equal_text_built_anew() -> None:
    render_text(Text.lines([line("Alice")]), "fr")
    (key,) = messages._kept_lines
    messages._kept_lines[key] = "kept"
    assert render_text(Text.lines([line("Alice")]), "fr") == "kept"
    assert render_text(Text.lines([line("Alicia")]), "fr") != "kept"
    assert render_text(Text.lines([Text(KEY, {"player": Number(3)})]), "fr") != "kept"


def test_a_line_with_a_refused_parameter_is_never_kept_and_logged_each_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refused = Text.lines([line("Number(value=1)")])  # a repr: the guard refuses it
    with caplog.at_level(logging.WARNING, logger="core.message_guard"):
        first = render_text(refused, "fr")
        assert render_text(refused, "fr") == first
    assert messages._kept_lines == {}
    assert len([r for r in caplog.records if "Number(value=1)" in r.getMessage()]) == 2


def test_a_players_quoted_text_and_the_same_str_are_kept_apart(caplog: pytest.LogCaptureFixture) -> None:
    """The guard lets a player's own words through (`Quoted`) but refuses the same str from the bot."""
    typed = "Number(value=1)"
    quoted = render_text(Text.lines([Text(KEY, {"player": Quoted(typed)})]), "fr")
    assert typed in quoted
    assert len(messages._kept_lines) == 1
    with caplog.at_level(logging.WARNING, logger="core.message_guard"):
        plain = render_text(Text.lines([Text(KEY, {"player": typed})]), "fr")
    assert typed not in plain
    assert any(typed in r.getMessage() for r in caplog.records)


def test_words_forbidden_after_a_line_was_kept_drop_the_kept_lines(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    lines = Text.lines([line("zz-card-id")])  # not yet a card id: written and kept
    render_text(lines, "fr")
    assert len(messages._kept_lines) == 1
    monkeypatch.setattr(GUARD, "forbidden", GUARD.forbidden | {"zz-card-id"})
    with caplog.at_level(logging.WARNING, logger="core.message_guard"):
        render_text(lines, "fr")
    assert messages._kept_lines == {}
    assert any("zz-card-id" in r.getMessage() for r in caplog.records)


def test_catalogs_loaded_again_drop_the_kept_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = Text.lines([line("Alice")])
    first = render_text(lines, "fr")
    fresh = {lang: dict(texts) for lang, texts in i18n.catalogs().items()}
    fresh["fr"][KEY] = "{player} est absent."
    monkeypatch.setattr(i18n, "catalogs", lambda: fresh)
    i18n._template.cache_clear()
    try:
        again = render_text(lines, "fr")
    finally:
        i18n._template.cache_clear()
    assert again != first
    assert again.endswith("est absent.")


def test_a_line_orjson_cannot_write_is_written_each_time_and_not_kept() -> None:
    big = Text.lines([Text(KEY, {"player": Text("profile.title", {"name": 2**70})})])
    assert str(2**70) in render_text(big, "fr")
    assert messages._kept_lines == {}


def test_no_line_is_kept_while_the_wording_check_reads_the_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GUARD, "wording", lambda text, lang: [])
    render_text(Text.lines([line("Alice")]), "fr")
    assert messages._kept_lines == {}
