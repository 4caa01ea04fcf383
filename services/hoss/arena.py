"""The Arena's seasons in each server (« L'Arène »): registration with two locked decks, their saves, the
hourly ranking, and the Sunday-midnight close that pays the rewards and unregisters everyone.

A season is named by its server and the Paris date of its Monday; it closes at the next Monday 00:00
Paris, by a job stored with the season (so a close missed while the bot was down runs once, at
start-up). Registering locks the copies of both decks (`arena:a`, `arena:b`) and saves the decks as the
battle reads them: opponents face those saved decks until the next save. The rules' numbers are in
`engine/hoss/arena.py`; decisions in docs/hoss/arena.md.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from core.errors import NotAllowed
from engine import fair_draw
from engine.hoss import (
    ARENA_MIN_RANK,
    REMATCH_COOLDOWN_MINUTES,
    SHOWN_FROM,
    WINDOW,
    ArenaResult,
    Settlement,
    Standing,
    highest_unlocked_rank,
    incomplete_lines,
    opponents,
    rank,
    season_payouts,
    settle,
    shared_copies,
)
from services.hoss.arena_posts import post_ranking, post_results
from services.hoss.decks import DeckService, DeckView
from services.hoss.gold import GOLD
from services.hoss.shop import rank_wins
from services.platform import ledger
from services.platform.players import ensure_player
from services.platform.recurrence import resolve_wall_time
from services.platform.scheduler import Job, Scheduler, schedule
from services.shared.collecting import DeckInvalid, Problem
from store.db import Database

CLOSE_JOB = "hoss.arena.close"
RANKING_JOB = "hoss.arena.ranking"
LOCKS = ("arena:a", "arena:b")
REASON_REWARD = "hoss.arena.reward"
REASON_BATTLE = "hoss.arena.battle"


class ArenaLocked(NotAllowed):
    key = "hoss.arena.error.rank"


class RegisteredElsewhere(NotAllowed):
    key = "hoss.arena.error.elsewhere"


class NotRanked(NotAllowed):
    key = "hoss.arena.error.not_ranked"


class NoOpponent(NotAllowed):
    key = "hoss.arena.error.no_opponent"


class AttackSettled(NotAllowed):
    key = "hoss.arena.error.settled"


SETTLED = {ArenaResult.WIN: "won", ArenaResult.LOSS: "lost", ArenaResult.TIE: "tie"}


def attack_label(attacker: int, number: int) -> str:
    """The label of an attack's draw (engine/fair_draw.py `uniform`): with the revealed season seed and
    the attack's recorded candidates, anyone recomputes whom it drew."""
    return f"arena:{attacker}:{number}"


@dataclass(frozen=True)
class Attack:
    id: int
    guild_id: int
    season: str
    attacker: int
    defender: int
    number: int
    status: str


def _pending_attack(conn: sqlite3.Connection, attacker: int) -> Attack | None:
    row = conn.execute(
        "SELECT id, guild_id, season, defender_id, number, status FROM hoss_arena_attacks"
        " WHERE attacker_id = ? AND status = 'drawn'",
        (attacker,),
    ).fetchone()
    if row is None:
        return None
    return Attack(int(row[0]), int(row[1]), str(row[2]), attacker, int(row[3]), int(row[4]), str(row[5]))


@dataclass(frozen=True)
class Entry:
    player_id: int
    points: int
    attack_wins: int
    place: int | None


@dataclass(frozen=True)
class Registration:
    season: date
    closes_at: datetime
    fresh: bool  # False when this was a save of decks already registered
    locked: tuple[int, ...]  # the copies both decks hold


@dataclass(frozen=True)
class SeasonResult:
    guild_id: int
    season: date
    paid: tuple[tuple[int, int], ...]  # (player, gold) in final ranking order


class ArenaService:
    def __init__(
        self, db: Database, clock: Clock, rng: random.Random, scheduler: Scheduler, decks: DeckService
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng  # SystemRandom in production: the season's matchmaking seed must be unpredictable
        self.decks = decks
        self.zone: ZoneInfo = scheduler.zone
        scheduler.on(CLOSE_JOB, self.on_close)
        scheduler.on(RANKING_JOB, self.on_ranking)

    # -- time ------------------------------------------------------------------------------------------

    def season_of(self, now: datetime) -> date:
        local = now.astimezone(self.zone).date()
        return local - timedelta(days=local.weekday())

    def closes_at(self, season: date) -> datetime:
        """« du lundi 0 h au dimanche minuit (heure de Paris) »: the next Monday 00:00, DST-correct."""
        return resolve_wall_time(season + timedelta(days=7), time(0, 0), self.zone)

    def next_hour(self, now: datetime) -> datetime:
        return now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)

    # -- registration ----------------------------------------------------------------------------------

    def _ensure_season(self, conn: sqlite3.Connection, now: datetime, guild_id: int, season: date) -> None:
        exists = conn.execute(
            "SELECT 1 FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?",
            (guild_id, season.isoformat()),
        ).fetchone()
        if exists is not None:
            return
        seed = f"{self.rng.getrandbits(8 * fair_draw.SEED_BYTES):0{2 * fair_draw.SEED_BYTES}x}"
        conn.execute(
            "INSERT INTO hoss_arena_seasons (guild_id, season, seed, commitment, opened_at) VALUES (?, ?, ?, ?, ?)",
            (guild_id, season.isoformat(), seed, fair_draw.commitment(seed), to_db(now)),
        )
        key = f"{guild_id}:{season.isoformat()}"
        payload = {"guild": guild_id, "season": season.isoformat()}
        schedule(conn, now, CLOSE_JOB, self.closes_at(season), payload, period_key=key)
        schedule(conn, now, RANKING_JOB, self.next_hour(now), payload, period_key=f"{key}:{to_db(now)}")

    def _arena_decks(self, conn: sqlite3.Connection, player_id: int, slots: tuple[int, int]) -> list[str]:
        """Both decks as saved for the battle, after every Arena check; every reason at once."""
        problems: list[Problem] = []
        views: list[DeckView] = []
        setups: list[str] = []
        for slot in slots:
            try:
                view, setup = self.decks.playable_in(conn, player_id, slot)
            except DeckInvalid as exc:
                problems += [Problem("hoss.arena.problem.deck", {"slot": slot}), *exc.problems]
                continue
            views.append(view)
            setups.append(json.dumps(dict(setup.extra), sort_keys=True))
            for position in incomplete_lines([[r.rank for r in line.ranks] for line in view.lines]):
                problems.append(
                    Problem(
                        "hoss.arena.problem.incomplete", {"slot": slot, "line": view.lines[position].line}
                    )
                )
        if slots[0] == slots[1]:
            problems.append(Problem("hoss.arena.problem.same_slot", {"slot": slots[0]}))
        elif len(views) == 2:
            first = {c.id for line in views[0].lines for c in line.copies} | {
                b.copy.id for b in views[0].buffs
            }
            second = {c.id for line in views[1].lines for c in line.copies} | {
                b.copy.id for b in views[1].buffs
            }
            if shared := shared_copies(first, second):
                problems.append(Problem("hoss.arena.problem.shared", {"count": len(shared)}))
        if problems:
            raise DeckInvalid(problems)
        return setups

    async def register(self, guild_id: int, player_id: int, slot_a: int, slot_b: int) -> Registration:
        """Register for this week's season with the decks in two slots, or save them again (same call)."""
        now = self.clock.now()
        season = self.season_of(now)

        def unit(conn: sqlite3.Connection) -> Registration:
            ensure_player(conn, player_id, now)
            if highest_unlocked_rank(rank_wins(conn, player_id)) < ARENA_MIN_RANK:
                raise ArenaLocked(rank=ARENA_MIN_RANK)
            elsewhere = conn.execute(
                "SELECT guild_id FROM hoss_arena_entries WHERE season = ? AND player_id = ? AND guild_id != ?",
                (season.isoformat(), player_id, guild_id),
            ).fetchone()
            if elsewhere is not None:
                raise RegisteredElsewhere()
            deck_a, deck_b = self._arena_decks(conn, player_id, (slot_a, slot_b))
            self._ensure_season(conn, now, guild_id, season)
            locked: set[int] = set()
            for slot, lock in zip((slot_a, slot_b), LOCKS, strict=True):
                locked |= set(self.decks.lock_in(conn, player_id, slot, lock).locked)
            known = conn.execute(
                "SELECT 1 FROM hoss_arena_entries WHERE guild_id = ? AND season = ? AND player_id = ?",
                (guild_id, season.isoformat(), player_id),
            ).fetchone()
            conn.execute(
                "INSERT INTO hoss_arena_entries (guild_id, season, player_id, reached_at, registered_at, saved_at,"
                " deck_a, deck_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, season, player_id) DO UPDATE SET saved_at = excluded.saved_at,"
                " deck_a = excluded.deck_a, deck_b = excluded.deck_b",
                (guild_id, season.isoformat(), player_id, to_db(now), to_db(now), to_db(now), deck_a, deck_b),
            )
            return Registration(season, self.closes_at(season), known is None, tuple(sorted(locked)))

        return await self.db.write(unit)

    # -- attacks ---------------------------------------------------------------------------------------

    async def draw_opponent(self, guild_id: int, attacker: int) -> Attack:
        """The opponent of `attacker`'s next attack, or the attack already drawn and not yet settled (a
        double click or a restart finds the same opponent: drawing again would let a player reroll)."""
        now = self.clock.now()
        season = self.season_of(now).isoformat()

        def unit(conn: sqlite3.Connection) -> Attack:
            pending = _pending_attack(conn, attacker)
            if pending is not None:
                if pending.guild_id != guild_id:
                    raise RegisteredElsewhere()
                return pending
            place = conn.execute(
                "SELECT place FROM hoss_arena_entries WHERE guild_id = ? AND season = ? AND player_id = ?",
                (guild_id, season, attacker),
            ).fetchone()
            if place is None or place[0] is None:
                raise NotRanked()
            nearby = [  # the attacker and the players up to WINDOW places above and below
                int(r[0])
                for r in conn.execute(
                    "SELECT player_id FROM hoss_arena_entries WHERE guild_id = ? AND season = ?"
                    " AND place BETWEEN ? AND ? ORDER BY place",
                    (guild_id, season, int(place[0]) - WINDOW, int(place[0]) + WINDOW),
                )
            ]
            since = to_db(now - timedelta(minutes=REMATCH_COOLDOWN_MINUTES))
            recent = {
                int(r[0])
                for r in conn.execute(
                    "SELECT defender_id FROM hoss_arena_attacks WHERE attacker_id = ? AND drawn_at > ?",
                    (attacker, since),
                )
            }
            candidates = opponents(nearby, attacker, recent)
            if not candidates:
                raise NoOpponent()
            seed = conn.execute(
                "SELECT seed FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?", (guild_id, season)
            ).fetchone()[0]
            number = 1 + int(
                conn.execute(
                    "SELECT COUNT(*) FROM hoss_arena_attacks WHERE guild_id = ? AND season = ? AND attacker_id = ?",
                    (guild_id, season, attacker),
                ).fetchone()[0]
            )
            defender = candidates[
                fair_draw.uniform(str(seed), attack_label(attacker, number), len(candidates))
            ]
            attack_id = conn.execute(
                "INSERT INTO hoss_arena_attacks (guild_id, season, attacker_id, defender_id, number, candidates,"
                " drawn_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, season, attacker, defender, number, json.dumps(candidates), to_db(now)),
            ).fetchone()[0]
            return Attack(int(attack_id), guild_id, season, attacker, defender, number, "drawn")

        return await self.db.write(unit)

    def settle_in(
        self, conn: sqlite3.Connection, now: datetime, attack_id: int, result: ArenaResult, battle_ref: str
    ) -> Settlement:
        """Points and gold of a finished attack, once: the attack's 'drawn' -> result transition is the
        guard. Called in the unit that ends the battle (an abandoned battle is settled as a `LOSS`)."""
        row = conn.execute(
            "SELECT guild_id, season, attacker_id, defender_id FROM hoss_arena_attacks WHERE id = ?",
            (attack_id,),
        ).fetchone()
        if row is None:
            raise ValueError(f"no arena attack {attack_id}")
        guild_id, season, attacker, defender = int(row[0]), str(row[1]), int(row[2]), int(row[3])
        moved = conn.execute(
            "UPDATE hoss_arena_attacks SET status = ?, battle_ref = ?, settled_at = ? WHERE id = ? AND status = 'drawn'",
            (SETTLED[result], battle_ref, to_db(now), attack_id),
        ).rowcount
        if moved != 1:
            raise AttackSettled()
        points = dict(
            conn.execute(
                "SELECT player_id, points FROM hoss_arena_entries WHERE guild_id = ? AND season = ?"
                " AND player_id IN (?, ?)",
                (guild_id, season, attacker, defender),
            ).fetchall()
        )
        outcome = settle(int(points.get(attacker, 0)), int(points.get(defender, 0)), result)
        why = ledger.Movement(REASON_BATTLE, ref=str(attack_id))
        for player, new_points, gold in (
            (attacker, outcome.attacker_points, outcome.attacker_gold),
            (defender, outcome.defender_points, outcome.defender_gold),
        ):
            conn.execute(
                "UPDATE hoss_arena_entries SET points = ?, reached_at = CASE WHEN points = ? THEN reached_at ELSE ? END"
                " WHERE guild_id = ? AND season = ? AND player_id = ?",
                (new_points, new_points, to_db(now), guild_id, season, player),
            )
            ledger.credit(conn, now, player, GOLD, gold, why)  # defence gold arrives offline too
        if result is ArenaResult.WIN:
            conn.execute(
                "UPDATE hoss_arena_entries SET attack_wins = attack_wins + 1"
                " WHERE guild_id = ? AND season = ? AND player_id = ?",
                (guild_id, season, attacker),
            )
        return outcome

    async def settle(self, attack_id: int, result: ArenaResult, battle_ref: str) -> Settlement:
        now = self.clock.now()
        return await self.db.write(lambda conn: self.settle_in(conn, now, attack_id, result, battle_ref))

    # -- ranking ---------------------------------------------------------------------------------------

    def _rank_now(self, conn: sqlite3.Connection, guild_id: int, season: str, now: datetime) -> list[int]:
        rows = conn.execute(
            "SELECT player_id, points, attack_wins, reached_at FROM hoss_arena_entries"
            " WHERE guild_id = ? AND season = ?",
            (guild_id, season),
        ).fetchall()
        # Stored times are sortable text (core.clock.to_db): their order is the order of the times.
        moments = {text: n for n, text in enumerate(sorted({str(r[3]) for r in rows}))}
        standings = [Standing(int(r[0]), int(r[1]), int(r[2]), moments[str(r[3])]) for r in rows]
        order = [s.player_id for s in rank(standings)]
        conn.executemany(
            "UPDATE hoss_arena_entries SET place = ? WHERE guild_id = ? AND season = ? AND player_id = ?",
            [(place, guild_id, season, player) for place, player in enumerate(order, start=1)],
        )
        conn.execute(
            "UPDATE hoss_arena_seasons SET ranked_at = ? WHERE guild_id = ? AND season = ?",
            (to_db(now), guild_id, season),
        )
        return order

    def on_ranking(self, conn: sqlite3.Connection, job: Job, now: datetime) -> None:
        """The hourly ranking of an open season; it plans the next hour's, from now (a late run after a
        downtime ranks once and goes on hourly)."""
        guild_id, season = int(job.payload["guild"]), str(job.payload["season"])
        status = conn.execute(
            "SELECT status FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?", (guild_id, season)
        ).fetchone()
        if status is None or status[0] != "open":
            return
        self._rank_now(conn, guild_id, season, now)
        upcoming = self.next_hour(now)
        if upcoming < self.closes_at(date.fromisoformat(season)):
            key = f"{guild_id}:{season}:{to_db(upcoming)}"
            schedule(conn, now, RANKING_JOB, upcoming, job.payload, period_key=key)
        post_ranking(
            conn, now, guild_id, date.fromisoformat(season), self.closes_at(date.fromisoformat(season))
        )

    async def standings(self, guild_id: int) -> list[Entry]:
        """This week's last hourly ranking, empty until 2 players are registered."""
        season = self.season_of(self.clock.now()).isoformat()

        def unit(conn: sqlite3.Connection) -> list[Entry]:
            rows = conn.execute(
                "SELECT player_id, points, attack_wins, place FROM hoss_arena_entries"
                " WHERE guild_id = ? AND season = ? ORDER BY place IS NULL, place, player_id",
                (guild_id, season),
            ).fetchall()
            if len(rows) < SHOWN_FROM:
                return []
            return [Entry(int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3])) for r in rows]

        return await self.db.read(unit)

    # -- the close -------------------------------------------------------------------------------------

    def on_close(self, conn: sqlite3.Connection, job: Job, now: datetime) -> None:
        """Sunday midnight: the final ranking, the rewards through the ledger, every deck released."""
        guild_id, season = int(job.payload["guild"]), str(job.payload["season"])
        order = self._rank_now(conn, guild_id, season, now)
        paid = season_payouts(order)
        why = ledger.Movement(REASON_REWARD, ref=f"{guild_id}:{season}")
        for player, gold in paid:
            ledger.credit(conn, now, player, GOLD, gold, why)
            for lock in LOCKS:
                self.decks.release_in(conn, player, lock)
        conn.executemany(
            "UPDATE hoss_arena_entries SET reward = ? WHERE guild_id = ? AND season = ? AND player_id = ?",
            [(gold, guild_id, season, player) for player, gold in paid],
        )
        closed = conn.execute(
            "UPDATE hoss_arena_seasons SET status = 'closed', closed_at = ? WHERE guild_id = ? AND season = ?"
            " AND status = 'open'",
            (to_db(now), guild_id, season),
        ).rowcount
        if closed != 1:
            raise RuntimeError(f"arena season {guild_id}/{season} closed twice")  # rolls the unit back
        post_results(conn, now, guild_id, date.fromisoformat(season))

    async def result(self, guild_id: int, season: date) -> SeasonResult | None:
        def unit(conn: sqlite3.Connection) -> SeasonResult | None:
            rows = conn.execute(
                "SELECT e.player_id, e.reward FROM hoss_arena_entries e JOIN hoss_arena_seasons s"
                " ON s.guild_id = e.guild_id AND s.season = e.season"
                " WHERE e.guild_id = ? AND e.season = ? AND s.status = 'closed' ORDER BY e.place",
                (guild_id, season.isoformat()),
            ).fetchall()
            if not rows:
                return None
            return SeasonResult(guild_id, season, tuple((int(p), int(g)) for p, g in rows))

        return await self.db.read(unit)
