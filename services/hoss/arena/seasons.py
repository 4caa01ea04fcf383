"""The Arena's seasons in each server (« L'Arène »): registration with two locked decks, their saves, the
hourly ranking, attacks (the opponent drawn and the battle started in one unit, or abandoned), and the
Sunday-midnight close that plays out the live attacks, pays the rewards and unregisters everyone.

A season is named by its server and the Paris date of its Monday; it closes at the next Monday 00:00
Paris, by a job stored with the season (so a close missed while the bot was down runs once, at
start-up). Registering locks the copies of both decks (`arena:a`, `arena:b`) and saves the decks as the
battle reads them: the attacker plays their saved deck A, opponents face the saved deck B, until the
next save. An attack's battle is in `arena_battles.py`, its settlement in `arena_results.py`. The rules'
numbers are in `engine/hoss/arena.py`; decisions in docs/hoss/arena.md.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
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
    CreatureCard,
    HossCatalog,
    Settlement,
    Standing,
    drawn_opponent,
    highest_unlocked_rank,
    incomplete_lines,
    opponents,
    rank,
    season_payouts,
    shared_copies,
)
from services.hoss.arena import battles as arena_battles
from services.hoss.arena import results as arena_results
from services.hoss.arena.posts import Final, last_final, post_ranking, post_results
from services.hoss.arena.results import AttackSettled as AttackSettled
from services.hoss.arena.verify import ArenaVerification, verification
from services.hoss.battle import battles
from services.hoss.battle import edits as battle_edits
from services.hoss.battle.battles import BattleResult
from services.hoss.battle.edits import Shown
from services.hoss.battle.ranked import RankedService
from services.hoss.decks import DeckService, DeckView
from services.hoss.gold import GOLD
from services.hoss.proofs import Proof, arena_proof
from services.hoss.shop import rank_wins
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.recurrence import resolve_wall_time
from services.infra.scheduler import Job, Scheduler, schedule
from services.shared.collecting import DeckInvalid, Problem
from store.connection import Connection
from store.db import Database
from store.idempotency import once

CLOSE_JOB = "hoss.arena.close"
RANKING_JOB = "hoss.arena.ranking"
LOCKS = ("arena:a", "arena:b")
REASON_REWARD = "hoss.arena.reward"
AROUND = 5  # places shown above and below the player in their standings


class ArenaLocked(NotAllowed):
    key = "hoss.arena.error.rank"


class RegisteredElsewhere(NotAllowed):
    key = "hoss.arena.error.elsewhere"


class NotRanked(NotAllowed):
    key = "hoss.arena.error.not_ranked"


class NoOpponent(NotAllowed):
    key = "hoss.arena.error.no_opponent"


class NotRegistered(NotAllowed):
    key = "hoss.arena.error.not_registered"


class SeasonClosed(NotAllowed):
    key = "hoss.arena.error.closed"


def registered_cards(deck: dict[str, Any], catalog: HossCatalog) -> tuple[list[str], list[str]]:
    """A registered deck (its battle setup, as saved) as a deck slot holds it: the lines, then the buffs."""
    lines = []
    for line in deck["lines"]:
        card = catalog.card(str(line["copies"][0]["card"]))
        assert isinstance(card, CreatureCard), card
        lines.append(card.line)
    return lines, [str(buff["card"]) for buff in deck["buffs"]]


@dataclass(frozen=True)
class Attack:
    id: int
    guild_id: int
    season: str
    attacker: int
    defender: int
    number: int
    status: str


def _pending_attack(conn: Connection, attacker: int) -> Attack | None:
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
    commitment: str  # SHA-256 of the season's secret matchmaking seed, revealed at the close


@dataclass(frozen=True)
class AttackStarted:
    attack_id: int
    battle_id: int
    defender: int
    replayed: bool  # a repeated click (same key): the battle the first one started
    message: Shown  # the public battle message to show (then `RankedService.attach` it)


@dataclass(frozen=True)
class Standings:
    """The player's place in the last hourly ranking and the players around them; while this week's
    ranking is not shown yet (fewer than SHOWN_FROM players), the season that ended last (`last`)."""

    me: Entry | None  # None: not registered, or not ranked yet
    around: tuple[Entry, ...]  # up to AROUND places above and below, the player included, in order
    players: int  # registered players this week (the ranking shows from SHOWN_FROM)
    last: Final | None = None  # the last closed season, while this week's ranking is not shown


@dataclass(frozen=True)
class SeasonResult:
    guild_id: int
    season: date
    paid: tuple[tuple[int, int], ...]  # (player, gold) in final ranking order


class ArenaService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        rng: random.Random,
        scheduler: Scheduler,
        decks: DeckService,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.rng = rng  # SystemRandom in production: the season's matchmaking seed must be unpredictable
        self.decks = decks
        self.catalog = decks.catalog
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

    def _ensure_season(self, conn: Connection, now: datetime, guild_id: int, season: date) -> None:
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

    def _arena_decks(self, conn: Connection, player_id: int, slots: tuple[int, int]) -> list[str]:
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

        def unit(conn: Connection) -> Registration:
            ensure_player(conn, player_id, now, self.registry)
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
                " deck_a, deck_b, slot_a, slot_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, season, player_id) DO UPDATE SET saved_at = excluded.saved_at,"
                " deck_a = excluded.deck_a, deck_b = excluded.deck_b, slot_a = excluded.slot_a,"
                " slot_b = excluded.slot_b",
                (
                    guild_id,
                    season.isoformat(),
                    player_id,
                    to_db(now),
                    to_db(now),
                    to_db(now),
                    deck_a,
                    deck_b,
                    slot_a,
                    slot_b,
                ),
            )
            commitment = conn.execute(
                "SELECT commitment FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?",
                (guild_id, season.isoformat()),
            ).fetchone()[0]
            closes = self.closes_at(season)
            return Registration(season, closes, known is None, tuple(sorted(locked)), str(commitment))

        return await self.db.write(unit)

    async def cancel_changes(self, guild_id: int, player_id: int) -> tuple[int, int]:
        """« … ou tu annules les changements »: the two decks as last registered go back into the slots
        they were registered from, whatever was saved there since; returns those slots. The Arena's own
        decks do not change (opponents already face them)."""
        now = self.clock.now()
        season = self.season_of(now).isoformat()

        def unit(conn: Connection) -> tuple[int, int]:
            row = conn.execute(
                "SELECT deck_a, deck_b, slot_a, slot_b FROM hoss_arena_entries"
                " WHERE guild_id = ? AND season = ? AND player_id = ?",
                (guild_id, season, player_id),
            ).fetchone()
            if row is None:
                raise NotRegistered()
            if row[2] is None or row[3] is None:
                raise NotAllowed("hoss.arena.error.no_slots")
            slots = (int(row[2]), int(row[3]))
            for deck, slot in zip(row[:2], slots, strict=True):
                lines, buffs = registered_cards(json.loads(deck), self.decks.catalog)
                self.decks.write_in(conn, now, player_id, slot, None, lines, buffs)
            return slots

        return await self.db.write(unit)

    # -- attacks ---------------------------------------------------------------------------------------

    async def draw_opponent(self, guild_id: int, attacker: int) -> Attack:
        """The opponent of `attacker`'s next attack, or the attack already drawn and not yet settled (a
        double click or a restart finds the same opponent: drawing again would let a player reroll).

        The draw alone, for the tests and benchmarks of matchmaking: players go through `attack`, which
        draws and starts the battle in one unit. An attack drawn here and never given a battle stays
        'drawn' and blocks its attacker's next draw (one attack at a time) until `settle`."""
        now = self.clock.now()
        return await self.db.write(lambda conn: self._draw_in(conn, now, guild_id, attacker))

    def _draw_in(self, conn: Connection, now: datetime, guild_id: int, attacker: int) -> Attack:
        season = self.season_of(now).isoformat()
        pending = _pending_attack(conn, attacker)
        if pending is not None:
            if pending.guild_id != guild_id:
                raise RegisteredElsewhere()
            return pending
        status = conn.execute(
            "SELECT status FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?", (guild_id, season)
        ).fetchone()
        place = conn.execute(
            "SELECT place FROM hoss_arena_entries WHERE guild_id = ? AND season = ? AND player_id = ?",
            (guild_id, season, attacker),
        ).fetchone()
        if place is None:
            raise NotRegistered()
        if status[0] != "open":
            raise SeasonClosed()
        if place[0] is None:
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
        defender = drawn_opponent(str(seed), attacker, number, candidates)
        attack_id = conn.execute(
            "INSERT INTO hoss_arena_attacks (guild_id, season, attacker_id, defender_id, number, candidates,"
            " drawn_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, season, attacker, defender, number, json.dumps(candidates), to_db(now)),
        ).fetchone()[0]
        return Attack(int(attack_id), guild_id, season, attacker, defender, number, "drawn")

    async def attack(self, guild_id: int, attacker: int, *, key: str | int) -> AttackStarted:
        """Draw the opponent (or take the attack already drawn) and start its battle, in one unit: the
        attacker's saved deck A live in seat 0 against the defender's saved deck B played by the AI. A
        repeated `key` (a double click) gets the battle the first one started; one live battle per player."""
        now = self.clock.now()
        attack_key = str(key)

        def work(conn: Connection) -> dict[str, int]:
            live, number = battles.live_and_next(conn, attacker)
            if live is not None:
                raise NotAllowed("hoss.error.ranked.live", battle=live)
            drawn = self._draw_in(conn, now, guild_id, attacker)
            seed = self.rng.getrandbits(62)
            ids = (drawn.id, drawn.guild_id, drawn.season, attacker, drawn.defender)
            battle = arena_battles.start(
                conn, now, ids, seed=seed, key=attack_key, catalog=self.catalog, number=number
            )
            return {"player": attacker, "attack": drawn.id, "battle": battle, "defender": drawn.defender}

        def unit(conn: Connection) -> AttackStarted:
            ensure_player(conn, attacker, now, self.registry)
            stored, fresh = once(conn, f"hoss:arena:attack:{attack_key}", now, lambda: work(conn))
            if stored["player"] != attacker:
                raise NotAllowed()
            row = battles.load(conn, stored["battle"])
            assert row is not None
            message = battle_edits.shown_now(conn, row, self.catalog)
            return AttackStarted(stored["attack"], stored["battle"], stored["defender"], not fresh, message)

        return await self.db.write(unit)

    async def forfeit(self, player_id: int, battle_id: int, guild: int | None) -> BattleResult:
        """« Abandonner »: the player's live Arena battle ends as a loss, settled at once."""
        now = self.clock.now()
        return await self.db.write(
            lambda conn: arena_battles.forfeit(
                conn, now, player_id, battle_id, guild, self.catalog, RankedService.pace
            )
        )

    def settle_in(
        self, conn: Connection, now: datetime, attack_id: int, result: ArenaResult, battle_ref: str
    ) -> Settlement:
        """Points and gold of a finished attack, once (`arena_results.settle_attack`); a battle's end
        settles its attack through `arena_results.settle_battle`."""
        return arena_results.settle_attack(conn, now, attack_id, result, battle_ref)

    async def settle(self, attack_id: int, result: ArenaResult, battle_ref: str) -> Settlement:
        now = self.clock.now()
        return await self.db.write(lambda conn: self.settle_in(conn, now, attack_id, result, battle_ref))

    # -- ranking ---------------------------------------------------------------------------------------

    def _rank_now(self, conn: Connection, guild_id: int, season: str, now: datetime) -> list[int]:
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

    def on_ranking(self, conn: Connection, job: Job, now: datetime) -> None:
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

        def unit(conn: Connection) -> list[Entry]:
            rows = conn.execute(
                "SELECT player_id, points, attack_wins, place FROM hoss_arena_entries"
                " WHERE guild_id = ? AND season = ? ORDER BY place IS NULL, place, player_id",
                (guild_id, season),
            ).fetchall()
            if len(rows) < SHOWN_FROM:
                return []
            return [Entry(int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3])) for r in rows]

        return await self.db.read(unit)

    async def standing_of(self, guild_id: int, player_id: int) -> Standings:
        """The player's place in this week's last hourly ranking and up to AROUND places on each side."""
        entries = await self.standings(guild_id)
        ranked = [e for e in entries if e.place is not None]
        registered = await self.db.read(
            lambda conn: int(
                conn.execute(
                    "SELECT COUNT(*) FROM hoss_arena_entries WHERE guild_id = ? AND season = ?",
                    (guild_id, self.season_of(self.clock.now()).isoformat()),
                ).fetchone()[0]
            )
        )
        if registered < SHOWN_FROM:  # after the close, the season that just ended, until this one shows
            final = await self.db.read(lambda conn: last_final(conn, guild_id, player_id))
            return Standings(None, (), registered, final)
        me = next((e for e in ranked if e.player_id == player_id), None)
        if me is None:
            return Standings(None, (), registered)
        index = ranked.index(me)
        return Standings(me, tuple(ranked[max(0, index - AROUND) : index + AROUND + 1]), registered)

    # -- the close -------------------------------------------------------------------------------------

    def on_close(self, conn: Connection, job: Job, now: datetime) -> None:
        """Sunday midnight: the attack battles still live played to their end by the AI and settled, then
        the final ranking, the rewards through the ledger, every deck released."""
        guild_id, season = int(job.payload["guild"]), str(job.payload["season"])
        arena_battles.finish_season(conn, now, guild_id, season, self.catalog, RankedService.pace)
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

    async def proof(self, guild_id: int, season: date) -> Proof:
        """What « Vérifier » shows of this server's season starting `season` (its seed only once closed)."""
        return await self.db.read(lambda conn: arena_proof(conn, guild_id, season))

    async def verify(self, guild_id: int, day: date) -> ArenaVerification:
        """The opponent draws of this server's season holding `day`, recomputed from the revealed seed."""
        season = self.season_of(resolve_wall_time(day, time(12, 0), self.zone))
        return await self.db.read(lambda conn: verification(conn, guild_id, season), large=True)

    async def result(self, guild_id: int, season: date) -> SeasonResult | None:
        def unit(conn: Connection) -> SeasonResult | None:
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
