"""Drops: the activity that arms them, the job that opens one, the clicks that enter it, the job that
draws it and pays its winner, and the proof of the draw (docs/drops.md).

- **Armed by activity** (`activity`): a slash command's write (at most one a minute per server, plus one
  per player and day) records the server's activity and, when the server has drops on, no drop armed, and
  room left in its day, arms the next one (`drops:next`) a few random minutes later, never before the gap
  since the last drop. Nothing runs for a silent server.
- **Opened** (`on_next`): only if a slash command was used there within 15 minutes, the gap has passed,
  the day has room, and the server has a games channel. The game is drawn among the chosen ones not
  paused there, the prize by that game's own `DropPool`; the seed is drawn and its commitment published
  with the drop; the close job (`drops:close`) is due when the entry window ends.
- **Entered** (`enter`): a click within the window enters once, in click order.
- **Drawn** (`on_close`): one unit reveals the seed, draws (`engine.fair_draw`), pays the winner through
  the ledger and edits the drop, so a crash at any point pays exactly once (the job fires again if its
  unit did not commit). A close that runs more than a minute after the window (the bot was down) voids
  the drop instead, says so, and pays nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from core.clock import Clock, from_db, to_db
from core.errors import NotAllowed, NotFound
from engine import fair_draw
from services.community.drops import posts
from services.community.drops.activity import ActivityTracker
from services.community.drops.pool import DropPrize
from services.community.drops.rhythm import (
    ACTIVE_WINDOW,
    ARM_DELAY,
    ENTRY_WINDOW,
    LATE_CLOSE,
    WINS_PER_DAY,
    RhythmName,
    allowed_today,
)
from services.community.drops.settings import DropSettings, read, write
from services.community.wishlists.store import wishers_here
from services.infra import guild_settings, ledger, outbox
from services.infra.access import read_access
from services.infra.erased import ERASED, is_erased
from services.infra.games import GameRegistry
from services.infra.messages import Target, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Job, Scheduler, cancel, schedule
from store.connection import Connection
from store.db import Database

NEXT_JOB = "drops:next"
CLOSE_JOB = "drops:close"
REASON_PRIZE = "drop_prize"


class DropClosed(NotAllowed):
    key = "drops.error.closed"


@dataclass(frozen=True)
class Entered:
    drop_id: int
    fresh: bool  # False: this player had entered already (a double click)
    closes_at: datetime
    position: int


@dataclass(frozen=True)
class Verification:
    proof: posts.Proof
    verdict: fair_draw.Verdict


@dataclass(frozen=True)
class _Drop:
    id: int
    guild_id: int
    channel_id: int
    game: str
    prize: DropPrize
    status: str
    seed: str
    commitment: str
    digest: str | None
    skipped: int
    winner_id: int | None
    message_item: int | None
    closes_at: datetime


_COLUMNS = (
    "id, guild_id, channel_id, game, prize, status, seed, commitment, digest, skipped, winner_id,"
    " message_item, closes_at"
)


def _drop(row: Any) -> _Drop:
    return _Drop(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        game=str(row[3]),
        prize=DropPrize.from_json(str(row[4])),
        status=str(row[5]),
        seed=str(row[6]),
        commitment=str(row[7]),
        digest=None if row[8] is None else str(row[8]),
        skipped=int(row[9]),
        winner_id=None if row[10] is None else int(row[10]),
        message_item=None if row[11] is None else int(row[11]),
        closes_at=from_db(str(row[12])),
    )


def _load(conn: Connection, drop_id: int, guild_id: int | None) -> _Drop | None:
    """A drop of this server (`guild_id`), or of any (None: an id the bot wrote itself, in a job)."""
    if guild_id is None:
        row = conn.execute(f"SELECT {_COLUMNS} FROM drops WHERE id = ?", (drop_id,)).fetchone()
    else:
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM drops WHERE id = ? AND guild_id = ?", (drop_id, guild_id)
        ).fetchone()
    return None if row is None else _drop(row)


def entries(conn: Connection, drop_id: int) -> list[str]:
    """The draw's list, "<position>:<player id>" in click order, written by the database."""
    rows = conn.execute(
        "SELECT CAST(position AS TEXT) || ':' || CAST(player_id AS TEXT) FROM drop_entries"
        " WHERE drop_id = ? ORDER BY position",
        (drop_id,),
    ).fetchall()
    return [str(row[0]) for row in rows]


def _player_of(entry: str) -> int:
    return int(entry.split(":")[1])


def wins_on(conn: Connection, player_id: int, day: date) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM drops WHERE winner_id = ? AND won_day = ?", (player_id, day.isoformat())
    ).fetchone()
    return int(row[0])


def _drops_on(conn: Connection, guild_id: int, day: date) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM drops WHERE guild_id = ? AND day = ?", (guild_id, day.isoformat())
    ).fetchone()
    return int(row[0])


def _active_on(conn: Connection, guild_id: int, day: date) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM guild_players WHERE guild_id = ? AND last_day = ?", (guild_id, day.isoformat())
    ).fetchone()
    return int(row[0])


def _last_drop_at(conn: Connection, guild_id: int) -> datetime | None:
    row = conn.execute("SELECT MAX(opened_at) FROM drops WHERE guild_id = ?", (guild_id,)).fetchone()
    return None if row is None or row[0] is None else from_db(str(row[0]))


def _job_due(conn: Connection, job_id: int | None) -> bool:
    if job_id is None:
        return False
    row = conn.execute("SELECT state FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return row is not None and row[0] == "due"


class DropService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        registry: GameRegistry,
        scheduler: Scheduler,
        catalogs: Mapping[str, Any],
        rng: random.Random,
        *,
        window: timedelta = ENTRY_WINDOW,
    ) -> None:
        self.db = db
        self.clock = clock
        self.registry = registry
        self.zone = scheduler.zone
        self.catalogs = dict(catalogs)
        self.rng = rng  # SystemRandom in production: the seeds and the arming times must be unpredictable
        self.window = window
        self.tracker = ActivityTracker(self.zone)
        scheduler.on(NEXT_JOB, self.on_next)
        scheduler.on(CLOSE_JOB, self.on_close)

    def day_of(self, when: datetime) -> date:
        return when.astimezone(self.zone).date()

    # -- settings -------------------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> DropSettings:
        return await self.db.read(lambda conn: read(conn, guild_id))

    async def configure(
        self, guild_id: int, rhythm: RhythmName, chosen: tuple[str, ...] | None = None
    ) -> DropSettings:
        """`/setup drops`: the rhythm, and the games when given. Turning drops off withdraws the drop
        armed; turning them on counts as the server's activity (the manager's command) and arms one."""
        now = self.clock.now()

        def unit(conn: Connection) -> DropSettings:
            write(conn, now, guild_id, rhythm, chosen)
            settings = read(conn, guild_id)
            if not settings.on:
                if settings.next_job is not None:
                    cancel(conn, settings.next_job)
                conn.execute("UPDATE drop_settings SET next_job = NULL WHERE guild_id = ?", (guild_id,))
                return read(conn, guild_id)
            conn.execute(
                "UPDATE drop_settings SET last_active_at = ? WHERE guild_id = ?", (to_db(now), guild_id)
            )
            self._arm(conn, now, read(conn, guild_id))
            return read(conn, guild_id)

        return await self.db.write(unit)

    # -- activity -------------------------------------------------------------------------------------

    async def activity(self, guild_id: int, player_id: int) -> None:
        """After a slash command in a server: written when the tracker says so (a player new to the
        server today, or a minute since the server's last write), else nothing at all."""
        now = self.clock.now()
        day = self.tracker.due(guild_id, player_id, now)
        if day is None:
            return
        await self.db.write(lambda conn: self._touch(conn, now, day, guild_id, player_id))

    def _touch(self, conn: Connection, now: datetime, day: date, guild_id: int, player_id: int) -> None:
        ensure_player(conn, player_id, now, self.registry)
        conn.execute(
            "INSERT INTO guild_players (guild_id, player_id, first_seen, last_day) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, player_id) DO UPDATE SET last_day = excluded.last_day"
            " WHERE guild_players.last_day <> excluded.last_day",
            (guild_id, player_id, to_db(now), day.isoformat()),
        )
        touched = conn.execute(
            "UPDATE drop_settings SET last_active_at = ? WHERE guild_id = ?", (to_db(now), guild_id)
        ).rowcount
        if touched:
            self._arm(conn, now, read(conn, guild_id))

    def _room(self, conn: Connection, settings: DropSettings, day: date) -> bool:
        return allowed_today(
            settings.pace, _drops_on(conn, settings.guild_id, day), _active_on(conn, settings.guild_id, day)
        )

    def _arm(self, conn: Connection, now: datetime, settings: DropSettings) -> None:
        """Arm the server's next drop, unless one is armed already or its day has no room left."""
        if not settings.on or _job_due(conn, settings.next_job):
            return
        if not self._room(conn, settings, self.day_of(now)):
            return
        low, high = ARM_DELAY
        due = now + low + timedelta(seconds=self.rng.randrange(int((high - low).total_seconds()) + 1))
        last = _last_drop_at(conn, settings.guild_id)
        if last is not None:
            due = max(due, last + settings.pace.gap)
        job = schedule(conn, now, NEXT_JOB, due, {"guild": settings.guild_id})
        conn.execute("UPDATE drop_settings SET next_job = ? WHERE guild_id = ?", (job, settings.guild_id))

    # -- opening --------------------------------------------------------------------------------------

    def on_next(self, conn: Connection, job: Job, now: datetime) -> None:
        guild_id = int(job.payload["guild"])
        conn.execute(
            "UPDATE drop_settings SET next_job = NULL WHERE guild_id = ? AND next_job = ?", (guild_id, job.id)
        )
        settings = read(conn, guild_id)
        if (
            not settings.on
            or settings.last_active_at is None
            or now - settings.last_active_at > ACTIVE_WINDOW
        ):
            return  # a quiet server: its next command arms the drop again
        last = _last_drop_at(conn, guild_id)
        if (last is not None and now < last + settings.pace.gap) or not self._room(
            conn, settings, self.day_of(now)
        ):
            return
        channel = guild_settings.read(conn, guild_id).games_channel_id
        paused = read_access(conn, guild_id).paused
        candidates = [key for key in settings.eligible(self._pools()) if key not in paused]
        if channel is None or not candidates:
            return
        self.open_drop(conn, now, guild_id, channel, candidates[self.rng.randrange(len(candidates))])

    def _pools(self) -> list[str]:
        return [
            key
            for key in self.catalogs
            if (spec := self.registry.get(key)) is not None and spec.drops is not None
        ]

    def open_drop(self, conn: Connection, now: datetime, guild_id: int, channel: int, game: str) -> int:
        """A drop of `game` in `channel`, in the caller's unit: the job's last step, once its checks passed
        (and the crash test's way to open drops at will)."""
        spec = self.registry.get(game)
        assert spec is not None
        assert spec.drops is not None
        catalog = self.catalogs[game]
        prize = spec.drops.draw(self.rng, catalog)
        seed = f"{self.rng.getrandbits(8 * fair_draw.SEED_BYTES):0{2 * fair_draw.SEED_BYTES}x}"
        commitment = fair_draw.commitment(seed)
        closes = now + self.window
        drop_id = int(
            conn.execute(
                "INSERT INTO drops (guild_id, channel_id, game, prize, seed, commitment, day, opened_at, closes_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel,
                    game,
                    prize.to_json(),
                    seed,
                    commitment,
                    self.day_of(now).isoformat(),
                    to_db(now),
                    to_db(closes),
                ),
            ).fetchone()[0]
        )
        view = posts.DropView(
            drop_id, game, self._game_name(game), prize, posts.card_name(catalog, prize), commitment, closes
        )
        wishers = (
            []
            if prize.card_id is None
            else wishers_here(conn, guild_id, game, prize.card_id, self.day_of(now))
        )
        spec_post = posts.drop_post(view, wishers, int(self.window.total_seconds()))
        item = outbox.enqueue(conn, now, Target("channel", channel, guild_id=guild_id), spec_post)
        conn.execute("UPDATE drops SET message_item = ? WHERE id = ?", (item, drop_id))
        schedule(conn, now, CLOSE_JOB, closes, {"drop": drop_id}, period_key=str(drop_id))
        return drop_id

    # -- entering -------------------------------------------------------------------------------------

    async def enter(self, drop_id: int, guild_id: int, player_id: int) -> Entered:
        """« Prendre »: the player enters the drop's draw once, if the window is open and they have not
        won their day's drops already. A drop of another server is answered as an unknown one."""
        now = self.clock.now()

        def unit(conn: Connection) -> Entered:
            drop = _load(conn, drop_id, guild_id)
            if drop is None:
                raise NotFound("drops.error.not_found")
            if drop.status != "open" or now >= drop.closes_at:
                raise DropClosed()
            refusal = read_access(conn, guild_id).refusal(drop.game, player_id)
            if refusal is not None:  # the drop's game paused here since it appeared, or the player banned
                spec = self.registry.get(drop.game)
                raise NotAllowed(
                    refusal, game=Text(spec.name_key) if spec is not None else Text.raw(drop.game)
                )
            ensure_player(conn, player_id, now, self.registry)
            row = conn.execute(
                "SELECT position FROM drop_entries WHERE drop_id = ? AND player_id = ?", (drop_id, player_id)
            ).fetchone()
            if row is not None:
                return Entered(drop_id, False, drop.closes_at, int(row[0]))
            if wins_on(conn, player_id, self.day_of(now)) >= WINS_PER_DAY:
                raise NotAllowed("drops.error.daily_wins", count=WINS_PER_DAY)
            position = int(
                conn.execute(
                    "INSERT INTO drop_entries (drop_id, player_id, position, entered_at)"
                    " SELECT ?, ?, COALESCE(MAX(position), 0) + 1, ? FROM drop_entries WHERE drop_id = ?"
                    " RETURNING position",
                    (drop_id, player_id, to_db(now), drop_id),
                ).fetchone()[0]
            )
            return Entered(drop_id, True, drop.closes_at, position)

        return await self.db.write(unit)

    # -- the draw -------------------------------------------------------------------------------------

    def on_close(self, conn: Connection, job: Job, now: datetime) -> None:
        drop = _load(conn, int(job.payload["drop"]), None)
        if drop is None or drop.status != "open":
            return
        listed = entries(conn, drop.id)
        if now - drop.closes_at > LATE_CLOSE:
            self._end(conn, now, drop, "void", listed, posts.void_text(self._view(drop)))
            return
        if not listed:
            self._end(conn, now, drop, "empty", listed, posts.empty_text(self._view(drop)))
            return
        won_day = self.day_of(now)
        order = fair_draw.draw(drop.seed, listed, len(listed))
        skipped = 0
        for position in order:
            player = _player_of(listed[position])
            if not is_erased(player) and wins_on(conn, player, won_day) < WINS_PER_DAY:
                self._pay(conn, now, drop, player, listed, skipped, won_day)
                return
            skipped += 1
        # everyone who entered reached their day's limit meanwhile (or erased their data): nobody wins
        view = self._view(drop)
        self._end(conn, now, drop, "empty", listed, posts.capped_text(view, len(listed)), skipped=skipped)

    def _game_name(self, game: str) -> Text:
        spec = self.registry.get(game)
        return Text(spec.name_key) if spec is not None else Text.raw(game)

    def _view(self, drop: _Drop) -> posts.DropView:
        catalog = self.catalogs.get(drop.game)
        name = posts.card_name(catalog, drop.prize)
        return posts.DropView(
            drop.id, drop.game, self._game_name(drop.game), drop.prize, name, drop.commitment, drop.closes_at
        )

    def _pay(
        self,
        conn: Connection,
        now: datetime,
        drop: _Drop,
        winner: int,
        listed: list[str],
        skipped: int,
        won_day: date,
    ) -> None:
        why = ledger.Movement(REASON_PRIZE, ref=f"drop:{drop.id}")
        prize = drop.prize
        copy_id = None
        if prize.card_id is not None:
            copy_id = ledger.mint_card(conn, now, winner, drop.game, prize.card_id, why, dict(prize.attrs))
        else:
            assert prize.currency is not None
            ledger.credit(conn, now, winner, prize.currency, prize.amount, why)
        view = self._view(drop)
        body = posts.won_text(view, winner, len(listed))
        self._end(
            conn,
            now,
            drop,
            "drawn",
            listed,
            body,
            skipped=skipped,
            winner=winner,
            copy_id=copy_id,
            won_day=won_day,
        )

    def _end(
        self,
        conn: Connection,
        now: datetime,
        drop: _Drop,
        status: str,
        listed: list[str],
        body: Any,
        *,
        skipped: int = 0,
        winner: int | None = None,
        copy_id: int | None = None,
        won_day: date | None = None,
    ) -> None:
        """The drop's end in the draw's unit: its row (guarded: a second end rolls the unit back) and the
        one edit of its post."""
        updated = conn.execute(
            "UPDATE drops SET status = ?, digest = ?, entrants = ?, skipped = ?, winner_id = ?, copy_id = ?,"
            " won_day = ?, closed_at = ? WHERE id = ? AND status = 'open'",
            (
                status,
                fair_draw.entries_digest(listed),
                len(listed),
                skipped,
                winner,
                copy_id,
                None if won_day is None else won_day.isoformat(),
                to_db(now),
                drop.id,
            ),
        ).rowcount
        if updated != 1:
            raise RuntimeError(f"drop {drop.id} was ended twice")
        drawn = status == "drawn" or skipped > 0
        spec = posts.ended_post(self._view(drop), body, won=status == "drawn", verify=drawn, ping=winner)
        if drop.message_item is not None:
            target = Target("channel", drop.channel_id, guild_id=drop.guild_id)
            outbox.enqueue(conn, now, target, spec, edit_of=drop.message_item)

    # -- the proof ------------------------------------------------------------------------------------

    async def verify(self, drop_id: int, guild_id: int) -> Verification:
        """« Vérifier »: recompute a drawn drop of this server from what it published. A drop still open
        is refused: its seed is revealed with its result, never before."""

        def unit(conn: Connection) -> tuple[_Drop, list[str]] | None:
            drop = _load(conn, drop_id, guild_id)
            return None if drop is None else (drop, entries(conn, drop_id))

        found = await self.db.read(unit)
        if found is None:
            raise NotFound("drops.error.not_found")
        drop, listed = found
        if drop.status == "open":
            raise NotAllowed("drops.error.not_drawn")
        if drop.status == "void" or drop.digest is None or not listed:
            raise NotAllowed("drops.error.no_draw")
        count = drop.skipped + (1 if drop.winner_id is not None else 0)
        order = fair_draw.draw(drop.seed, listed, count)
        proof = posts.Proof(
            drop.id,
            drop.commitment,
            drop.seed,
            drop.digest,
            tuple(listed),
            tuple(listed[position] for position in order),
            drop.winner_id,
        )
        verdict = fair_draw.check_published(posts.published(proof))
        if verdict.ok and drop.winner_id is not None and _player_of(proof.drawn[-1]) != drop.winner_id:
            verdict = fair_draw.Verdict(False, "winners")
        if not verdict.ok and any(is_erased(_player_of(entry)) for entry in listed):
            # an entrant erased their data since the draw: the list no longer reads as it was published
            verdict = fair_draw.Verdict(False, ERASED)
        return Verification(proof, verdict)
