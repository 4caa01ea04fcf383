"""A finished battle's message never contradicts itself: over many seeded battles skipped to the end, the
side the result names as the winner is the one the final board shows standing (the loser has no creature
left after an elimination; after 60 rounds the winner has more creatures, or as many and more PV), the
reason names the loser or the winner, and no public line says « Vous » or a bare « IA »."""

from __future__ import annotations

import re

import pytest

from core.clock import ManualClock
from services.hoss.battle.ranked import RankedService
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from store.db import Database
from tests.services.hoss.ranked import player_with_deck, service

BATTLES = 24
AI = "IA (Rang 1)"
PV = re.compile(r"[▰▱]+ ([\d\u202f]+)/")


def board_of(spec: MessageSpec) -> tuple[str, list[int], list[int]]:
    """The description, and per side the creatures shown and their PV, as a reader sees them (French)."""
    embed = spec.embeds[0]
    counts, pvs = [], []
    for field in embed.fields:
        lines = [line for line in render_text(field.value, "fr").split("\n") if PV.search(line)]
        counts.append(len(lines))
        pvs.append(sum(int(match[1].replace("\u202f", "")) for line in lines if (match := PV.search(line))))
    return render_text(embed.description, "fr"), counts, pvs


def check_consistent(
    status: str, reason: str, text: str, counts: list[int], pvs: list[int], player: int
) -> None:
    me = f"<@{player}>"
    winner, loser = (0, 1) if status == "won" else (1, 0)
    names = (me, AI)
    if status == "draw":
        assert f"Match nul entre {me} et {AI}" in text
        assert counts[0] == counts[1]
        assert pvs[0] == pvs[1]
        return
    title = f"Victoire de {me} contre {AI}\u202f!" if status == "won" else f"Défaite de {me} contre {AI}."
    assert title in text
    if reason == "hoss.outcome.elimination":
        assert counts[winner] > 0, (status, counts)
        assert counts[loser] == 0, (status, counts)
        assert f"{names[loser]} n'a plus aucune créature en jeu" in text
    elif reason == "hoss.outcome.points_creatures":
        assert counts[winner] > counts[loser]
        assert f"{names[winner]} a le plus de créatures en vie" in text
    else:
        assert reason == "hoss.outcome.points_pv"
        assert counts[winner] == counts[loser]
        assert pvs[winner] > pvs[loser]
    assert "Vous" not in text
    assert "• IA\u00a0:" not in text


async def play_out(
    db: Database, clock: ManualClock, ranked: RankedService, player: int, registry: GameRegistry
) -> tuple[str, str, MessageSpec]:
    await player_with_deck(db, clock, player, registry=registry)
    battle = (await ranked.start(player, 1, key=f"s{player}")).battle_id
    result = await ranked.skip_to_end(player, battle)
    screen = await ranked.screen(player, battle)
    return result.status, result.reason, screen.message.spec


async def test_the_stated_winner_is_the_side_the_final_board_shows_standing(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, seed=77, registry=registry)
    statuses = set()
    for player in range(1, BATTLES + 1):
        status, reason, spec = await play_out(db, clock, ranked, player, registry=registry)
        text, counts, pvs = board_of(spec)
        check_consistent(status, reason, text, counts, pvs, player)
        statuses.add(status)
        assert [a.filename.rsplit(".", 1)[1] for a in spec.attachments] == ["txt", "json"]
        story = spec.attachments[0].body("fr")
        verdict = "Vainqueur\u00a0: Joueur." if status == "won" else f"Vainqueur\u00a0: {AI}."
        assert verdict in story or status == "draw"
    assert {"won", "lost"} <= statuses  # both outcomes were checked


def test_the_check_catches_a_victory_over_a_standing_opponent() -> None:
    """Negative control: a « Victoire » whose board leaves the winner without creatures fails the check."""
    text = f"**Victoire de <@1> contre {AI}\u202f!**\n{AI} n'a plus aucune créature en jeu ni carte à jouer."
    with pytest.raises(AssertionError, match=r"'won', \[0, 2\]"):
        check_consistent("won", "hoss.outcome.elimination", text, [0, 2], [0, 50], 1)
    check_consistent("won", "hoss.outcome.elimination", text, [2, 0], [50, 0], 1)  # the same text, consistent
