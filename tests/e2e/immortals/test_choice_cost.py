"""What an Immortal's War choice costs (issue 39): the controls are read once per version of the duel —
opening them, then picking a unit and a spell in them, read once — and a save of the duel (a choice, a
timeout) forgets what was kept, so a seat that has chosen is refused again and never shown its old
controls. The controls' lines and labels are rendered once per choice: only the selection changes, in
rows written as Discord's payload without discord.py's items."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

import cogs.immortals.duel as duel_cog
from emulator.world import User
from sandbox.harness import BotHarness
from services.immortals.names import spell_name
from services.immortals.render import duel as render
from tests.e2e.immortals.test_duel import duel_message, friend_duel, immortals
from tests.e2e.messages import items_built, renders_of, shown


async def choose(harness: BotHarness, duel_id: int, players: tuple[User, User]) -> tuple[User, User]:
    """The first unit of the seat to act (the engaging seat, then the counter) chosen through its controls
    (« Jouer », the unit, « Valider »), its public edit delivered: (the player who chose, the other)."""
    alice, bob = players
    duel = await immortals(harness).duels.get(duel_id)
    assert duel.state is not None
    first, second = (alice, bob) if duel.seats[duel.to_act()[0]] == alice.id else (bob, alice)
    controls = await harness.emu.click(first, "Jouer", message=duel_message(harness, duel_id))
    assert controls.message is not None
    custom_id = f"immortals:unit:{duel_id}:{duel.state.round}:-"
    unit = await harness.emu.select(first, values=["0"], custom_id=custom_id, message=controls.message)
    assert unit.message is not None
    done = await harness.emu.click(first, "Valider", message=unit.message)
    assert done.message is not None
    await harness.settle()
    return first, second


async def test_a_choice_reads_its_controls_once_and_a_save_forgets_them(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    statuses = renders_of(monkeypatch, "immortals.controls.status")
    alice, bob, duel_id = await friend_duel(harness)
    items = items_built(monkeypatch)
    assert harness.bot is not None
    db = harness.bot.services.db
    duel = await immortals(harness).duels.get(duel_id)
    assert duel.state is not None
    engager = duel.state.engager
    first, second = (alice, bob) if duel.seats[engager] == alice.id else (bob, alice)
    round_ = duel.state.round
    reads = db.reads
    controls = await harness.emu.click(first, "Jouer", message=duel_message(harness, duel_id))
    assert controls.message is not None
    unit = await harness.emu.select(
        first, values=["0"], custom_id=f"immortals:unit:{duel_id}:{round_}:-", message=controls.message
    )
    assert unit.message is not None
    spell = await harness.emu.select(
        first, values=["0"], custom_id=f"immortals:spell:{duel_id}:{round_}:0", message=unit.message
    )
    assert spell.message is not None
    assert db.reads - reads == 1  # opened, then a unit and a spell picked: one read
    assert len(statuses) == 1  # and its lines rendered once for the three replies
    assert "Choix\u00a0:" in shown(spell.message)
    assert " avec " in shown(spell.message)  # the last line follows the selection
    done = await harness.emu.click(first, "Valider", message=spell.message)
    assert done.message is not None
    assert items == []  # the replies' selects and button written as rows, no discord.py item built
    await harness.settle()
    again = await harness.emu.click(first, "Jouer", message=duel_message(harness, duel_id))
    assert again.message is not None
    assert "déjà fait" in shown(again.message)  # read again after the save: refused, not kept
    counter = await harness.emu.click(second, "Jouer", message=duel_message(harness, duel_id))
    assert counter.message is not None
    assert "À vous de contrer" in shown(counter.message)


async def test_a_choice_keeps_the_controls_of_the_seat_it_hands_the_turn_to(harness: BotHarness) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    assert harness.bot is not None
    db = harness.bot.services.db
    duels = immortals(harness).duels
    _, second = await choose(harness, duel_id, (alice, bob))
    reads = db.reads
    counter = await harness.emu.click(second, "Jouer", message=duel_message(harness, duel_id))
    assert counter.message is not None
    assert "À vous de contrer" in shown(counter.message)
    assert db.reads == reads  # kept by the attack's own transaction
    kept = duels.choices.get(duel_id)
    assert kept is not None
    ((key, choice),) = kept.items()
    assert key[0] == second.id
    duels.choices.clear()
    assert await duels.controls(duel_id, second.id, guild=key[1]) == choice  # as a read finds them


async def test_the_line_ups_lines_are_rendered_once_a_duel_not_at_each_choice(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duel_cog, "KEPT_LINES", OrderedDict(), raising=False)  # none of another test's
    alice, bob, duel_id = await friend_duel(harness)
    duel = await immortals(harness).duels.get(duel_id)
    assert duel.state is not None
    _, second = await choose(harness, duel_id, (alice, bob))
    labels: list[str] = []
    original = render.unit_label

    def counted(catalog: Any, unit: Any, terrain: str, others: Any = ()) -> Any:
        labels.append(unit.uid)
        return original(catalog, unit, terrain, others)

    monkeypatch.setattr(render, "unit_label", counted)
    counter = await harness.emu.click(second, "Jouer", message=duel_message(harness, duel_id))
    assert counter.message is not None
    assert "À vous de contrer" in shown(counter.message)
    # the attack's unit (its line says whom the seat counters), then the counter's own four units in its
    # select: the eight units of the two line-ups, shown in the first seat's controls, are not rendered again
    assert len(labels) == 5
    first_units = {u.uid for u in duel.state.units[duel.state.engager]}
    assert labels[0] in first_units
    assert not set(labels[1:]) & first_units


async def test_a_seats_spells_are_labelled_once_a_duel(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duel_cog, "KEPT_LINES", OrderedDict(), raising=False)  # none of another test's
    alice, bob, duel_id = await friend_duel(harness)
    first, _ = await choose(harness, duel_id, (alice, bob))
    await choose(harness, duel_id, (alice, bob))  # the counter, through its own controls
    duel = await immortals(harness).duels.get(duel_id)
    assert duel.state is not None
    assert (duel.state.round, duel.seats[duel.state.engager]) == (2, first.id)
    named: list[str] = []

    def counted(catalog: Any, spell_id: str) -> Any:
        named.append(spell_id)
        return spell_name(catalog, spell_id)

    monkeypatch.setattr("cogs.immortals.duel.spell_name", counted)
    controls = await harness.emu.click(first, "Jouer", message=duel_message(harness, duel_id))
    assert controls.message is not None
    assert len(controls.message.select_options) > 4  # the units left, then « no spell » and the spells
    assert named == []  # the spells' labels, written at the first round's controls


async def test_a_choice_keeps_nothing_when_another_duel_was_saved_meanwhile(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    duels = immortals(harness).duels
    duel = await duels.get(duel_id)
    assert duel.state is not None
    first = alice if duel.seats[duel.state.engager] == alice.id else bob
    original = duels._next_choices

    def with_another_save(conn: Any, saved: Any) -> Any:
        duels.choices.forget(duel_id + 1000)  # another duel's save, heard before this one's
        return original(conn, saved)

    monkeypatch.setattr(duels, "_next_choices", with_another_save)
    await duels.choose(duel_id, first.id, duel.state.round, 0, None, guild=duel.server)
    assert duels.choices.get(duel_id) is None  # whose controls are read again, as before
