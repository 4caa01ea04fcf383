"""`/hoss classement` and the /profile line: a server's board lists who played a battle started there
(never a battle in DMs or on another server), by the highest rank unlocked, then counted wins, then fewer
losses, then the smaller id; it shows 10 and counts everyone, and gives the viewer's place below the cut."""

from __future__ import annotations

from core.clock import ManualClock
from services.hoss.battle.ranked import RankedService
from services.hoss.standings import HossStandings, profile_summary
from services.infra.games import GameRegistry
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import player_with_deck, service

GUILD, OTHER = 500, 600


async def played(
    db: Database,
    clock: ManualClock,
    ranked: RankedService,
    player: int,
    guild: int | None,
    registry: GameRegistry,
) -> None:
    """One battle, started in `guild` (None: direct messages), played to its end."""
    await player_with_deck(db, clock, player, registry=registry)
    battle = (await ranked.start(player, 1, key=f"k{player}-{guild}", guild=guild)).battle_id
    await ranked.skip_to_end(player, battle, guild)


async def progress(db: Database, player: int, rows: dict[int, tuple[int, int]]) -> None:
    """Replace the player's rank progress: rank -> (wins, losses)."""

    def unit(conn: Connection) -> None:
        conn.execute("DELETE FROM hoss_rank_progress WHERE player_id = ?", (player,))
        for rank, (wins, losses) in rows.items():
            conn.execute(
                "INSERT INTO hoss_rank_progress (player_id, rank, wins, losses) VALUES (?, ?, ?, ?)",
                (player, rank, wins, losses),
            )

    await db.write(unit)


async def test_the_board_orders_by_rank_reached_then_wins_then_losses(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry=registry)
    for player in (1, 2, 3, 4, 5):
        await played(db, clock, ranked, player, GUILD, registry=registry)
    await played(db, clock, ranked, 6, None, registry=registry)  # only in DMs: on no board
    await played(db, clock, ranked, 7, OTHER, registry=registry)  # another server's board
    await progress(db, 1, {1: (10, 0), 2: (3, 1)})  # Rang 2 reached, 13 wins
    await progress(db, 2, {1: (10, 4), 2: (10, 0), 3: (0, 2)})  # Rang 3: first despite more losses
    await progress(db, 3, {1: (9, 0), 3: (50, 0)})  # 59 wins, but Rang 1 short of 10: Rang 1
    await progress(db, 4, {1: (10, 0), 2: (3, 0)})  # as player 1 with one loss fewer
    await progress(db, 5, {1: (0, 0)})  # no counted battle: not listed
    for player in (6, 7):
        await progress(db, player, {1: (10, 0), 2: (10, 0), 3: (10, 0)})

    board = await HossStandings(db).leaderboard(GUILD)
    order = [(e.place, e.standing.player_id, e.standing.highest, e.standing.wins) for e in board.entries]
    assert order == [(1, 2, 3, 20), (2, 4, 2, 13), (3, 1, 2, 13), (4, 3, 1, 59)]
    assert board.players == 4
    assert board.viewer is None
    other = await HossStandings(db).leaderboard(OTHER)
    assert [e.standing.player_id for e in other.entries] == [7]


async def test_ten_are_shown_all_are_counted_and_the_viewer_finds_their_place(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry=registry)
    for player in range(1, 13):
        await played(db, clock, ranked, player, GUILD, registry=registry)
        await progress(db, player, {1: (20 - player, 0)})  # player 1 first, player 12 last
    board = await HossStandings(db).leaderboard(GUILD, viewer=12)
    assert [e.standing.player_id for e in board.entries] == list(range(1, 11))
    assert board.players == 12
    assert board.viewer is not None
    assert (board.viewer.place, board.viewer.standing.player_id) == (12, 12)
    shown = await HossStandings(db).leaderboard(GUILD, viewer=3)
    assert shown.viewer is None  # already in the top 10


async def test_the_profile_line_gives_the_rank_reached_and_the_record(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    assert await db.read(lambda conn: profile_summary(conn, 1)) == []  # no counted battle yet
    await progress(db, 1, {1: (10, 2), 2: (4, 3)})
    (line,) = await db.read(lambda conn: profile_summary(conn, 1))
    assert line.key == "hoss.profile.line"
    assert line.params == {"rank": Text("hoss.ranked.rank.2"), "wins": 14, "losses": 5}
