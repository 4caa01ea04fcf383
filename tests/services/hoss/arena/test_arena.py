"""The Arena's seasons against a real SQLite file: registration (Rang 5, two complete decks, no shared
copy, one server a week), locks, the hourly ranking, the Sunday-midnight close paid once, DST."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from core.clock import to_db
from core.errors import DomainError
from engine import fair_draw
from engine.hoss import ArenaResult
from services.hoss.arena.seasons import (
    CLOSE_JOB,
    ArenaLocked,
    ArenaService,
    AttackSettled,
    NoOpponent,
    NotRanked,
    RegisteredElsewhere,
)
from services.hoss.render.arena import standings_spec
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.messages import render_text
from services.shared.collecting import DeckInvalid
from store.connection import Connection
from tests.services.conftest import check_conservation
from tests.services.hoss.arena import (
    BUFFS_A,
    BUFFS_B,
    DECK_A,
    DECK_B,
    GUILD,
    MONDAY,
    OTHER,
    PARIS,
    World,
    balance,
    locks,
    ranked_season,
    veteran,
    with_decks,
)


async def test_registration_locks_both_decks_and_is_saved_again_by_the_same_call(
    world: World, registry: GameRegistry
) -> None:
    await veteran(world.db, world.clock, world.catalog, 1, registry=registry)
    await with_decks(world.decks, 1)
    first = await world.arena.register(GUILD, 1, 1, 2)
    assert first.fresh
    assert first.season == MONDAY
    assert first.closes_at == datetime(2026, 1, 12, 0, 0, tzinfo=PARIS)
    assert await locks(world.db, 1) == {
        "arena:a": 20,
        "arena:b": 20,
    }  # 6 lines x 3 ranks + 2 buffs each
    again = await world.arena.register(GUILD, 1, 1, 2)
    assert not again.fresh
    assert again.locked == first.locked


async def test_the_arena_opens_at_rang_5(world: World, registry: GameRegistry) -> None:
    await veteran(world.db, world.clock, world.catalog, 1, rank5=False, registry=registry)
    await with_decks(world.decks, 1)
    with pytest.raises(ArenaLocked):
        await world.arena.register(GUILD, 1, 1, 2)
    assert await locks(world.db, 1) == {}


async def test_incomplete_lines_the_same_slot_and_a_shared_copy_are_each_refused(
    world: World, registry: GameRegistry
) -> None:
    await veteran(
        world.db, world.clock, world.catalog, 1, ranks=2, registry=registry
    )  # no Maître: every line stops at Rang 2
    await with_decks(world.decks, 1)
    with pytest.raises(DeckInvalid) as refused:
        await world.arena.register(GUILD, 1, 1, 2)
    assert {p.key for p in refused.value.problems} == {"hoss.arena.problem.incomplete"}
    assert len(refused.value.problems) == 12
    with pytest.raises(DeckInvalid) as same:
        await world.arena.register(GUILD, 1, 1, 1)
    assert "hoss.arena.problem.same_slot" in {p.key for p in same.value.problems}
    await veteran(world.db, world.clock, world.catalog, 2, registry=registry)
    await world.decks.save(2, 1, "A", DECK_A, BUFFS_A)
    await world.decks.save(2, 2, "A bis", [*DECK_A[:5], DECK_B[5]], BUFFS_B)
    with pytest.raises(DeckInvalid) as shared:
        await world.arena.register(GUILD, 2, 1, 2)
    assert [p.params for p in shared.value.problems if p.key == "hoss.arena.problem.shared"] == [
        {"count": 15}
    ]
    assert await locks(world.db, 1) == {}
    assert await locks(world.db, 2) == {}


async def test_one_server_a_week(world: World, registry: GameRegistry) -> None:
    await world.enroll(registry, 1)
    with pytest.raises(RegisteredElsewhere):
        await world.arena.register(OTHER, 1, 1, 2)


async def test_locked_copies_cannot_be_sold_or_sacrificed(world: World, registry: GameRegistry) -> None:
    await world.enroll(registry, 1)
    locked = await world.db.read(
        lambda conn: conn.execute("SELECT id FROM cards WHERE locked_by = 'arena:a' LIMIT 1").fetchone()[0]
    )
    now = world.clock.now()
    with pytest.raises(DomainError):
        await world.db.write(
            lambda conn: ledger.destroy_card(conn, now, int(locked), 1, ledger.Movement("t"))
        )


async def test_the_ranking_is_hourly_and_shown_from_two_players(world: World, registry: GameRegistry) -> None:
    await world.enroll(registry, 1)
    assert await world.arena.standings(GUILD) == []
    await world.enroll(registry, 2)
    await world.db.write(
        lambda conn: conn.execute(
            "UPDATE hoss_arena_entries SET points = 4, reached_at = ? WHERE player_id = 2",
            (to_db(world.clock.now()),),
        )
    )
    assert [e.place for e in await world.arena.standings(GUILD)] == [None, None]  # not ranked before the hour
    world.clock.advance(timedelta(hours=1))
    assert await world.sched.run_due() == 1
    assert [(e.player_id, e.place) for e in await world.arena.standings(GUILD)] == [(2, 1), (1, 2)]
    world.clock.advance(timedelta(hours=5))  # a downtime: one catch-up ranking, then hourly again
    assert await world.sched.run_due() == 1
    assert await world.sched.run_due() == 0


async def twelve_with_points(world: World, registry: GameRegistry) -> None:
    """Players 1 to 12 registered, player n with 2n points."""
    for player in range(1, 13):
        await veteran(world.db, world.clock, world.catalog, player, registry=registry)
        await with_decks(world.decks, player)
        await world.arena.register(GUILD, player, 1, 2)

    def points(conn: Connection) -> None:
        for player in range(1, 13):
            conn.execute("UPDATE hoss_arena_entries SET points = ? WHERE player_id = ?", (player * 2, player))

    await world.db.write(points)


async def test_sunday_midnight_pays_the_table_once_and_releases_the_decks(
    world: World, registry: GameRegistry
) -> None:
    await twelve_with_points(world, registry=registry)
    before = {p: await balance(world.db, p) for p in range(1, 13)}
    world.clock.set(
        datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC) + timedelta(hours=30)
    )  # down over it
    await world.sched.run_due()
    result = await world.arena.result(GUILD, MONDAY)
    assert result is not None
    assert [p for p, _ in result.paid] == list(range(12, 0, -1))
    assert [g for _, g in result.paid] == [
        3_000,
        2_000,
        1_500,
        1_000,
        1_000,
        600,
        600,
        600,
        600,
        600,
        150,
        150,
    ]
    for player, gold in result.paid:
        assert await balance(world.db, player) == before[player] + gold
        assert await locks(world.db, player) == {}
    closes = await world.db.read(
        lambda conn: conn.execute("SELECT state FROM jobs WHERE kind = ?", (CLOSE_JOB,)).fetchall()
    )
    assert [tuple(c) for c in closes] == [("done",)]
    assert await world.sched.run_due() == 0
    await world.db.read(check_conservation)


async def test_after_the_close_the_standings_show_the_season_that_ended(
    world: World, registry: GameRegistry
) -> None:
    """« Dimanche à minuit, le top 10 est récompensé … Ensuite, tout le monde est désinscrit et repart à
    zéro : il faut se réinscrire pour la nouvelle semaine. »: until the new week's ranking shows,
    `/hoss arène classement` gives the player's final place and reward, the top 10 and how to register
    again, instead of « Le classement s'affiche dès que 2 joueurs sont inscrits »."""
    await twelve_with_points(world, registry=registry)
    before = await world.arena.standing_of(GUILD, 12)
    assert before.last is None  # a season is open: its own standings
    world.clock.set(datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC) + timedelta(minutes=1))
    await world.sched.run_due()
    shown = await world.arena.standing_of(GUILD, 1)
    assert shown.players == 0  # nobody registered for the new week yet
    assert shown.last is not None
    board, me = shown.last.board, shown.last.me
    assert board.season == MONDAY
    assert [(line.place, line.player_id, line.reward) for line in board.lines][:2] == [
        (1, 12, 3_000),
        (2, 11, 2_000),
    ]
    assert len(board.lines) == 10
    assert me is not None
    assert (me.place, me.points, me.reward) == (12, 2, 150)
    text = render_text(standings_spec(shown, 1, "fr").embeds[0].description, "fr")
    assert "Votre place finale\u00a0: **12** sur 12, 2 pts — **150 or** reçus." in text
    assert "1. <@12> — 24 pts · 3 000 or" in text.replace("\u202f", " ").replace("\xa0", " ")
    field = standings_spec(shown, 1, "fr").embeds[0].fields[0]
    assert "`/hoss arène inscrire`" in render_text(field.value, "fr")
    assert "dès que 2 joueurs sont inscrits sur ce serveur" not in text
    stranger = await world.arena.standing_of(GUILD, 99)
    assert stranger.last is not None
    assert stranger.last.me is None


async def test_the_season_follows_paris_time_across_daylight_saving(arena: ArenaService) -> None:
    """Summer time starts on Sunday 29 March 2026: that week still closes at Monday 00:00 Paris (UTC+2)."""
    assert arena.season_of(datetime(2026, 3, 29, 21, 59, tzinfo=UTC)) == date(2026, 3, 23)  # 23:59 Paris
    assert arena.season_of(datetime(2026, 3, 29, 22, 0, tzinfo=UTC)) == date(2026, 3, 30)  # Monday 00:00
    assert arena.closes_at(date(2026, 3, 23)) == datetime(2026, 3, 29, 22, 0, tzinfo=UTC)
    assert arena.closes_at(date(2026, 10, 19)) == datetime(2026, 10, 25, 23, 0, tzinfo=UTC)  # back to UTC+1


async def test_the_opponent_is_drawn_in_the_window_and_not_twice_within_the_hour(
    world: World, registry: GameRegistry
) -> None:
    await ranked_season(world, 4, registry=registry)
    seen = set()
    for _ in range(3):
        attack = await world.arena.draw_opponent(GUILD, 1)
        assert await world.arena.draw_opponent(GUILD, 1) == attack  # drawn once: no reroll by clicking again
        seen.add(attack.defender)
        await world.arena.settle(attack.id, ArenaResult.TIE, f"battle:{attack.id}")
    assert seen == {2, 3, 4}
    with pytest.raises(NoOpponent):
        await world.arena.draw_opponent(GUILD, 1)
    world.clock.advance(timedelta(minutes=61))
    assert (await world.arena.draw_opponent(GUILD, 1)).defender in {2, 3, 4}


async def test_each_draw_is_recomputable_from_the_revealed_seed(world: World, registry: GameRegistry) -> None:
    await ranked_season(world, 5, registry=registry)
    attack = await world.arena.draw_opponent(GUILD, 3)
    seed, candidates = await world.db.read(
        lambda conn: conn.execute(
            "SELECT s.seed, a.candidates FROM hoss_arena_attacks a JOIN hoss_arena_seasons s"
            " ON s.guild_id = a.guild_id AND s.season = a.season WHERE a.id = ?",
            (attack.id,),
        ).fetchone()
    )
    pool = json.loads(candidates)
    assert pool == [5, 4, 2, 1]  # ranking order, the attacker left out
    assert pool[fair_draw.uniform(seed, "arena:3:1", len(pool))] == attack.defender  # as documented


async def test_a_settled_attack_moves_points_and_pays_gold_once(world: World, registry: GameRegistry) -> None:
    await ranked_season(world, 2, registry=registry)  # player 1: 0 points, player 2: 1 point
    before = (await balance(world.db, 1), await balance(world.db, 2))
    attack = await world.arena.draw_opponent(GUILD, 1)
    assert attack.defender == 2
    outcome = await world.arena.settle(attack.id, ArenaResult.LOSS, "b1")
    assert (outcome.attacker_points, outcome.defender_points) == (0, 2)  # the attacker stays at 0
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (before[0] + 5, before[1] + 10)
    with pytest.raises(AttackSettled):
        await world.arena.settle(attack.id, ArenaResult.WIN, "b1")
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (before[0] + 5, before[1] + 10)
    world.clock.advance(timedelta(minutes=61))
    won = await world.arena.draw_opponent(GUILD, 1)
    await world.arena.settle(won.id, ArenaResult.WIN, "b2")
    rows = await world.db.read(
        lambda conn: conn.execute(
            "SELECT player_id, points, attack_wins FROM hoss_arena_entries ORDER BY player_id"
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [(1, 2, 1), (2, 1, 0)]
    await world.db.read(check_conservation)


async def test_an_unranked_attacker_is_told_to_wait_for_the_hour(
    world: World, registry: GameRegistry
) -> None:
    await world.enroll(registry, 1)
    with pytest.raises(NotRanked):
        await world.arena.draw_opponent(GUILD, 1)
