"""A duel answers only in the server where it is played and only to its players: a click naming another
server's duel (buttons carry only the duel id) reads like an unknown id, a late answer to a challenge is
refused, and none of them changes the duel."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import DomainError
from services.pillz.duels import PillzDuels
from store.connection import Connection
from store.db import Database

ALICE, BOB, CAROL = 11, 12, 13
GUILD, OTHER, CHANNEL = 5, 7, 6


async def duel_rows(db: Database) -> list[tuple[Any, ...]]:
    def unit(conn: Connection) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in conn.execute("SELECT * FROM matches ORDER BY id")]

    return await db.read(unit)


async def refused(db: Database, call: Any, key: str) -> None:
    before = await duel_rows(db)
    with pytest.raises(DomainError) as caught:
        await call
    assert caught.value.key == key
    assert await duel_rows(db) == before


async def test_a_challenge_is_answered_only_in_its_server_by_its_players_once(
    db: Database, duels: PillzDuels
) -> None:
    made = await duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c")
    await refused(db, duels.answer(made.id, BOB, True, guild=OTHER), "pillz.error.no_duel")
    await refused(db, duels.answer(made.id, CAROL, True, guild=GUILD), "pillz.error.not_your_challenge")
    await refused(db, duels.answer(made.id, ALICE, True, guild=GUILD), "pillz.error.own_challenge")
    duel = await duels.answer(made.id, BOB, True, guild=GUILD)
    assert duel.status == "live"
    for player, accept in ((BOB, True), (BOB, False), (ALICE, False)):
        await refused(db, duels.answer(made.id, player, accept, guild=GUILD), "pillz.error.answered")


async def test_the_controls_and_the_moves_answer_only_in_the_duel_s_server(
    db: Database, duels: PillzDuels
) -> None:
    made = await duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c")
    duel = await duels.answer(made.id, BOB, True, guild=GUILD)
    assert duel.state is not None
    seat = duel.to_act()[0]
    player = duel.seats[seat]
    assert player is not None
    card = next(f.card_id for f in duel.state.hands[seat] if not f.used)
    await refused(db, duels.controls(duel.id, player, guild=OTHER), "pillz.error.no_duel")
    await refused(db, duels.play(duel.id, player, duel.version, card, 1, guild=OTHER), "pillz.error.no_duel")
    await refused(db, duels.controls(duel.id, CAROL, guild=GUILD), "pillz.error.not_player")
    await refused(
        db, duels.play(duel.id, CAROL, duel.version, card, 1, guild=GUILD), "pillz.error.not_player"
    )
    assert (await duels.controls(duel.id, player, guild=GUILD)).version == duel.version
