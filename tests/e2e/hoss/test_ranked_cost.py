"""What a ranked battle's start and decision cost (issue 39): the board of the start's response is drawn
once, in the language the channel reads it in, and not drawn again when the message is recorded; the
edits the outbox makes later are written in every language, as it picks the channel's when it delivers.
Each unit reads the battle once: what its step saved is what the rest of the unit works on, and a read
finds the state the last save wrote without parsing it. « Décider »
only reads: its controls show the hand and the legal actions, never the rounds, from the player's view
the last save drew its board from."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine.hoss import HossCatalog, HossState, HossView
from engine.hoss.engine import HossEngine
from sandbox.harness import BotHarness
from services.hoss.battle import battles
from services.hoss.battle import ranked as ranked_service
from services.hoss.battle.view import Board
from services.hoss.render import battle as render_battle
from tests.e2e.hoss.helpers import decide_once, hoss, start_rank_1, with_deck
from tests.e2e.messages import shown

pytestmark = pytest.mark.usefixtures("no_pacing")


def count_boards(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language of every board description drawn from now on."""
    drawn: list[str] = []
    describe = render_battle.description

    def counted(board: Board, catalog: HossCatalog, locale: str, names: Any = None) -> str:
        drawn.append(locale)
        return describe(board, catalog, locale, names)

    monkeypatch.setattr(render_battle, "description", counted)
    return drawn


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every battle state parsed from its JSON from now on (each read of the battle parses it)."""
    parsed: list[str] = []
    parse = HossEngine.from_json

    def counted(engine: HossEngine, raw: str) -> HossState:
        parsed.append(raw)
        return parse(engine, raw)

    monkeypatch.setattr(HossEngine, "from_json", counted)
    return parsed


async def test_a_start_and_a_decision_read_the_battle_once_per_unit(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    parsed = count_parses(monkeypatch)
    public = await start_rank_1(harness, alice)
    await harness.settle()
    # the start's unit: the battle made, kept as written (not read back); the message recorded reads it,
    # and finds the state the start wrote by its JSON (services/shared/kept_states.py)
    assert parsed == []
    first = shown(public)

    await decide_once(harness, alice)
    # « Décider »: the battle read for the controls; the action: read once, then played and saved; each
    # read finds the state the last save wrote
    assert parsed == []
    edited = next(m for m in harness.emu.messages if m.id == public.id)
    assert shown(edited) != first
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is not None
    kept = await hoss(harness).ranked.db.read(lambda conn: battles.load(conn, battle))
    assert kept is not None
    assert kept.hoss_state == HossState.model_validate_json(kept.state)  # as a parse of the row gives it


async def test_a_start_draws_its_board_once_in_the_channels_language(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    drawn = count_boards(monkeypatch)
    public = await start_rank_1(harness, alice)
    await harness.settle()
    assert drawn == ["fr"]
    battle = await hoss(harness).ranked.current(alice.id)
    assert f"Combat classé n° {battle} — Rang 1" in shown(public)
    first = shown(public)
    assert f"À <@{alice.id}> de décider" in first

    drawn.clear()
    await decide_once(harness, alice)  # the rounds it plays are edits of the recorded message
    assert drawn
    assert set(drawn) == {"fr"}  # in the language the outbox shows them in, once each
    edited = next(m for m in harness.emu.messages if m.id == public.id)
    assert shown(edited) != first
    assert f"Combat classé n° {battle} — Rang 1" in shown(edited)
    assert "Manche" in shown(edited)


async def test_a_decisions_edits_are_drawn_in_an_english_servers_language_only(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    odile = harness.user("odile", admin=True)
    await harness.emu.run_command(odile, "configuration langue", {"langue": "English (anglais)"})
    alice = harness.user("alice")  # a French player: her private controls stay in French
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    await harness.settle()
    battle = await hoss(harness).ranked.current(alice.id)
    first = shown(public)
    assert f"Ranked battle #{battle}" in first

    drawn = count_boards(monkeypatch)
    controls = await harness.emu.click(alice, "Decide", message=public)
    assert controls.message is not None
    assert controls.message.ephemeral
    await harness.emu.click(alice, "Passer", message=controls.message)
    await harness.settle()
    assert drawn
    assert set(drawn) == {"en"}
    edited = next(m for m in harness.emu.messages if m.id == public.id)
    assert shown(edited) != first
    assert "Round" in shown(edited)
    assert "Manche" not in shown(edited)


async def test_opening_the_decision_controls_writes_nothing(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)
    await harness.settle()
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is not None
    await hoss(harness).ranked.message_recorded(battle)  # its record, riding, committed: not a click's
    assert harness.bot is not None
    db = harness.bot.services.db
    batches = db.batches
    viewed: list[int] = []
    view = HossEngine.view

    def counted(engine: HossEngine, state: HossState, player: int) -> HossView:
        viewed.append(player)
        return view(engine, state, player)

    monkeypatch.setattr(HossEngine, "view", counted)
    controls = await harness.emu.click(alice, "Décider")
    await harness.settle()
    assert db.batches == batches
    assert viewed == []  # the view the start drew its board from, of the very state it saved
    assert controls.message is not None
    assert controls.message.ephemeral
    assert "Votre main\u00a0:" in shown(controls.message)
    assert controls.message.select_options or "Passer" in controls.message.button_labels


async def test_a_starts_message_is_recorded_with_the_next_commit_and_found_by_a_read(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start costs one commit: the message's record (`attach_soon`) rides with the next one, which
    finds it (the decision's rounds edit the message); `/hoss combat`, a read, waits for it and shows the
    battle privately rather than posting it again."""
    monkeypatch.setattr(ranked_service, "ATTACH_WITHIN", timedelta(minutes=1))  # no commit of its own here
    alice = harness.user("alice")
    await with_deck(harness, alice)
    assert harness.bot is not None
    db = harness.bot.services.db
    warm_up = await start_rank_1(harness, alice)  # the server's language remembered, first uses
    await harness.emu.click(alice, "Passer à la fin", message=warm_up)
    await harness.emu.run_command(alice, "hoss rang")
    await harness.settle()
    batches = db.batches
    started = await harness.emu.click(alice, "Combattre — Rang 1")
    public = started.message
    assert public is not None
    await harness.settle()
    assert db.batches - batches == 1  # the start's unit; the record was a commit of its own before

    again = await harness.emu.run_command(alice, "hoss combat")
    assert again.message is not None
    assert again.message.ephemeral  # the battle has its message: not posted a second time
    assert db.batches - batches == 2  # the record, hurried by the read
    posted = [m.id for m in harness.emu.messages if not m.ephemeral and "Combat classé" in shown(m)]
    assert posted == [warm_up.id, public.id]

    first = shown(public)
    await decide_once(harness, alice)  # its rounds are edits of the recorded message
    edited = next(m for m in harness.emu.messages if m.id == public.id)
    assert shown(edited) != first
    assert "Manche" in shown(edited)
