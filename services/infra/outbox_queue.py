"""What a write unit queues in the outbox (services/infra/outbox.py, which re-exports it): a message
stored in the transaction that produced it, an interaction's response recorded as already sent, and the
look-ups of a message's edits that a unit makes before queuing the next one."""

from __future__ import annotations

import json
from datetime import datetime

from core.clock import from_db, to_db
from services.infra.kept_specs import payload
from services.infra.messages import MessageSpec, Target
from store.connection import Connection
from store.db import announce

TOPIC = "outbox"  # what `enqueue` announces to the commit (store.db.announce): the deliverer looks again


def enqueue(
    conn: Connection,
    now: datetime,
    target: Target,
    spec: MessageSpec,
    *,
    edit_of: int | None = None,
    not_before: datetime | None = None,
) -> int:
    """Queue a message in the caller's write unit; it is delivered only if that unit commits.

    With `edit_of` (an earlier item to the same channel), the message that item sent is edited to `spec`
    instead of a new one being sent. With `not_before`, the item waits for that time of the clock (a
    battle's rounds shown one by one); it holds back only the later edits of the same message, so the
    rest of its channel is not delayed by it."""
    if target.kind not in ("channel", "dm"):
        raise ValueError(f"unknown target kind {target.kind!r}")
    if edit_of is not None and target.kind != "channel":
        raise ValueError("only channel messages are edited")
    item = _insert(conn, now, target, spec, edit_of, not_before)
    announce(conn, TOPIC)
    return item


def _insert(
    conn: Connection,
    now: datetime,
    target: Target,
    spec: MessageSpec,
    edit_of: int | None = None,
    not_before: datetime | None = None,
    sent_message_id: int | None = None,
) -> int:
    """The item's row: pending, or already sent as `sent_message_id`."""
    row = conn.execute(
        "INSERT INTO outbox (created_at, target_kind, target_id, fallback_channel_id, payload,"
        " next_attempt_at, edit_of, players, not_before, guild_id, state, sent_message_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            to_db(now),
            target.kind,
            target.id,
            target.fallback_channel_id,
            payload(spec),
            to_db(now),
            edit_of,
            json.dumps(sorted(set(target.players))),
            to_db(not_before) if not_before is not None else None,
            target.guild_id,
            "pending" if sent_message_id is None else "sent",
            sent_message_id,
        ),
    ).fetchone()
    return int(row[0])


def record_sent(conn: Connection, now: datetime, target: Target, spec: MessageSpec, message_id: int) -> int:
    """Record a channel message the bot posted outside the outbox (an interaction's response) as an item
    already sent, so that later items can edit it (`edit_of`) like any message the outbox sent. Nothing
    is left to deliver, so the deliverer is not woken (`announce`)."""
    if target.kind != "channel":
        raise ValueError("only channel messages are edited")
    return _insert(conn, now, target, spec, sent_message_id=message_id)


def editable(conn: Connection, item: int, channel: int) -> bool:
    """Whether the message `item` posted can take the next edit: it is in `channel` (an announcements
    channel may have moved), its post did not fail (a refused or lost channel), and its
    latest edit did not fail (a message deleted by a moderator): otherwise a new post should replace it."""
    posted = conn.execute("SELECT target_id, state FROM outbox WHERE id = ?", (item,)).fetchone()
    if posted is None or int(posted[0]) != channel or posted[1] == "failed":
        return False
    last_edit = conn.execute(
        "SELECT state FROM outbox WHERE edit_of = ? ORDER BY id DESC LIMIT 1", (item,)
    ).fetchone()
    return last_edit is None or last_edit[0] != "failed"


def edits_waiting(conn: Connection, item: int) -> datetime | None:
    """When the last edit still queued for the message `item` sent is due (None: no edit is queued), so
    that new edits of it are timed after the ones already waiting."""
    row = conn.execute(
        "SELECT COUNT(*), MAX(COALESCE(not_before, created_at)) FROM outbox"
        " WHERE edit_of = ? AND state = 'pending'",
        (item,),
    ).fetchone()
    return from_db(row[1]) if row[0] else None


def drop_waiting_edits(conn: Connection, item: int, now: datetime) -> int:
    """Drop the edits of the message `item` sent that still wait for a later time of the clock, because
    the caller queues, in the same unit, an edit that shows the message's end (a battle skipped to its
    result): the rounds they would show one by one are no longer wanted. An edit already due stays (a
    deliverer may hold it), and the caller's edit is delivered after it. Returns how many were dropped."""
    cursor = conn.execute(
        "DELETE FROM outbox WHERE edit_of = ? AND state = 'pending' AND not_before > ?", (item, to_db(now))
    )
    return cursor.rowcount
