"""Daily rewards: one claim per player, game and Paris day, a streak that grows on consecutive days.

Every game that declares a `DailyReward` on its `GameSpec` gets it without code of its own: the claim is
one write unit that inserts the (player, game, day) row, whose primary key makes a double click (or 30
simultaneous ones) claim once, and credits the amount of the streak through the ledger (reason
`<game>.daily`, ref = the Paris date). The day is the scheduler's zone's date (Europe/Paris), so it
starts at local midnight whatever the season; yesterday's row carries the streak on, a missed day starts
it again at 1. Decisions: docs/daily.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from core.errors import BadInput
from services.infra import ledger
from services.infra.games import GameRegistry, GameSpec, money
from services.infra.messages import Text
from services.infra.players import ensure_player, ensure_starting_grants
from services.infra.recurrence import resolve_wall_time
from services.infra.timers import DailyReward, Timer, TimerQuery, relative
from store.connection import Connection
from store.db import Database

OPENS_AT = time(0, 0)  # a new daily at Paris midnight
REMIND_AT = time(9, 0)  # "your daily is ready" waits for the morning, not midnight
RECENT = timedelta(days=7)  # a reminder only for a game whose daily the player claimed this past week


@dataclass(frozen=True)
class DailyClaim:
    game: str
    credited: bool  # False: already claimed this Paris day (nothing credited now)
    amount: int  # what today's claim paid (or pays, when already claimed)
    streak: int  # consecutive Paris days claimed, today included
    currency: str
    balance: int
    next_at: datetime  # the next Paris midnight, when the next claim opens


@dataclass(frozen=True)
class DailyState:
    """Where a player stands with one game's daily, read without claiming."""

    game: str
    day: date  # today (Paris)
    claimed_today: bool
    streak: int  # today's streak if claimed, else the streak a claim now would reach
    amount: int  # what today's claim paid, or would pay
    next_at: datetime  # when the next claim opens (tomorrow's midnight)
    last_claim: date | None


def paris_day(now: datetime, zone: ZoneInfo) -> date:
    return now.astimezone(zone).date()


def day_start(day: date, zone: ZoneInfo) -> datetime:
    return resolve_wall_time(day, OPENS_AT, zone)


def daily_games(registry: GameRegistry) -> list[GameSpec]:
    return [g for g in registry.all_games() if g.daily is not None]


def spec_reward(spec: GameSpec) -> DailyReward:
    if spec.daily is None:
        raise BadInput("daily.error.no_daily")
    return spec.daily


def _streaks_on(conn: Connection, player_id: int, games: list[str], day: date) -> dict[str, int]:
    """The streak of each of `games` the player claimed on `day`, in one statement (one look-up of the
    primary key per game)."""
    rows = conn.execute(
        f"SELECT game, streak FROM daily_claims WHERE player_id = ? AND game IN ({', '.join('?' * len(games))})"
        " AND day = ?",
        (player_id, *games, day.isoformat()),
    ).fetchall()
    return {str(row[0]): int(row[1]) for row in rows}


def state(conn: Connection, now: datetime, zone: ZoneInfo, player_id: int, spec: GameSpec) -> DailyState:
    """A read: today's claim if any, else what a claim now would give."""
    reward = spec_reward(spec)
    today = paris_day(now, zone)
    row = conn.execute(
        "SELECT day, streak, amount FROM daily_claims WHERE player_id = ? AND game = ?"
        " ORDER BY day DESC LIMIT 1",
        (player_id, spec.key),
    ).fetchone()
    last = date.fromisoformat(row["day"]) if row else None
    next_at = day_start(today + timedelta(days=1), zone)
    if last == today:
        return DailyState(spec.key, today, True, int(row["streak"]), int(row["amount"]), next_at, last)
    streak = int(row["streak"]) + 1 if row and last == today - timedelta(days=1) else 1
    return DailyState(spec.key, today, False, streak, reward.amount(streak), next_at, last)


def claim(
    conn: Connection,
    now: datetime,
    zone: ZoneInfo,
    registry: GameRegistry,
    player_id: int,
    specs: list[GameSpec],
) -> list[DailyClaim]:
    """Claim each game's daily in the caller's write unit; a second claim the same Paris day pays nothing.

    /daily claims every game's at once, so each step is one statement for them all (issue 39: five games
    cost 24 statements, now 8): the player made sure of, yesterday's streaks read, the starting wallets
    checked, today's rows inserted (the primary key keeps a double click to one claim per game), the
    wallets credited and the ledger rows written. Only a game already claimed today reads its row back."""
    ensure_player(conn, player_id, now, registry)
    today = paris_day(now, zone)
    day = today.isoformat()
    yesterday, next_at = today - timedelta(days=1), day_start(today + timedelta(days=1), zone)
    streaks = _streaks_on(conn, player_id, [spec.key for spec in specs], yesterday)
    rewards = {spec.key: spec_reward(spec) for spec in specs}
    ensure_starting_grants(
        conn,
        now,
        player_id,
        [c for spec in specs for c in spec.currencies if c.code == rewards[spec.key].currency],
    )
    asked = {spec.key: streaks.get(spec.key, 0) + 1 for spec in specs}
    amounts = {key: reward.amount(asked[key]) for key, reward in rewards.items()}
    inserted = {
        str(row[0])
        for row in conn.execute(
            "INSERT INTO daily_claims (player_id, game, day, streak, amount, claimed_at) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(specs))
            + " ON CONFLICT (player_id, game, day) DO NOTHING RETURNING game",
            [
                value
                for spec in specs
                for value in (player_id, spec.key, day, asked[spec.key], amounts[spec.key], to_db(now))
            ],
        ).fetchall()
    }
    paid = [spec.key for spec in specs if spec.key in inserted]
    balances = dict(
        zip(
            paid,
            ledger.credit_all(
                conn,
                now,
                player_id,
                [(rewards[k].currency, amounts[k], ledger.Movement(f"{k}.daily", ref=day)) for k in paid],
            ),
            strict=True,
        )
    )
    claims = []
    for spec in specs:
        reward = rewards[spec.key]
        streak, amount = asked[spec.key], amounts[spec.key]
        if spec.key in inserted:
            balance = balances[spec.key]
        else:
            row = conn.execute(
                "SELECT streak, amount FROM daily_claims WHERE player_id = ? AND game = ? AND day = ?",
                (player_id, spec.key, day),
            ).fetchone()
            streak, amount = int(row[0]), int(row[1])
            balance = ledger.balance(conn, player_id, reward.currency)
        claims.append(
            DailyClaim(spec.key, spec.key in inserted, amount, streak, reward.currency, balance, next_at)
        )
    return claims


def timer(conn: Connection, query: TimerQuery, spec: GameSpec) -> Timer:
    """The daily's line of /cooldowns; its reminder is the morning of the day it opens, for a player who
    claimed it in the past week (a game they stopped playing does not DM them every day)."""
    now, zone = query.now, query.zone
    current = state(conn, now, zone, query.player_id, spec)
    label = Text("daily.timer.label")
    opens = current.day + timedelta(days=1) if current.claimed_today else current.day
    remind: Text | None = None
    code = spec_reward(spec).currency
    amount = {"amount": money(code, current.amount)}
    if current.last_claim is not None and opens - current.last_claim <= RECENT:
        streak = current.streak + 1 if current.claimed_today else current.streak
        next_amount = spec_reward(spec).amount(streak) if current.claimed_today else current.amount
        params = {"game": Text(spec.name_key), "amount": money(code, next_amount), "streak": streak}
        remind = Text("daily.reminder", params)
    remind_at = resolve_wall_time(opens, REMIND_AT, zone)
    key = f"daily:{opens.isoformat()}"
    if current.claimed_today:
        status = Text("daily.timer.claimed", {"when": relative(current.next_at), "streak": current.streak})
        return Timer(key, label, status, current.next_at, remind_at, remind)
    status = Text("daily.timer.ready", {**amount, "streak": current.streak})
    return Timer(key, label, status, None, remind_at, remind)


class DailyService:
    """`/daily`: claims and states of every game's daily (the games come from the registry)."""

    def __init__(self, db: Database, clock: Clock, registry: GameRegistry, zone: ZoneInfo) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.zone = zone

    def specs(self, game: str | None) -> list[GameSpec]:
        """The games `/daily` acts on: the one named, or every game that has a daily."""
        found = daily_games(self.registry)
        if game is None:
            return found
        chosen = [g for g in found if g.key == game]
        if not chosen:
            raise BadInput("daily.error.no_daily")
        return chosen

    async def claim(self, player_id: int, game: str | None = None) -> list[DailyClaim]:
        """Claim the named game's daily, or every game's at once, in one write unit."""
        specs = self.specs(game)
        now = self.clock.now()
        return await self.db.write(lambda conn: claim(conn, now, self.zone, self.registry, player_id, specs))

    async def states(self, player_id: int) -> list[DailyState]:
        now = self.clock.now()
        return await self.db.read(
            lambda conn: [state(conn, now, self.zone, player_id, s) for s in daily_games(self.registry)]
        )
