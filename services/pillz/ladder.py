"""The Pillz ladder: Elo ratings, the gold a friend match pays (with the anti-farming cap), each
server's leaderboard, and the /profile line.

Only friend matches count (practice against the bot changes nothing). The duel service calls
`record_friend_result` inside its end-of-duel write unit; the duel id makes it idempotent. Ratings: start
1000, K = 32, expected score 1 / (1 + 10^((Rb - Ra) / 400)); the change K·(S − E) is rounded half away
from zero for the first seat and the second seat gets its opposite, so the ladder is zero-sum.
Rewards: a win pays 40 coins, a draw 15, a loss 0; a pair of players is rewarded for at most 3 matches
per UTC day (both directions counted); beyond, the match still counts for Elo and statistics but pays
nothing. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Literal

from core.clock import to_db
from services.community.leaderboard.spec import Standing as ServerStanding
from services.community.leaderboard.spec import Standings as ServerStandings
from services.infra import ledger
from services.infra.games import GameRegistry, SummaryLine
from services.infra.messages import Number, Text
from services.infra.players import summary_changed
from services.pillz.economy import PILLZ_GOLD, START_RATING, PillzService, ensure_profile
from services.shared import ladder
from services.shared.ladder import BOARD_ALL, LEADERBOARD_SIZE, SCORES
from services.shared.standings import ranked_wins
from store.connection import Connection

Outcome = Literal["win", "draw", "loss"]
K_FACTOR = 32
REWARD_GOLD: dict[Outcome, int] = {"win": 40, "draw": 15, "loss": 0}
REWARDED_PER_PAIR_PER_DAY = 3
REASON_REWARD = "pillz.reward"


def elo_delta(rating: int, opponent: int, score: float) -> int:
    """The change of the first seat's rating (services.shared.ladder, K = 32)."""
    return ladder.elo_delta(rating, opponent, score, K_FACTOR)


@dataclass(frozen=True)
class FriendReward:
    """What one seat got from a friend match."""

    player_id: int
    outcome: Outcome
    gold: int  # coins paid (0 for a loss or beyond the daily cap)
    capped: bool  # True: the pair's daily cap was reached, nothing was paid
    rating_before: int
    rating_after: int
    absent: bool = False  # never moved in the duel (the AI played every move): paid nothing, not rated


def _profile_rating(conn: Connection, player_id: int) -> int:
    return rating(conn, player_id)


def rating(conn: Connection, player_id: int) -> int:
    """The player's Elo, the starting one before their first match (a tournament seeded by rating)."""
    row = conn.execute("SELECT rating FROM pillz_profiles WHERE player_id = ?", (player_id,)).fetchone()
    return START_RATING if row is None else int(row[0])


def record_friend_result(
    conn: Connection,
    now: datetime,
    registry: GameRegistry,
    guild_id: int,
    duel_id: int,
    seat_player_ids: tuple[int, int],
    winner_seat: int | None,
    present: tuple[bool, bool] = (True, True),
) -> tuple[FriendReward, FriendReward]:
    """Record a finished friend match once: Elo, win/draw/loss counts and the gold rewards (ledger reason
    `pillz.reward`, ref = the duel id). A second call for the same duel returns the stored result and
    changes nothing. Call inside a write unit (the duel's end-of-duel unit).

    A seat not `present` (its player never moved: the AI played for them on every timeout) is paid
    nothing and its profile is untouched, and the match moves no rating: the AI standing in keeps the
    duel going, it does not earn the absentee anything, nor lets the other player take rating from them.
    """
    row = conn.execute("SELECT rewards FROM pillz_friend_results WHERE duel_id = ?", (duel_id,)).fetchone()
    if row is not None:
        first, second = (FriendReward(**seat) for seat in json.loads(row[0]))
        return first, second
    a, b = seat_player_ids
    if a == b:
        raise ValueError("a friend match needs two different players")
    if winner_seat not in (None, 0, 1):
        raise ValueError(f"winner_seat must be 0, 1 or None, got {winner_seat!r}")
    for player in (a, b):
        ensure_profile(conn, now, registry, player)
    day = now.date().isoformat()
    low, high = min(a, b), max(a, b)
    rewarded_today = int(
        conn.execute(
            "SELECT COUNT(*) FROM pillz_friend_results"
            " WHERE pair_low = ? AND pair_high = ? AND day = ? AND rewarded = 1",
            (low, high, day),
        ).fetchone()[0]
    )
    capped = rewarded_today >= REWARDED_PER_PAIR_PER_DAY
    outcomes: tuple[Outcome, Outcome] = (
        ("draw", "draw") if winner_seat is None else ("win", "loss") if winner_seat == 0 else ("loss", "win")
    )
    ratings = (_profile_rating(conn, a), _profile_rating(conn, b))
    score_a = SCORES[outcomes[0]]
    delta = elo_delta(ratings[0], ratings[1], score_a) if all(present) else 0
    rewards: list[FriendReward] = []
    for seat, player in enumerate((a, b)):
        outcome = outcomes[seat]
        if not present[seat]:
            rewards.append(
                FriendReward(player, outcome, 0, capped, ratings[seat], ratings[seat], absent=True)
            )
            continue
        gold = 0 if capped else REWARD_GOLD[outcome]
        after = ratings[seat] + (delta if seat == 0 else -delta)
        conn.execute(
            "UPDATE pillz_profiles SET rating = ?, games = games + 1, wins = wins + ?, draws = draws + ?,"
            " losses = losses + ? WHERE player_id = ?",
            (after, outcome == "win", outcome == "draw", outcome == "loss", player),
        )
        summary_changed(conn, player)
        if gold:
            why = ledger.Movement(REASON_REWARD, ref=f"duel:{duel_id}")
            ledger.credit(conn, now, player, PILLZ_GOLD, gold, why)
        rewards.append(FriendReward(player, outcome, gold, capped, ratings[seat], after))
    conn.execute(
        "INSERT INTO pillz_friend_results (duel_id, guild_id, seat0_id, seat1_id, pair_low, pair_high,"
        " winner_seat, rewarded, rewards, day, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            duel_id,
            guild_id,
            a,
            b,
            low,
            high,
            winner_seat,
            int(not capped),
            json.dumps([asdict(r) for r in rewards]),
            day,
            to_db(now),
        ),
    )
    return rewards[0], rewards[1]


@dataclass(frozen=True)
class LadderEntry:
    rank: int
    player_id: int
    rating: int
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Leaderboard:
    entries: tuple[LadderEntry, ...]  # the top players, best first
    players: int  # every player who played a friend match on this server


def leaderboard(conn: Connection, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
    """Players who played a friend match on this server, by rating (then more games, then who joined
    first); their games, wins, draws and losses are their totals on every server."""
    players = (
        "SELECT seat0_id AS player_id FROM pillz_friend_results WHERE guild_id = :g"
        " UNION SELECT seat1_id FROM pillz_friend_results WHERE guild_id = :g"
    )
    rows = conn.execute(
        f"SELECT p.player_id, p.rating, p.games, p.wins, p.draws, p.losses FROM pillz_profiles p"
        f" JOIN ({players}) h ON h.player_id = p.player_id"
        " ORDER BY p.rating DESC, p.games DESC, p.player_id LIMIT :limit",
        {"g": guild_id, "limit": limit},
    ).fetchall()
    total = int(conn.execute(f"SELECT COUNT(*) FROM ({players}) AS listed", {"g": guild_id}).fetchone()[0])
    entries = tuple(LadderEntry(rank, *map(int, row)) for rank, row in enumerate(rows, start=1))
    return Leaderboard(entries, total)


def profile_summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    """/profile: the rating and the record, once the player has a Pillz profile."""
    row = conn.execute(
        "SELECT rating, games, wins, draws, losses FROM pillz_profiles WHERE player_id = ?", (player_id,)
    ).fetchone()
    if row is None:
        return []
    rating, games, wins, draws, losses = map(int, row)
    return [
        SummaryLine(
            "pillz.profile.line",
            {"rating": Number(rating), "games": games, "wins": wins, "draws": draws, "losses": losses},
        )
    ]


def server_board(conn: Connection, guild_id: int) -> list[ServerStanding]:
    """The whole board of `/pillz classement`, for `/classement serveur`."""
    board = leaderboard(conn, guild_id, limit=BOARD_ALL)
    return [
        ServerStanding(e.player_id, Text("pillz.standing.score", {"rating": e.rating})) for e in board.entries
    ]


def week_board(conn: Connection, guild_id: int, since: datetime, until: datetime) -> list[ServerStanding]:
    """The week's friend matches won on the server (practice against the bot counts for nothing)."""
    rows = conn.execute(
        "SELECT winner_seat, seat0_id, seat1_id FROM pillz_friend_results"
        " WHERE guild_id = ? AND winner_seat IS NOT NULL AND recorded_at >= ? AND recorded_at < ?",
        (guild_id, to_db(since), to_db(until)),
    ).fetchall()
    wins: Counter[int] = Counter(int(row[1 + int(row[0])]) for row in rows)
    return ranked_wins(wins)


STANDINGS = ServerStandings(server_board, week_board)


class PillzLadder(PillzService):
    async def leaderboard(self, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
        return await self.db.read(lambda conn: leaderboard(conn, guild_id, limit))

    async def record(
        self, guild_id: int, duel_id: int, seat_player_ids: tuple[int, int], winner_seat: int | None
    ) -> tuple[FriendReward, FriendReward]:
        """`record_friend_result` in its own unit (for tests and tools; duels call the function)."""
        now = self.clock.now()
        return await self.db.write(
            lambda conn: record_friend_result(
                conn, now, self.registry, guild_id, duel_id, seat_player_ids, winner_seat
            )
        )
