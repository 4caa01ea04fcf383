"""What a Pillz move costs (issue 39): the controls' choice is read once per version of the duel, and the
characters' selects and the lines above them are rendered once per version, seat and language, written
as Discord's rows without discord.py's items; a save of the duel forgets both."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.pillz.duel as duel_cog
from sandbox.harness import BotHarness
from services.pillz.duel_match import Choice
from tests.e2e.messages import items_built, renders_of, shown
from tests.e2e.pillz.helpers import bet_select, duel_message, first_unused, friend_duel, pillz
from tests.support.reads import reads_named


async def test_choosing_in_the_controls_reads_nothing_and_renders_the_selects_once(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[int] = []
    original = duel_cog._bet_selects

    def counted(choice: Choice, catalog: Any, locale: str) -> Any:
        rendered.append(choice.version)
        return original(choice, catalog, locale)

    monkeypatch.setattr(duel_cog, "_bet_selects", counted)
    statuses = renders_of(monkeypatch, "pillz.controls.status")
    alice, bob, duel_id = await friend_duel(harness)
    items = items_built(monkeypatch)
    assert harness.bot is not None
    db = harness.bot.services.db
    duel = await pillz(harness).duels.get(duel_id)
    seat = duel.to_act()[0]
    user = alice if duel.seats[seat] == alice.id else bob
    place = await first_unused(harness, duel_id, seat)
    reads = db.reads
    controls = await harness.emu.click(user, "Jouer", message=duel_message(harness, duel_id))
    assert controls.message is not None
    assert db.reads - reads == 1  # the choice, read once
    for bet in (2, 0, 1):
        picked = await harness.emu.select(
            user, values=[str(bet)], custom_id=bet_select(controls.message, place), message=controls.message
        )
        assert picked.message is not None
        assert f"Jouer ({bet} pillz)" in [b.replace("\u00a0", " ") for b in picked.message.button_labels]
    assert db.reads - reads == 1  # choosing three times read nothing more
    assert rendered == [duel.version]  # the selects, rendered once for the three replies
    assert len(statuses) == 1  # and the lines above them, once for the four
    played = await harness.emu.click(user, "Jouer (1 pillz)", message=picked.message)
    assert played.message is not None
    assert "Joué\u00a0:" in shown(played.message)
    assert items == []  # the five replies' selects and buttons written as rows, no discord.py item built
    await harness.settle()
    # the move saved the duel and kept, from its own transaction, the controls of the seat it leaves to act
    reads = db.reads
    now = await pillz(harness).duels.get(duel_id)
    other = alice if now.seats[now.to_act()[0]] == alice.id else bob
    again = await harness.emu.click(other, "Jouer", message=duel_message(harness, duel_id))
    assert again.message is not None
    assert again.message.ephemeral
    assert db.reads - reads == 1  # `get` above only
    await same_as_read(harness, duel_id, other.id)


async def same_as_read(harness: BotHarness, duel_id: int, player: int) -> None:
    """The controls a move kept for `player` are those a read finds."""
    duels = pillz(harness).duels
    kept = duels.choices.get(duel_id)
    assert kept is not None
    ((key, choice),) = [(k, c) for k, c in kept.items() if k[0] == player]
    duels.choices.clear()
    assert await duels.controls(duel_id, player, guild=key[1]) == choice


def controls_reads(harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reads of a seat's controls (`SecretDuels.controls`), by the read unit's name."""
    return reads_named(harness, monkeypatch, "SecretDuels.controls.")


async def test_a_move_that_leaves_its_seat_to_act_shows_the_next_move_without_a_read(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    loads = controls_reads(harness, monkeypatch)
    for _ in range(2):  # the lead, then the answer that leads the next round
        duel = await pillz(harness).duels.get(duel_id)
        seat = duel.to_act()[0]
        user = alice if duel.seats[seat] == alice.id else bob
        place = await first_unused(harness, duel_id, seat)
        controls = await harness.emu.click(user, "Jouer", message=duel_message(harness, duel_id))
        assert controls.message is not None
        picked = await harness.emu.select(
            user, values=["0"], custom_id=bet_select(controls.message, place), message=controls.message
        )
        assert picked.message is not None
        assert len(loads) == 1  # the first « Jouer » only: the second seat's were kept by the lead
        played = await harness.emu.click(user, "Jouer (0 pillz)", message=picked.message)
        assert played.message is not None
        await harness.settle()
    # the answer's seat leads the next round: its controls came back with « Joué », kept by the move
    answer = played.message
    assert answer is not None
    assert "Joué\u00a0:" in shown(answer)
    assert answer.select_options
    assert len(loads) == 1
    await same_as_read(harness, duel_id, user.id)
