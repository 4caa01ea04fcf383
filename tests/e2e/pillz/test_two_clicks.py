"""A Pillz move in two clicks (issue 35): in the private controls, the amount of pillz in the select of the
character to play — every amount from 0 to those left, each with its attack and its chance to win the
round — then « Jouer ». After a move that leaves the player to play again (an answer, then the lead of the
next round), the same controls show that move: a practice duel is played from one opening of the controls."""

from __future__ import annotations

import re

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.pillz.duel_match import DuelRow
from tests.e2e.messages import shown
from tests.e2e.pillz.helpers import bet_select, duel_message, pillz

ROUNDS = 4


async def practice_controls(h: BotHarness, user: User) -> tuple[DuelRow, RecordedMessage]:
    """A practice duel started by `user`, and their controls opened once from its message."""
    await h.emu.run_command(user, "pillz entraînement")
    await h.settle()
    (duel,) = await pillz(h).duels.live(user.id)
    controls = (await h.emu.click(user, "Jouer", message=duel_message(h, duel.id))).message
    assert controls is not None
    return duel, controls


async def test_a_whole_practice_duel_takes_two_clicks_a_round(harness: BotHarness) -> None:
    alice = harness.user("alice")
    duel, controls = await practice_controls(harness, alice)
    clicks = 1
    for _ in range(ROUNDS):
        now = await pillz(harness).duels.get(duel.id)
        if now.status != "live":
            break
        assert now.state is not None
        seat = now.seat_of(alice.id)
        place = next(i for i, f in enumerate(now.state.hands[seat]) if not f.used)
        left = now.state.pillz[seat]
        seen = [o.replace("\u00a0", " ").replace("\u202f", " ") for o in controls.select_options]
        menu = [o for o in seen if re.search(r" : \d+ pillz → ATQ \d+ — \d+ % de chances$", o)]
        assert len(menu) == sum(not f.used for f in now.state.hands[seat]) * (left + 1)
        bet = min(3, left)
        picked = await harness.emu.select(
            alice, values=[str(bet)], custom_id=bet_select(controls, place), message=controls
        )
        assert picked.message is not None
        played = await harness.emu.click(alice, f"Jouer ({bet} pillz)", message=picked.message)
        clicks += 2
        assert played.message is not None
        controls = played.message
        assert "Joué\u00a0:" in shown(controls)
        await harness.settle()
    final = await pillz(harness).duels.get(duel.id)
    assert final.status == "over"
    assert clicks == 1 + 2 * ROUNDS
    assert controls.select_options == []  # over: nothing left to choose


async def test_the_chance_beside_an_amount_is_the_rounds_against_the_revealed_character(
    harness: BotHarness,
) -> None:
    """Answering: the chances are counted against the character the leader revealed; more pillz, more
    chance; no pillz against an opponent who may have bet some is the lowest."""
    alice = harness.user("alice")
    duel, controls = await practice_controls(harness, alice)
    text = shown(controls).replace("\u00a0", " ").replace("\u202f", " ")
    now = await pillz(harness).duels.get(duel.id)
    assert now.state is not None
    if now.state.pending is not None:
        assert "Vous répondez à" in text
        assert "l'adversaire pouvant avoir misé de 0 à 12 pillz" in text
    else:
        assert "l'adversaire pouvant répondre avec chacun de ses personnages restants" in text
    first = bet_select(controls, 0)
    row = next(c for r in controls.components for c in r.get("components", []) if c.get("custom_id") == first)
    percents = [int(re.findall(r"(\d+)\s?%", o["label"])[-1]) for o in row["options"]]
    assert len(percents) == 13
    assert percents == sorted(percents)
    assert percents[0] < percents[-1]
