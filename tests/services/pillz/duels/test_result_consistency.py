"""A finished duel's public message never contradicts itself: over many seeded duels (friend and
practice) with random legal moves, the player the result names is the one the fields show ahead (a K.O.
leaves the loser at 0 PV or less, points leave the winner with more PV, a draw with as many), and each
side's field names its player in its value, where Discord shows a mention as a name."""

from __future__ import annotations

import random
import re

import pytest

from engine.pillz.catalog import PillzCatalog
from services.infra.messages import render_text
from services.pillz.duel_match import DuelRow
from services.pillz.duels import PillzDuels
from services.pillz.render import duel as render

ALICE, BOB = 11, 12
GUILD, CHANNEL = 5, 6
DUELS = 24
LIFE = re.compile(r"^(-?\d+) PV · \d+ pillz$")


def shown(duel: DuelRow, catalog: PillzCatalog) -> tuple[str, list[str], list[int]]:
    """The description, who each field's value names first, and each field's PV, in French."""
    embed = render.public(duel, catalog).embeds[0]
    names, lives = [], []
    for field in embed.fields:
        title = render_text(field.name, "fr")
        assert "<@" not in title, "a field's name shows a mention as <@id>"
        found = LIFE.match(title)
        assert found is not None, title
        lives.append(int(found[1]))
        names.append(render_text(field.value, "fr").split("\n")[0])
    return render_text(embed.description, "fr"), names, lives


def check_consistent(text: str, names: list[str], lives: list[int], reason: str, winner: int | None) -> None:
    if winner is None:
        assert "**Match nul.**" in text
        assert lives[0] == lives[1], lives
        return
    loser = 1 - winner
    who = names[winner].strip("*")
    who = "l'IA" if who == "L'IA" else who  # a field opens with its name; within a sentence, lower case
    if reason == "pillz.outcome.ko":
        assert f"**Victoire par K.O. de {who}\u202f!**" in text
        assert lives[loser] <= 0 < lives[winner], lives
    else:
        assert f"**Victoire aux points de {who}\u202f!**" in text
        assert lives[winner] > lives[loser], lives


async def test_the_named_winner_is_the_side_the_fields_show_ahead(
    duels: PillzDuels, catalog: PillzCatalog
) -> None:
    rng = random.Random(17)
    reasons = set()
    for n in range(DUELS):
        if n % 2:
            duel = await duels.practice(GUILD, CHANNEL, ALICE, key=f"r{n}")
        else:
            made = await duels.challenge(GUILD, CHANNEL, ALICE, BOB, key=f"r{n}")
            duel = await duels.answer(made.id, BOB, True, guild=GUILD)
        while duel.status == "live":
            assert duel.state is not None
            seat = duel.to_act()[0]
            player = duel.seats[seat]
            assert player is not None
            cards = [f.card_id for f in duel.state.hands[seat] if not f.used]
            pillz = rng.randint(0, duel.state.pillz[seat])
            duel = await duels.play(duel.id, player, duel.version, rng.choice(cards), pillz, guild=GUILD)
        assert duel.result is not None
        text, names, lives = shown(duel, catalog)
        expected = [f"**<@{ALICE}>**", "**L'IA**" if duel.kind == "practice" else f"**<@{BOB}>**"]
        assert names == expected
        winner = duel.result["winner"]
        check_consistent(text, names, lives, str(duel.result["reason"]), winner)
        reasons.add(str(duel.result["reason"]))
    assert len(reasons) >= 2  # K.O. and points at least


def test_the_check_catches_a_winner_behind_on_pv() -> None:
    """Negative control: a K.O. « won » by the side the fields show at 0 PV fails the check."""
    text = f"**Victoire par K.O. de <@{ALICE}>\u202f!**"
    names = [f"**<@{ALICE}>**", f"**<@{BOB}>**"]
    with pytest.raises(AssertionError, match=r"\[0, 5\]"):
        check_consistent(text, names, [0, 5], "pillz.outcome.ko", 0)
    check_consistent(text, names, [5, 0], "pillz.outcome.ko", 0)
