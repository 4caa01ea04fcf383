"""The referee's thread posts and the private reply to a declaration, through the game service: the
rulebook's post layout (II: board, active effects, then "Commentaires complémentaires"), a turn's account
before its refused actions, one forfeit line before the reward, a fault's extra draw announced only when
granted (V.1) and the leaderboard's "cartes perdues au combat" (VI.4)."""

from __future__ import annotations

import random
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from discord_app.render import text
from engine.choco.catalog import ChocoCatalog
from engine.choco.penalties import inactivity_24h
from services.choco.game_store import load, save
from services.choco.games import ChocoGames
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import GUILD
from tests.services.choco.helpers import ALICE, BOB, started


@pytest.fixture
def games(db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry) -> ChocoGames:
    return ChocoGames(
        db,
        clock,
        catalog,
        random.Random(3),
        Scheduler(db, clock, ZoneInfo("Europe/Paris")),
        registry=registry,
    )


async def to_turn_one(games: ChocoGames, game_id: int) -> int:
    """Both players place their first hand card; returns the seat called to play turn 1."""
    for player in (ALICE, BOB):
        assert (await games.declare_text(game_id, player, "invoque M1 front")).status == "played"
    game = await games.get(game_id)
    assert game.state.turn == 1
    return game.state.active


async def last_post(db: Database) -> MessageSpec:
    def unit(conn: Connection) -> str:
        row = conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return str(row[0])

    return MessageSpec.from_json(await db.read(unit))


def shown(spec: MessageSpec, lang: str = "fr") -> list[list[str]]:
    """Each embed's title and description lines, in order."""
    out = []
    for embed in spec.embeds:
        head = [text(embed.title, lang)] if embed.title is not None else []
        body = text(embed.description, lang).splitlines() if embed.description is not None else []
        out.append(head + body)
    return out


async def test_the_comments_come_after_the_effects_with_their_heading(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    await to_turn_one(games, game_id)
    embeds = shown(await last_post(db))
    assert len(embeds) == 3
    assert "Effets actifs" in embeds[1]
    assert embeds[2][0] == "Commentaires complémentaires"
    comments = "\n".join(embeds[2])
    assert comments.index("❝") < comments.index("à vous de jouer (tour 1)")
    assert shown(await last_post(db), "en")[2][0] == "Further comments"


async def test_the_account_comes_before_refused_actions_and_the_reply_keeps_them_apart(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    seat = await to_turn_one(games, game_id)
    player = (ALICE, BOB)[seat]
    # A summon to the reserve, then a move of the only front wizard (refused: the front is never empty).
    declared = await games.declare_text(game_id, player, "invoque M1 réserve ; déplace F1 réserve")
    assert declared.status == "played"
    played = [text(s, "fr") for s in declared.steps]
    ignored = [text(s, "fr") for s in declared.ignored]
    assert len(played) == 1
    assert len(ignored) == 1
    assert not any(p in i for p in played for i in ignored)
    comments = shown(await last_post(db))[2]
    refused_at = next(i for i, line in enumerate(comments) if line.startswith("Action ignorée"))
    account_at = next(i for i, line in enumerate(comments) if line.startswith("❝"))
    assert account_at < refused_at


async def test_a_forfeit_is_said_once_then_the_reward(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    await to_turn_one(games, game_id)
    await games.forfeit(game_id, BOB, GUILD)
    spec = await last_post(db)
    comments = "\n".join(shown(spec)[2])
    assert comments.count("forfait") == 1, comments
    assert comments.index("forfait") < comments.index("remporte une carte"), comments


async def test_a_fault_announces_the_extra_draw_only_when_it_is_granted(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    prep = await games.declare_text(game_id, ALICE, "invoque M9 front")  # no 9th card: a card not held
    assert prep.status == "refused"  # the preparatory turn grants no extra draw
    assert (await games.get(game_id)).state.bonus_draws == (0, 0)
    await games.declare_text(game_id, ALICE, "invoque M1 front")
    await games.declare_text(game_id, BOB, "invoque M1 front")
    game = await games.get(game_id)
    player = game.player(game.state.active)
    first = await games.declare_text(game_id, player, "invoque M9 front")
    assert first.status == "fault"
    assert sum((await games.get(game_id)).state.bonus_draws) == 1
    second = await games.declare_text(game_id, player, "invoque M9 front")
    assert second.status == "refused"  # once per turn: no second extra draw, so none is announced
    assert sum((await games.get(game_id)).state.bonus_draws) == 1


async def test_cards_destroyed_by_the_inactivity_penalty_are_not_lost_in_combat(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    seat = await to_turn_one(games, game_id)
    loser = (ALICE, BOB)[seat]

    def penalise(conn: Connection) -> None:
        game = load(conn, game_id)
        state, _ = inactivity_24h(game.state, seat)
        save(conn, game, clock.now(), state=state)

    await db.write(penalise)
    game = await games.get(game_id)
    assert sum(not c.pure for c in game.state.sides[seat].graveyard) == 1
    await games.forfeit(game_id, loser, GUILD)

    def lost(conn: Connection) -> int:
        row = conn.execute(
            "SELECT SUM(cards_lost) FROM choco_results WHERE player_id = ?", (loser,)
        ).fetchone()
        return int(row[0])

    assert await db.read(lost) == 0
