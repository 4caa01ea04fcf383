"""Leagues: entry conditions with every reason, results and the leaderboard order, badges and /profile,
the win's reward card, character names, and each server's settings."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from functools import partial

import pytest

from core.clock import ManualClock
from core.errors import BadInput
from engine.choco.catalog import ChocoCatalog
from services.choco.leagues import (
    ChocoSettings,
    LeagueService,
    badges,
    guild_choco_settings,
    leagues_open,
    profile_summary,
    record_result,
    reward_card,
)
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import GUILD, age, give, of_rarity

Conservation = Callable[[Connection], None]


def _keys(problems: list) -> list[str]:
    return [p.key for p in problems]


async def _open(db: Database, clock: ManualClock, player: int, guild: int = GUILD) -> dict[str, list[str]]:
    result = await db.read(lambda conn: leagues_open(conn, player, guild, clock.now()))
    return {league: _keys(problems) for league, problems in result.items()}


async def _results(db: Database, *rows: tuple[int, int, str, str, bool, int]) -> None:
    def unit(conn: Connection) -> None:
        for guild, player, league, outcome, absence, lost in rows:
            record_result(conn, guild, player, league, outcome, absence_forfeit=absence, cards_lost=lost)

    await db.write(unit)


async def test_a_newcomer_is_told_every_reason(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await db.write(lambda conn: ensure_player(conn, 1, clock.now(), registry))
    assert await _open(db, clock, 1) == {
        "bronze": [
            "choco.league.problem.bronze_copies",
            "choco.league.problem.bronze_distinct",
            "choco.league.problem.member_days",
        ],
        "argent": ["choco.league.problem.win_needed", "choco.league.problem.argent_card"],
        "or": ["choco.league.problem.win_needed", "choco.league.problem.or_card"],
    }


async def test_bronze_needs_24_copies_12_different_and_30_days(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, leagues: LeagueService, registry: GameRegistry
) -> None:
    bronze = of_rarity(catalog, "bronze_1", "bronze_2")
    await give(
        db, clock, 1, {c.id: 2 for c in bronze[:11]} | {bronze[11].id: 1}, registry=registry
    )  # 23 copies, 12 different
    await age(db, 1, clock, 29)
    assert (await _open(db, clock, 1))["bronze"] == [
        "choco.league.problem.bronze_copies",
        "choco.league.problem.member_days",
    ]
    await give(db, clock, 1, {bronze[11].id: 1}, registry=registry)
    await age(db, 1, clock, 30)
    assert (await _open(db, clock, 1))["bronze"] == []
    await leagues.update_settings(GUILD, min_member_days=60)
    assert (await _open(db, clock, 1))["bronze"] == ["choco.league.problem.member_days"]
    assert (await _open(db, clock, 1, guild=GUILD + 1))["bronze"] == []  # another server: default 30


async def test_membership_counts_from_joining_the_server_not_from_the_first_command(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, leagues: LeagueService, registry: GameRegistry
) -> None:
    bronze = of_rarity(catalog, "bronze_1", "bronze_2")
    await give(
        db, clock, 1, {c.id: 2 for c in bronze[:12]}, registry=registry
    )  # new to the bot: created just now
    veteran = clock.now() - timedelta(days=400)
    assert (await leagues.open_leagues(1, GUILD, veteran))["bronze"] == []

    newcomer = clock.now() - timedelta(days=10)
    (problem,) = (await leagues.open_leagues(1, GUILD, newcomer))["bronze"]
    opens = int((newcomer + timedelta(days=30)).timestamp())
    assert problem.key == "choco.league.problem.member_days"
    assert problem.params == {"needed": 30, "opens": f"<t:{opens}:R>", "date": f"<t:{opens}:f>"}

    await leagues.update_settings(GUILD, min_member_days=7)  # a server that lowered the requirement
    assert (await leagues.open_leagues(1, GUILD, newcomer))["bronze"] == []
    assert (await leagues.open_leagues(1, GUILD + 1, newcomer))["bronze"] != []  # elsewhere: 30 days
    await leagues.update_settings(GUILD, min_member_days=0)
    assert (await leagues.open_leagues(1, GUILD, clock.now()))["bronze"] == []


async def test_argent_and_or_need_a_win_below_and_a_card_of_their_colour(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry
) -> None:
    await give(
        db,
        clock,
        1,
        {of_rarity(catalog, "argent_2")[0].id: 1, of_rarity(catalog, "or_1")[0].id: 1},
        registry=registry,
    )
    await _results(db, (GUILD + 7, 1, "bronze", "win", False, 0))  # a win on ANOTHER server counts
    opened = await _open(db, clock, 1)
    assert opened["argent"] == []
    assert opened["or"] == ["choco.league.problem.win_needed"]
    assert opened["bronze"] == []  # played once: stays open
    await _results(db, (GUILD, 1, "argent", "win", False, 0))
    assert (await _open(db, clock, 1))["or"] == []


async def test_results_accumulate_and_the_leaderboard_orders_them(
    db: Database, clock: ManualClock, leagues: LeagueService
) -> None:
    for player in (1, 2, 3, 4):
        await db.write(partial(ensure_player, player_id=player, now=clock.now(), registry=leagues.registry))
    await _results(
        db,
        (GUILD, 1, "bronze", "win", False, 3),
        (GUILD, 1, "bronze", "win", False, 1),
        (GUILD, 1, "bronze", "loss", True, 5),  # an absence forfeit: 2 - 1 = 1 point
        (GUILD, 2, "bronze", "win", False, 2),
        (GUILD, 2, "argent", "loss", False, 4),  # a voluntary forfeit or plain loss: no penalty
        (GUILD, 3, "bronze", "win", False, 0),
        (GUILD, 4, "bronze", "draw", False, 0),
        (GUILD + 1, 4, "or", "win", False, 0),  # another server: not on this board
    )
    row = await db.read(
        lambda conn: conn.execute(
            "SELECT wins, losses, draws, absence_forfeits, cards_lost FROM choco_results"
            " WHERE guild_id = ? AND player_id = 1",
            (GUILD,),
        ).fetchone()
    )
    assert tuple(row) == (2, 1, 0, 1, 9)
    await leagues.set_character(GUILD, 2, "  Hermione  ")
    await leagues.set_character(GUILD, 4, "Neville")
    board = await leagues.leaderboard(GUILD)
    # score 1 each for players 3 (0 lost), 1 (9 lost)... player 2: 1 win, 6 lost
    assert [(s.player_id, s.score, s.cards_lost) for s in board.hrp] == [
        (3, 1, 0),
        (2, 1, 6),
        (1, 1, 9),
        (4, 0, 0),
    ]
    assert [s.rank for s in board.hrp] == [1, 2, 3, 4]
    assert [(s.rank, s.character) for s in board.inrp] == [(1, "Hermione"), (2, "Neville")]
    assert (board.players, board.characters) == (4, 2)
    assert (await leagues.leaderboard(GUILD, limit=2)).hrp[-1].player_id == 2


async def test_bad_results_are_refused(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    await db.write(lambda conn: ensure_player(conn, 1, clock.now(), registry))
    with pytest.raises(ValueError, match="unknown outcome"):
        await _results(db, (GUILD, 1, "bronze", "victory", False, 0))
    with pytest.raises(BadInput):
        await _results(db, (GUILD, 1, "platine", "win", False, 0))


async def test_badges_and_profile_sum_every_server(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await db.write(lambda conn: ensure_player(conn, 1, clock.now(), registry))
    assert await db.read(lambda conn: profile_summary(conn, 1)) == []
    await _results(db, *[(GUILD + i % 2, 1, "bronze", "win", False, 0) for i in range(5)])
    await _results(
        db, *[(GUILD, 1, league, "win", False, 0) for league in ("argent", "or") for _ in range(2)]
    )
    assert await db.read(lambda conn: badges(conn, 1)) == [
        "choco.badge.master",
        "choco.badge.champion_bronze",
    ]
    lines = await db.read(lambda conn: profile_summary(conn, 1))
    assert lines[0].key == "choco.profile.wins"
    assert lines[0].params == {"bronze": 5, "argent": 2, "or": 2}
    assert [line.params["badge"].key for line in lines[1:]] == [  # type: ignore[attr-defined]
        "choco.badge.master",
        "choco.badge.champion_bronze",
    ]


async def test_reward_is_a_card_of_the_league_colour_through_the_ledger(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    conservation: Conservation,
    registry: GameRegistry,
) -> None:
    await db.write(lambda conn: ensure_player(conn, 1, clock.now(), registry))
    rng = random.Random(5)
    colours = {"bronze": ("bronze_1", "bronze_2"), "argent": ("argent_1", "argent_2"), "or": ("or_1", "or_2")}
    rarity = {c.id: c.rarity for c in catalog.cards}
    for league, allowed in colours.items():
        for _ in range(30):
            copy_id, card = await db.write(
                partial(
                    reward_card,
                    now=clock.now(),
                    player_id=1,
                    league=league,
                    rng=rng,
                    ref="game-1",
                    catalog=catalog,
                )
            )
            assert rarity[card] in allowed
    copy_id, card = await db.write(lambda conn: reward_card(conn, clock.now(), 1, "or", rng, "game-2"))
    row = await db.read(
        lambda conn: conn.execute(
            "SELECT c.card_key, c.owner_id, l.reason, l.ref FROM cards c JOIN ledger l ON l.card_id = c.id"
            " WHERE c.id = ?",
            (copy_id,),
        ).fetchone()
    )
    assert tuple(row) == (card, 1, "choco.reward", "game-2")
    await db.read(conservation)


async def test_character_names_are_checked_set_and_cleared(
    db: Database, clock: ManualClock, leagues: LeagueService
) -> None:
    assert await leagues.set_character(GUILD, 1, "  Luna Lovegood ") == "Luna Lovegood"
    assert await leagues.character(GUILD, 1) == "Luna Lovegood"
    assert await leagues.character(GUILD + 1, 1) is None
    for bad, key in (
        ("@everyone", "choco.error.character.forbidden"),
        ("<@123>", "choco.error.character.forbidden"),
        ("two\nlines", "choco.error.character.forbidden"),
        ("   ", "choco.error.character.length"),
        ("x" * 65, "choco.error.character.length"),
    ):
        with pytest.raises(BadInput) as caught:
            await leagues.set_character(GUILD, 1, bad)
        assert caught.value.key == key
    assert await leagues.set_character(GUILD, 1, "x" * 64) == "x" * 64
    assert await leagues.set_character(GUILD, 1, None) is None
    assert await leagues.character(GUILD, 1) is None


async def test_settings_default_update_and_validation(db: Database, leagues: LeagueService) -> None:
    assert await db.read(lambda conn: guild_choco_settings(conn, GUILD)) == ChocoSettings(
        None, 30, (12, 1), 168, False
    )
    new = await leagues.update_settings(
        GUILD, min_member_days=0, reminder_hours=[1, 24, 1], forgive_downtime=True
    )
    assert new == ChocoSettings(None, 0, (24, 1), 168, True)
    assert await leagues.settings(GUILD) == new
    assert (await leagues.update_settings(GUILD, referee_role_id=42)).min_member_days == 0  # others kept
    for bad in (
        {"min_member_days": 366},
        {"absence_cap_hours": -1},
        {"forgive_downtime": 1},
        {"reminder_hours": [0]},
        {"reminder_hours": [1, 2, 3, 4, 5]},
        {"referee_role_id": "x"},
        {"colour": "red"},
    ):
        with pytest.raises(BadInput):
            await leagues.update_settings(GUILD, **bad)
    assert (await leagues.settings(GUILD)).referee_role_id == 42
