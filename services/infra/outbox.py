"""Messages Discord must receive, stored in the transaction that produced them and delivered afterwards.

A service never awaits Discord inside a write transaction. It calls `enqueue` in its own write unit, so
a message exists iff the change it announces committed; the Discord layer's deliverer then reads `due`
items and reports back with `mark_sent` (`mark_all_sent`), `mark_retry`, `mark_failed`, `mark_undeliverable` or
`mark_dms_closed`. Nothing is dropped because Discord is unavailable: transient errors are retried with
back-off, forever; only a permanent error (unknown channel, missing access) ends a message as 'failed'.
A channel post the bot may not make (a permission removed) is 'failed' with the permissions it needed,
and the game's players hear of it by DM, since nobody would see the post's absence otherwise.

Messages to one target leave in the order they were written: only the oldest pending message of each
channel or DM is ever due, so a message waiting for its retry holds back the ones queued after it.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Literal, cast

from core.clock import Clock, from_db, to_db
from services.infra.channel_permissions import permission_list
from services.infra.games import GameRegistry
from services.infra.kept_specs import spec_of
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox_queue import TOPIC as TOPIC
from services.infra.outbox_queue import drop_waiting_edits as drop_waiting_edits
from services.infra.outbox_queue import editable as editable
from services.infra.outbox_queue import edits_waiting as edits_waiting
from services.infra.outbox_queue import enqueue as enqueue
from services.infra.outbox_queue import record_sent as record_sent
from services.infra.players import ensure_player
from services.infra.shards import Shards, sent_here
from services.infra.shards import release as release_shards
from store.connection import Connection
from store.db import Database, announce, dialect, skip_locked

RETRY_BASE = timedelta(seconds=5)
RETRY_CAP = timedelta(minutes=10)
ERROR_TEXT_MAX = 2000
CLAIM = timedelta(minutes=5)  # how long an item handed to one process's deliverer is left to it (`pending`)
# How far another process's claim may end past `now + CLAIM` and still hold: its `now` may be later than
# ours (read after ours, while our unit waited for a connection; another host's clock).
CLAIM_SKEW = timedelta(minutes=1)

OutboxState = Literal["pending", "sent", "fallback", "failed"]
NoncePurpose = Literal["post", "fallback"]
NONCE_PURPOSES: dict[NoncePurpose, str] = {"post": "p", "fallback": "f"}


def retry_delay(attempts: int) -> timedelta:
    """Wait after the `attempts`-th failed delivery: 5 s, 10 s, 20 s... capped at 10 minutes."""
    return min(RETRY_BASE * (1 << min(max(attempts - 1, 0), 16)), RETRY_CAP)


@dataclass(frozen=True)
class OutboxItem:
    id: int
    target: Target
    spec: MessageSpec
    state: OutboxState
    attempts: int
    created_at: datetime
    next_attempt_at: datetime
    last_error: str | None
    sent_message_id: int | None
    locale: str | None  # a DM recipient's language: their explicit choice, else their last Discord locale
    dms_closed: bool  # the DM recipient is known to refuse DMs: use the fallback channel directly
    edit_of: int | None = None  # this item edits the message that item sent
    edit_message_id: int | None = None  # that message's id, once it was sent
    nonce_prefix: str = ""  # this database's random prefix (see `nonce`)
    undeliverable: tuple[str, ...] = ()  # a refused post: the permissions it needed there

    def nonce(self, purpose: NoncePurpose = "post") -> str:
        """The create-message nonce of this item's post, or of its closed-DM fallback post.

        Sent with `enforce_nonce`, it makes Discord return the first message when a post is sent again
        (a crash between sending and `mark_sent`), for a few minutes. Unique across databases that share
        a bot token: the database's random prefix, the purpose, the row id in base 36; at most 24 of the
        25 characters Discord allows."""
        return f"{self.nonce_prefix}{NONCE_PURPOSES[purpose]}{_base36(self.id)}"


@dataclass(frozen=True)
class Pending:
    """What `Outbox.pending` found: the items to send now, when to look again for what is left (None:
    nothing pending), and whether the items are every one due with nothing queued behind them, so that
    once they are all sent nothing else falls due before `next_at` but what a later commit queues."""

    items: list[OutboxItem]
    next_at: datetime | None
    complete: bool


_SELECT = (
    "SELECT o.id, o.created_at, o.target_kind, o.target_id, o.fallback_channel_id, o.payload, o.state,"
    " o.attempts, o.next_attempt_at, o.last_error, o.sent_message_id,"
    " COALESCE(p.locale, p.last_locale) AS locale, COALESCE(p.dms_closed, 0) AS dms_closed,"
    " o.edit_of, original.sent_message_id AS edit_message_id, o.players, o.undeliverable, o.guild_id,"
    " (SELECT prefix FROM outbox_nonce_prefix WHERE id = 1) AS nonce_prefix"
    " FROM outbox o LEFT JOIN players p ON o.target_kind = 'dm' AND p.id = o.target_id"
    " LEFT JOIN outbox original ON original.id = o.edit_of"
)
# Only the oldest pending message of a target may go out, so each channel and DM keeps its order. A
# timed item (`not_before`: a battle's rounds, minutes of them) holds back only the later edits of its
# own message: the channel's other messages pass it, whether it is waiting or not.
_BEHIND = (
    "EXISTS (SELECT 1 FROM outbox e WHERE e.state = 'pending'"
    " AND e.target_kind = o.target_kind AND e.target_id = o.target_id AND e.id < o.id"
    " AND (e.not_before IS NULL OR e.edit_of = o.edit_of))"
)


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if number == 0:
            return digits


def _due_at(now: datetime, next_attempt_at: datetime, attempts: int) -> datetime:
    """When an item is really due, whatever the wall clock did since its retry time was written.

    A retry time is never further ahead than the item's back-off (none before its first attempt). One
    that is means the clock went back since: waiting for the clock to catch up would hold the target
    for as long as the jump, so the item is due now, one early attempt at most."""
    bound = retry_delay(attempts) if attempts else timedelta(0)
    return next_attempt_at if next_attempt_at - now <= bound else now


@dataclass(frozen=True)
class Heads:
    """The oldest pending item of each target and when it is due, oldest first, and whether any pending
    item waits behind one of them (it may fall due as soon as the one before it is sent)."""

    due_at: list[tuple[int, datetime]]
    behind: bool


def _heads(conn: Connection, now: datetime, shards: Shards | None = None) -> Heads:
    """The pending items' heads (`Heads`); a timed item is due at its `not_before` time at the earliest,
    and is a head of its own beside its target's other messages. With `shards`, only the items this
    process sends (services/infra/shards.py `sent_here`)."""
    here, params = sent_here(shards)
    rows = conn.execute(
        "SELECT o.id, o.next_attempt_at, o.attempts, o.not_before, o.claimed_until,"
        f" {_BEHIND} AS behind FROM outbox o WHERE o.state = 'pending'{here} ORDER BY o.id",
        params,
    ).fetchall()
    heads = []
    behind = False
    for row in rows:
        if row[5]:
            behind = True
            continue
        due_at = _due_at(now, from_db(row[1]), int(row[2]))
        if row[3] is not None:
            due_at = max(due_at, from_db(row[3]))
        if (claim := _live_claim(now, row[4])) is not None:
            due_at = max(due_at, claim)
        heads.append((int(row[0]), due_at))
    return Heads(heads, behind)


def _live_claim(now: datetime, claimed_until: str | None) -> datetime | None:
    """The end of another deliverer's claim on an item (`pending`), if it still holds: one further ahead
    than a claim can reach (with `CLAIM_SKEW` between the processes' clocks) means the clock went back
    since, and is over (as in `_due_at`). Without the skew, a claim written a second later than our
    `now` was read as from the future and taken again: the post went out twice (the nonce hid it)."""
    if claimed_until is None:
        return None
    until = from_db(claimed_until)
    return until if now < until <= now + CLAIM + CLAIM_SKEW else None


def _claim(
    conn: Connection, due: list[int], until: datetime, limit: int, process: str
) -> tuple[list[int], set[int]]:
    """Lock and claim the first `limit` due items no other deliverer holds right now; returns those taken,
    in order, and the due items other deliverers hold (known only when fewer than `limit` were free: the
    rows past the limit are neither locked nor looked at, so that the other deliverers may take them)."""
    marks = ", ".join("?" * len(due))
    taken = [
        int(row[0])
        for row in conn.execute(
            f"SELECT id FROM outbox WHERE id IN ({marks}) ORDER BY id LIMIT ?{skip_locked(conn)}",
            (*due, limit),
        )
    ]
    if taken:
        conn.execute(
            f"UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id IN ({', '.join('?' * len(taken))})",
            (to_db(until), process, *taken),
        )
    return taken, set(due) - set(taken) if len(taken) < limit else set()


def release_claims(conn: Connection, processes: list[str]) -> int:
    """Hand the pending items these processes' deliverers claimed back to whoever looks next, at once: the
    processes stopped (a clean shutdown) or stopped beating (services/infra/heartbeat.py). Returns how
    many; the deliverers are woken when there were some. An item a presumed-dead process was sending
    anyway goes again with the same nonce, and Discord returns the first message (as after a lapsed
    claim). The shards they held are released too: their servers' posts go to the live processes
    (services/infra/shards.py)."""
    if not processes:
        return 0
    release_shards(conn, processes, TOPIC)
    released = conn.execute(
        "UPDATE outbox SET claimed_until = NULL, claimed_by = NULL"
        f" WHERE state = 'pending' AND claimed_by IN ({', '.join('?' * len(processes))})",
        processes,
    ).rowcount
    if released:
        announce(conn, TOPIC)
    return released


# The players named by an item (a JSON array of ids) as rows `j.value`: the one statement of the outbox
# the two engines spell differently (their JSON functions).
_PLAYERS = {
    "sqlite": "json_each(e.players) j",
    "postgresql": "jsonb_array_elements_text(CAST(e.players AS jsonb)) AS j(value)",
}


def _told(conn: Connection, channel: int, player: int, before: int) -> bool:
    """Whether `player` already heard that the bot may not post in `channel`: an earlier refused post of
    theirs there, with no post delivered there since."""
    row = conn.execute(
        f"SELECT 1 FROM outbox e, {_PLAYERS[dialect(conn)]} WHERE e.target_kind = 'channel'"
        " AND e.target_id = ? AND e.id < ? AND e.undeliverable IS NOT NULL AND CAST(j.value AS BIGINT) = ?"
        " AND NOT EXISTS (SELECT 1 FROM outbox s WHERE s.target_kind = 'channel'"
        " AND s.target_id = e.target_id AND s.state = 'sent' AND s.id > e.id)",
        (channel, before, player),
    ).fetchone()
    return row is not None


def _item(row: sqlite3.Row) -> OutboxItem:
    return OutboxItem(
        id=int(row["id"]),
        target=Target(
            row["target_kind"],
            int(row["target_id"]),
            row["fallback_channel_id"],
            tuple(int(p) for p in json.loads(row["players"])),
            guild_id=row["guild_id"],
        ),
        spec=spec_of(row["payload"]),
        state=cast(OutboxState, row["state"]),
        attempts=int(row["attempts"]),
        created_at=from_db(row["created_at"]),
        next_attempt_at=from_db(row["next_attempt_at"]),
        last_error=row["last_error"],
        sent_message_id=row["sent_message_id"],
        locale=row["locale"],
        dms_closed=bool(row["dms_closed"]),
        edit_of=row["edit_of"],
        edit_message_id=row["edit_message_id"],
        nonce_prefix=row["nonce_prefix"],
        undeliverable=tuple(row["undeliverable"].split(",")) if row["undeliverable"] else (),
    )


def _record_sent(conn: Connection, sent: tuple[tuple[int, int], ...]) -> int:
    """`Outbox.mark_all_sent`'s unit: each item still pending marked sent with its message's id."""
    marked = 0
    for item_id, message_id in sent:
        row = conn.execute(
            "UPDATE outbox SET state = 'sent', sent_message_id = ? WHERE id = ? AND state = 'pending'"
            " RETURNING target_kind, target_id",
            (message_id, item_id),
        ).fetchone()
        if row is None:
            continue
        marked += 1
        if row["target_kind"] == "dm":
            conn.execute(
                "UPDATE players SET dms_closed = 0 WHERE id = ? AND dms_closed = 1",
                (row["target_id"],),
            )
    return marked


class Outbox:
    """The persistence side of delivery; the loop that talks to Discord lives in the Discord layer."""

    def __init__(
        self, db: Database, clock: Clock, registry: GameRegistry, shards: Shards | None = None
    ) -> None:
        """`shards`: the gateway shards this process holds (None: unsharded). Several processes sharing a
        database (PostgreSQL) then send only their servers' posts (services/infra/shards.py)."""
        self.db = db
        self.registry = registry
        self.clock = clock
        self.shards = shards if db.concurrent_writers else None

    async def due(self, limit: int = 50) -> list[OutboxItem]:
        """Messages to try now, oldest first, at most one per target (send them in the order given)."""
        return (await self.pending(limit)).items

    async def pending(self, limit: int = 50) -> Pending:
        """`due(limit)`, when to look again for what is left, and whether those items are all there is to
        send until then (`Pending`), in one read.

        A pass that sends every item of a complete read needs no further read before sleeping: the read
        that would follow could only find what a later commit queued, and that commit wakes the deliverer.
        A sharded process sees only the items it sends: its servers', those of no server, those of a shard
        no live process holds (services/infra/shards.py).

        When other processes drain the same outbox (`Database.concurrent_writers`: PostgreSQL), the items
        returned are claimed for `CLAIM` in the same unit, rows locked with SKIP LOCKED: another process's
        deliverer passes over them until they are marked sent (or failed, or retried) or the claim runs
        out (or the process stops beating: `release_claims`), so no item is sent by two processes. The
        claim names this process (`Database.process`). The claim's write follows a read that found something
        due: a pass with nothing to send stays one read. SQLite's one process needs no claim."""
        now = self.clock.now()

        def unit(conn: Connection, claiming: bool) -> Pending:
            heads = _heads(conn, now, self.shards)
            due = [item_id for item_id, due_at in heads.due_at if due_at <= now]
            ids, held = (
                _claim(conn, due, now + CLAIM, limit, self.db.process)
                if claiming and due
                else (due[:limit], set())
            )
            taken = set(ids)
            # An item another deliverer is claiming is its: look again when that claim could run out.
            later = min(
                (
                    now + CLAIM if item_id in held else due_at
                    for item_id, due_at in heads.due_at
                    if item_id not in taken
                ),
                default=None,
            )
            complete = not heads.behind and len(ids) == len(due)
            if not ids:
                return Pending([], later, complete)
            rows = conn.execute(
                f"{_SELECT} WHERE o.id IN ({', '.join('?' * len(ids))}) ORDER BY o.id", ids
            ).fetchall()
            return Pending([_item(row) for row in rows], later, complete)

        found = await self.db.read(partial(unit, claiming=False))
        if found.items and self.db.concurrent_writers:
            return await self.db.write(partial(unit, claiming=True))
        return found

    async def release(self) -> int:
        """At a clean shutdown, after the deliverer stopped: this process's claims go back at once to the
        processes still running. SQLite's one process claims nothing."""
        if not self.db.concurrent_writers:
            return 0
        process = self.db.process
        return await self.db.write(lambda conn: release_claims(conn, [process]))

    async def get(self, item_id: int) -> OutboxItem | None:
        """Any message in any state: the "show" button re-checks that the clicker is the DM's recipient."""

        def unit(conn: Connection) -> OutboxItem | None:
            row = conn.execute(f"{_SELECT} WHERE o.id = ?", (item_id,)).fetchone()
            return _item(row) if row else None

        return await self.db.read(unit)

    async def next_due_at(self) -> datetime | None:
        """When the deliverer should look again; None when nothing is pending."""
        now = self.clock.now()

        def unit(conn: Connection) -> datetime | None:
            return min((due_at for _, due_at in _heads(conn, now, self.shards).due_at), default=None)

        return await self.db.read(unit)

    async def paced_until(self) -> datetime | None:
        """When the last item waiting for a time of the clock (`not_before`: a battle's rounds shown one
        by one) falls due; None when none waits. Where the clock moves only when told to (the sandbox),
        this says how far to move it to see an animation to its end."""
        now = self.clock.now()

        def unit(conn: Connection) -> datetime | None:
            row = conn.execute(
                "SELECT MAX(not_before) FROM outbox WHERE state = 'pending' AND not_before > ?", (to_db(now),)
            ).fetchone()
            return None if row is None or row[0] is None else from_db(row[0])

        return await self.db.read(unit)

    async def mark_sent(self, item_id: int, message_id: int) -> bool:
        """Record one delivery (`mark_all_sent` of one)."""
        return bool(await self.mark_all_sent([(item_id, message_id)]))

    async def mark_all_sent(self, sent: Sequence[tuple[int, int]]) -> int:
        """Record deliveries, `(item id, message id)` each, in one transaction; returns how many were still
        pending. A DM that went through also proves the recipient's DMs are open again.

        The deliverer records the posts of a pass together: a turn's resolution and the next player's hand
        cost one commit instead of two. Until then they are pending, as between any send and its record:
        a crash sends them again with the same nonces (`OutboxItem.nonce`), and Discord keeps one message."""
        return await self.db.write(partial(_record_sent, sent=tuple(sent))) if sent else 0

    def mark_all_sent_soon(self, sent: Sequence[tuple[int, int]], within: timedelta) -> asyncio.Future[int]:
        """`mark_all_sent` riding with the next transaction the writer commits (`Database.write_soon`), or
        alone after `within`: the deliverer's pass that sent a command's posts leaves their record to the
        next command's commit instead of a commit and its flush of its own."""
        return self.db.write_soon(partial(_record_sent, sent=tuple(sent)), within=within.total_seconds())

    async def mark_retry(
        self, item_id: int, error: str, *, wait: timedelta = timedelta(0)
    ) -> datetime | None:
        """Try again later (Discord unavailable, rate limited...); returns when. Never dropped.

        A row already diverted to the fallback goes back to pending, so a failed fallback post is retried.
        `wait` is what Discord asked for (a rate limit's `retry_after`): the back-off skips ahead to cover
        it, up to its cap, so the next try is not one more 429 and the retry time stays within the
        back-off (`_due_at` reads a later one as a clock set back).
        """
        now = self.clock.now()

        def unit(conn: Connection) -> datetime | None:
            row = conn.execute(
                "SELECT attempts FROM outbox WHERE id = ? AND state IN ('pending', 'fallback')", (item_id,)
            ).fetchone()
            if row is None:
                return None
            attempts = int(row[0]) + 1
            while retry_delay(attempts) < min(wait, RETRY_CAP):
                attempts += 1
            retry_at = now + retry_delay(attempts)
            conn.execute(
                "UPDATE outbox SET state = 'pending', attempts = ?, last_error = ?, next_attempt_at = ?,"
                " claimed_until = NULL, claimed_by = NULL WHERE id = ?",
                (attempts, error[:ERROR_TEXT_MAX], to_db(retry_at), item_id),
            )
            return retry_at

        return await self.db.write(unit)

    async def mark_failed(self, item_id: int, error: str) -> bool:
        """A permanent error (unknown channel 10003, missing access 50001): retrying would waste requests."""

        def unit(conn: Connection) -> bool:
            cursor = conn.execute(
                "UPDATE outbox SET state = 'failed', last_error = ?"
                " WHERE id = ? AND state IN ('pending', 'fallback')",
                (error[:ERROR_TEXT_MAX], item_id),
            )
            return cursor.rowcount == 1

        return await self.db.write(unit)

    async def mark_undeliverable(self, item_id: int, needs: tuple[str, ...], error: str) -> bool:
        """Discord refused a channel post because the bot may not post there (403): never retried, and
        the game's players are told by DM which permissions the bot needs, in the same unit. Told once
        per channel: the following refusals there stay silent until a post there goes through again."""
        now = self.clock.now()

        def unit(conn: Connection) -> bool:
            row = conn.execute(
                "UPDATE outbox SET state = 'failed', last_error = ?, undeliverable = ?"
                " WHERE id = ? AND state = 'pending' AND target_kind = 'channel'"
                " RETURNING target_id, players",
                (error[:ERROR_TEXT_MAX], ",".join(needs), item_id),
            ).fetchone()
            if row is None:
                return False
            channel = int(row["target_id"])
            spec = MessageSpec(
                content=Text(
                    "outbox.undeliverable",
                    {"channel": f"<#{channel}>", "permissions": permission_list(needs)},
                )
            )
            for player in json.loads(row["players"]):
                if not _told(conn, channel, int(player), item_id):
                    enqueue(conn, now, Target("dm", int(player), guild_id=None), spec)
            return True

        return await self.db.write(unit)

    async def mark_dms_closed(self, item_id: int, player_id: int) -> bool:
        """The recipient refuses DMs (50007): remember it so later DMs skip the attempt, and divert this one
        to the private "show" fallback, both in one unit. Calling it again on a diverted row is harmless."""
        now = self.clock.now()

        def unit(conn: Connection) -> bool:
            row = conn.execute(
                "SELECT target_kind, target_id FROM outbox WHERE id = ?", (item_id,)
            ).fetchone()
            if row is None or row["target_kind"] != "dm" or int(row["target_id"]) != player_id:
                raise ValueError(f"outbox item {item_id} is not a DM to player {player_id}")
            # a DM can reach someone who never used a command
            ensure_player(conn, player_id, now, self.registry)
            conn.execute("UPDATE players SET dms_closed = 1 WHERE id = ?", (player_id,))
            cursor = conn.execute(
                "UPDATE outbox SET state = 'fallback' WHERE id = ? AND state IN ('pending', 'fallback')",
                (item_id,),
            )
            return cursor.rowcount == 1

        return await self.db.write(unit)

    async def reopen_dms(self, player_id: int) -> bool:
        """Let DMs be tried again for a player (they opened their DMs, or a DM to them went through)."""

        def unit(conn: Connection) -> bool:
            cursor = conn.execute(
                "UPDATE players SET dms_closed = 0 WHERE id = ? AND dms_closed = 1", (player_id,)
            )
            return cursor.rowcount == 1

        return await self.db.write(unit)
