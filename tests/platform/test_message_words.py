"""Every message of both catalogs, rendered with arguments of every kind the code passes, shows no repr,
no card id, no placeholder left unfilled; and the message guard refuses what it must, and only that
(core/message_guard.py). A rendered text is not scanned for « None »: English writes "None of…"; the
guard refuses it where it is a whole argument."""

from __future__ import annotations

import logging
import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest

from core.i18n import catalogs, placeholders, plurals, t
from core.message_guard import GUARD, REPR_PATTERN, STAND_IN, LeakedInternal, MessageGuard, Quoted
from discord_app.refusals import echo
from services.infra.messages import Day, Number, Text, render_text
from tests.e2e.words_scan import internal_words, slugs

DAY = date(2026, 12, 1)
# One argument of each kind a message is given: plain and wrapped numbers, days, nested messages (one with
# a wrapped number of its own), a card's name in both languages, a player's name and mention, a list.
KINDS: dict[str, Any] = {
    "int": 1_234_567,
    "float": 12.5,
    "Decimal": Decimal("1234.5"),
    "Number": Number(1_234_567),
    "Day": Day(DAY),
    "date": DAY,
    "Text": Text("trades.status.done"),
    "Text with a Number": Text("hoss.raffle.gold", {"amount": Number(15_100)}),
    "card name": Text.per_locale({"fr": "Garde du pont", "en": "Bridge Guard"}),
    "name": "Aurélie",
    "mention": "<@154806501564353165>",
    "list": [Text("trades.status.done"), Text("trades.status.expired")],
}
NUMERIC = ("int", "Number")
_WITH_SPEC = re.compile(r"\{(\w+)[:!][^{}]*\}")


def _formatted(text: str) -> set[str]:
    """Placeholders written with a format spec (`{en:.0}`): the code gives those a string only."""
    return set(_WITH_SPEC.findall(text))


def arguments(text: str, kind: str) -> dict[str, Any]:
    """Every placeholder of `text` given an argument of `kind`; a plural's number stays a number, and a
    placeholder with a format spec a string."""
    counted = {block.name for block in plurals(text)}
    shown = _formatted(text)
    args: dict[str, Any] = {}
    for name in placeholders(text):
        if name in counted:
            args[name] = KINDS[kind] if kind in NUMERIC else 2
        elif name in shown:
            args[name] = "Aurélie"
        else:
            args[name] = KINDS[kind]
    return args


def problems_in(shown: str, text: str) -> list[str]:
    found = [f"a repr: {m.group()}" for m in [REPR_PATTERN.search(shown)] if m]
    found += [f"{{{name}}} left unfilled" for name in placeholders(text) if f"{{{name}}}" in shown]
    scanned = internal_words("POST", "/channels/1/messages", {"content": shown}, IDS)
    found += [w.split(": ", 1)[1] for w in scanned if ": card ids" in w]
    return found


IDS = slugs(GUARD.forbidden)


def test_every_message_renders_every_kind_of_argument_in_both_languages(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        GUARD, "wording", None
    )  # the arguments are every kind on purpose, not a message's own
    assert len(IDS) > 300  # the shipped catalogs' ids are known to the suite (tests/conftest.py)
    found: list[str] = []
    with caplog.at_level(logging.WARNING, logger="core.i18n"):
        for lang, table in catalogs().items():
            for key, text in table.items():
                kinds = list(KINDS) if placeholders(text) else ["int"]
                for kind in kinds:
                    shown = render_text(Text(key, arguments(text, kind)), lang)
                    found += [f"{lang} {key} with {kind}: {p}" for p in problems_in(shown, text)]
    warnings = [r.getMessage() for r in caplog.records if "plural" not in r.getMessage()]
    assert found == [], "\n".join(found)
    assert warnings == []


def test_the_scan_of_rendered_messages_finds_what_it_must() -> None:
    """A negative control: each defect the scan looks for, in a text made to hold it."""
    text = "{a} {b}"
    assert problems_in("Number(value=3) x", text) == ["a repr: Number(value="]
    assert problems_in("x {b}", text) == ["{b} left unfilled"]
    assert problems_in("You do not own sorcieres-willow-druid", text) != []
    assert problems_in("Vous ne possédez pas Garde du pont.", text) == []


@pytest.fixture
def guard() -> MessageGuard:
    """A guard of its own, knowing two card ids, strict as in the suite."""
    own = MessageGuard()
    own.strict = True
    own.forbid(["sorcieres-willow-druid", "imp"])
    return own


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (Number(5), "a Number object"),
        (Text("trades.status.done"), "a Text object"),
        (None, "a NoneType object"),
        (True, "a bool object"),
        (datetime(2026, 1, 5, 12, 30), "a datetime object"),
        (["a", "b"], "a list object"),
        ("Number(value=999999)", "a Python repr"),
        ("<services.x.Thing object at 0x7f12e622afd0>", "a Python repr"),
        ("Decimal('1.5')", "a Python repr"),
        ("None", "None"),
        ("sorcieres-willow-druid", "a card's catalog id"),
        ("imp", "a card's catalog id"),
    ],
)
def test_strict_refuses_a_repr_none_or_a_card_id(guard: MessageGuard, value: object, why: str) -> None:
    with pytest.raises(LeakedInternal, match=f"parameter amount is {why}"):
        guard.check(value, "trades.error.amount_over", "amount")
    assert len(guard.findings) == 1


@pytest.mark.parametrize(
    "value",
    [
        5,
        12.5,
        Decimal("1.5"),
        DAY,
        "Garde du pont",
        "<@154806501564353165>",
        "Imp",  # a card's name is not its id
        "impératrice",
        "12 (3 cartes)",
        Quoted("sorcieres-willow-druid"),  # what the player typed, quoted back
        Quoted("Number(value=1)"),
    ],
)
def test_strict_lets_names_numbers_days_and_what_the_player_typed_through(
    guard: MessageGuard, value: object
) -> None:
    assert guard.check(value, "trades.error.amount_over", "amount") is value
    assert guard.findings == []


def test_production_logs_and_still_writes_a_safe_message(
    guard: MessageGuard, caplog: pytest.LogCaptureFixture
) -> None:
    guard.strict = False
    with caplog.at_level(logging.WARNING, logger="core.message_guard"):
        assert guard.check(Number(5), "k", "amount") == STAND_IN
        assert guard.check("Number(value=5)", "k", "amount") == STAND_IN
        assert guard.check("imp", "k", "card") == "imp"  # shown, but a defect to mend: logged
        assert guard.check("None", "k", "name") == "None"  # a player may be called so
    assert len(caplog.records) == 4
    assert "message k: parameter amount is a Number object" in caplog.records[0].getMessage()
    assert guard.findings == []


def test_the_suites_guard_is_strict_and_t_and_raw_texts_pass_through_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert GUARD.strict
    with pytest.raises(LeakedInternal, match="parameter amount is a Number object"):
        t("trades.error.amount_over", "fr", amount=Number(5), balance=3)
    with pytest.raises(LeakedInternal, match="a card's catalog id"):
        render_text(Text.raw("sorcieres-willow-druid"), "fr")
    GUARD.findings.clear()
    # a parameter the text does not write is not shown, so not checked
    assert t("trades.status.done", "fr", unused=Number(5)) == "conclu"
    monkeypatch.setattr(GUARD, "strict", False)
    assert t("trades.error.amount_over", "fr", amount=Number(5), balance=3) == (
        f"Vous proposez {STAND_IN} mais n'avez que 3."
    )


def test_an_echo_quotes_what_the_client_sent_as_it_sent_it() -> None:
    assert echo(None) == "null"
    assert echo(True) == "true"
    assert echo([1, "a"]) == '[1, "a"]'
    assert echo("  deux\nlignes ") == "deux lignes"
    assert isinstance(echo("sorcieres-willow-druid"), Quoted)


def test_the_scan_of_requests_reads_what_a_client_shows_and_nothing_else() -> None:
    """tests/e2e/words_scan.py, run over every request of the end-to-end suite: a negative control."""
    ids = slugs(["sq_guerrier_1", "imp"])
    assert ids == {"sq_guerrier_1"}  # a one-word id is a word of prose: the guard refuses it whole
    body = {
        "type": 4,
        "data": {
            "content": "Bien joué",
            "embeds": [{"fields": [{"name": "Carte", "value": "sq_guerrier_1"}]}],
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "label": "Number(value=3)", "custom_id": "hoss:card:sq_guerrier_1"}
                    ],
                }
            ],
        },
    }
    found = internal_words("POST", "/interactions/1/tok/callback", body, ids)
    assert len(found) == 2
    assert "card ids ['sq_guerrier_1']" in found[0]
    assert "a repr (Number(value=" in found[1]
    commands = [{"name": "x", "description": "id (sq_guerrier_1)", "options": [{"description": "ok"}]}]
    assert len(internal_words("PUT", "/applications/1/commands", commands, ids)) == 1
    assert internal_words("POST", "/channels/1/messages", {"content": "sq guerrier"}, ids) == []


def test_a_catalog_text_opening_a_sentence_takes_a_capital_and_a_players_name_does_not() -> None:
    """« l'IA commence » read as a typo: a catalog text placed where a sentence starts takes the capital the
    sentence wants; what a player typed is left as typed; inside a sentence nothing changes."""
    why = Text("pillz.first.stars")
    ai_first = render_text(Text("pillz.duel.first", {"player": Text("pillz.duel.ai"), "why": why}), "fr")
    assert ai_first.startswith("L'IA commence (plus d'étoiles)")
    player_first = render_text(Text("pillz.duel.first", {"player": Text.raw("alice"), "why": why}), "fr")
    assert player_first.startswith("alice commence")
    ai = Text("pillz.duel.ai")
    mid = render_text(Text("pillz.challenge.accepted", {"challenged": ai, "challenger": ai, "id": 1}), "fr")
    assert mid.startswith("L'IA a accepté le défi de l'IA")
