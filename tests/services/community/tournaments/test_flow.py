"""A tournament from registration to podium through the real games (docs/tournaments.md): Swiss and single
elimination, attendance at the deadline, byes, coin flips, the podium paid, titles on /profile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable
from datetime import timedelta

from engine import seeding
from engine.errors import DomainError
from services.infra.container import Services
from services.infra.messages import MessageSpec
from tests.services.community.tournaments.conftest import (
    GUILD,
    PLAYERS,
    advance,
    create,
    play_rounds,
    register,
    rows,
)
from tests.services.conftest import check_conservation


async def test_a_swiss_pillz_tournament_runs_to_its_podium_and_pays_it(services: Services) -> None:
    t = await create(services, fee=100)
    players = await register(services, t, 7)
    absent = players[-1]
    await advance(services, timedelta(hours=1))
    t = await play_rounds(services, await services.tournaments.get(t.id), players[:-1])
    assert (t.status, t.rounds) == ("finished", 3)

    tables = await rows(
        services,
        "SELECT round, first_id, second_id, match_id, reason, first_points, second_points FROM tournament_tables",
    )
    pairs = [frozenset((a, b)) for _, a, b, *_ in tables if b is not None]
    assert len(pairs) == len(set(pairs)), "a rematch"
    byes = Counter(a for _, a, b, *_ in tables if b is None)
    assert set(byes.values()) == {1}
    assert len(byes) == 3
    for _, a, b, match, reason, first, second in tables:
        if b is None:
            assert (reason, first, match) == ("bye", 2, None)
        elif absent in (a, b):
            assert reason == "absent"
            assert (first if a == absent else second) == 0
        else:
            assert reason in ("played", "draw")
    matches = await rows(services, "SELECT request_key, status FROM matches WHERE kind = 'tournament'")
    assert len(matches) == len(pairs) == len({key for key, _ in matches})  # one match per table, never two
    assert {status for _, status in matches} <= {"over", "expired"}

    places = await rows(services, "SELECT player_id, place, prize FROM tournament_entries ORDER BY place")
    assert [place for _, place, _ in places] == list(range(1, 8))
    assert [prize for *_, prize in places[:3]] == [350, 210, 140]
    prizes = await rows(
        services, "SELECT player_id, delta, ref FROM ledger WHERE reason = 'tournament.prize'"
    )
    assert sorted(prizes, key=lambda r: str(r[2])) == [
        (places[0][0], 350, f"tournament:{t.id}:1"),
        (places[1][0], 210, f"tournament:{t.id}:2"),
        (places[2][0], 140, f"tournament:{t.id}:3"),
    ]
    assert t.pot == 0
    await services.db.read(check_conservation)
    winner = await services.players.profile(int(str(places[0][0])), create=False)
    assert winner is not None
    assert [line.key for line in winner.titles] == ["tournaments.profile.title"]


async def test_an_elimination_nobody_attends_goes_by_seeded_coin_flips(services: Services) -> None:
    t = await create(services, format="elimination")
    players = await register(services, t, 5)
    await advance(services, timedelta(hours=1))
    t = await services.tournaments.get(t.id)
    order = seeding.seeding(t.seed, players)
    first_round = await rows(
        services,
        "SELECT table_no, first_id, second_id, winner_id, reason FROM tournament_tables WHERE round = 1",
    )
    # 8 slots for 5: seeds 1, 2 and 3 skip the first round
    assert [(a, b, reason) for _, a, b, _, reason in first_round] == [
        (order[0], None, "bye"),
        (order[3], order[4], None),
        (order[1], None, "bye"),
        (order[2], None, "bye"),
    ]
    t = await play_rounds(services, t, [])
    assert (t.status, t.rounds) == ("finished", 3)
    decided = await rows(
        services, "SELECT round, table_no, first_id, second_id, winner_id, reason FROM tournament_tables"
    )
    for round_, table, a, b, winner, reason in decided:
        if a is not None and b is not None:
            assert reason == "coin"
            assert winner == (a if seeding.coin(t.seed, int(str(round_)), int(str(table))) == 0 else b)
    assert sorted((r, tb) for r, tb, *_ in decided if r == 3) == [
        (3, 0),
        (3, 1),
    ]  # the final, the third place
    places = await rows(services, "SELECT place FROM tournament_entries ORDER BY place")
    assert [p for (p,) in places] == [1, 2, 3, 4, 5]


async def test_in_swiss_two_absent_players_both_lose(services: Services) -> None:
    t = await create(services, rounds=1)
    await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    t = await play_rounds(services, await services.tournaments.get(t.id), [])
    assert t.status == "finished"
    decided = await rows(services, "SELECT reason, first_points, second_points FROM tournament_tables")
    assert decided == [("both_absent", 0, 0), ("both_absent", 0, 0)]
    statuses = await rows(services, "SELECT DISTINCT status FROM matches WHERE kind = 'tournament'")
    assert statuses == [("expired",)]


async def test_a_dinocard_tournament_is_decided_as_each_round_opens(services: Services) -> None:
    dino = services.games["dinocard"]
    t = await create(services, "dinocard", format="elimination")
    players = PLAYERS[:4]
    for player in players:
        await dino.packs.create(player, "Feu", None, element="feu")
    await register(services, t, 4)
    levels = await rows(services, "SELECT id, level, xp, wins, losses FROM dinocard_packs ORDER BY id")
    await advance(services, timedelta(hours=1))
    t = await services.tournaments.get(t.id)
    assert t.status == "finished"  # both rounds were played out at the start
    battles = await rows(
        services,
        "SELECT m.id, m.status, COUNT(s.seat) FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " WHERE m.kind = 'tournoi' GROUP BY m.id, m.status",
    )
    assert len(battles) == 4
    assert {(s, n) for _, s, n in battles} == {("over", 2)}
    assert (
        await rows(services, "SELECT id, level, xp, wins, losses FROM dinocard_packs ORDER BY id") == levels
    )
    assert await rows(
        services,
        "SELECT COUNT(*) FROM ledger WHERE reason LIKE 'dinocard.%' AND reason <> 'dinocard.starter'",
    ) == [(0,)]
    dms = await rows(services, "SELECT target_id, payload FROM outbox WHERE target_kind = 'dm'")
    watch = {str(MessageSpec.from_json(str(p)).buttons[0].custom_id) for _, p in dms}
    assert len(dms) == 8
    assert len(watch) == 4
    assert all(w.startswith("dino:twatch:") for w in watch)
    battle = int(str(battles[0][0]))
    seated = await rows(
        services, "SELECT player_id FROM match_seats WHERE match_id = ? ORDER BY seat", battle
    )
    shown = await dino.tournament.watch(battle, int(str(seated[0][0])), guild=None)
    assert shown.attachments  # the battle's log
    stranger = await _refused(dino.tournament.watch(battle, 42, guild=None))
    assert stranger == "dinocard.error.tournament.unknown"
    assert (await dino.tournament.watch(battle, 42, guild=GUILD)).embeds  # anyone in its server


async def test_an_immortals_war_elimination_plays_its_duels(services: Services) -> None:
    t = await create(services, "immortals", format="elimination")
    players = await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    t = await play_rounds(services, await services.tournaments.get(t.id), players, step=2)
    assert t.status == "finished"
    reasons = await rows(services, "SELECT reason FROM tournament_tables")
    assert {r for (r,) in reasons} <= {"played", "draw_coin"}
    gains = await rows(
        services,
        "SELECT COUNT(*) FROM immortals_results WHERE match_id IN (SELECT match_id FROM tournament_tables)",
    )
    assert gains == [(8,)]  # a duel between players: each seat's gains, as any duel


async def _refused(call: Awaitable[object]) -> str:
    try:
        await call
    except DomainError as error:
        return error.key
    raise AssertionError("not refused")


async def test_a_player_may_play_two_tournaments_at_once_and_the_recap_reads_their_podiums(
    services: Services,
) -> None:
    start = services.clock.now()
    first = await create(services, format="elimination")
    second = await create(services, "pillz", format="elimination", max_players=8)
    players = await register(services, first, 4)
    await register(services, second, 4)  # the same four
    await advance(services, timedelta(hours=1))
    assert len(await rows(services, "SELECT id FROM matches WHERE kind = 'tournament'")) == 4
    for t in (first, second):
        await play_rounds(services, await services.tournaments.get(t.id), players)
    recorded = await rows(services, "SELECT COUNT(*) FROM pillz_friend_results")
    assert recorded == [
        (8,)
    ]  # each tournament duel ends as a friend duel: Elo and record (docs/pillz/economy.md)
    finished = await services.tournaments.results_between(GUILD, start, services.clock.now())
    assert [f.id for f in finished] == sorted([first.id, second.id])
    assert all([p.place for p in f.podium] == [1, 2, 3] for f in finished)
    assert all(f.players == 4 and f.game == "pillz" for f in finished)
    later = await services.tournaments.results_between(
        GUILD, services.clock.now(), services.clock.now() + timedelta(days=7)
    )
    assert later == []
    assert await services.tournaments.results_between(GUILD + 1, start, services.clock.now()) == []
