"""The outbox on a real SQLite file: transactional enqueue, ordering, retries with back-off, closed DMs."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from services.infra import ledger, outbox
from services.infra.messages import Button, Embed, EmbedField, MessageSpec, Target, Text
from services.infra.outbox import Outbox
from store.connection import Connection
from store.db import Database
from tests.services.infra.outbox.helpers import ALICE, BOB, CAROL, CHANNEL, START, box, clock, db, put, say

__all__ = ["box", "clock", "db"]  # the fixtures, shared with test_timed_edits.py


def test_message_spec_json_round_trip_with_nested_texts() -> None:
    spec = MessageSpec(
        content=Text(
            "game.turn", {"player": Text.raw("Zoé"), "card": Text("card.name", {"n": 3}), "count": 2}
        ),
        embeds=(
            Embed(
                title=Text("hoss.title"),
                description=Text(
                    "hoss.pot", {"amount": 150, "who": Text("hoss.dealer", {"name": Text.raw("Bob")})}
                ),
                fields=(EmbedField(Text("f.name"), Text("f.value", {"x": [1, 2]}), inline=False),),
                color=0x2B2D31,
            ),
        ),
        buttons=(Button(Text("btn.show"), "outbox:show:7", "primary"),),
    )
    assert MessageSpec.from_json(spec.to_json()) == spec


async def test_enqueue_belongs_to_the_callers_transaction(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    now = clock.now()

    def failed_purchase(conn: Connection) -> None:
        ledger.credit(conn, now, ALICE, "gold", 5, ledger.Movement("test"))
        outbox.enqueue(conn, now, CHANNEL, say("shop.bought"))
        raise RuntimeError("the purchase failed after queuing its announcement")

    with pytest.raises(RuntimeError):
        await db.write(failed_purchase)
    assert await box.due() == []
    assert await box.next_due_at() is None
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]) == 0


async def test_due_decodes_targets_specs_and_dm_languages(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    spec = MessageSpec(
        content=Text("game.turn", {"who": Text.raw("Zoé")}), buttons=(Button(Text("b"), "g:a:1"),)
    )
    ids = [
        await put(db, clock, CHANNEL, spec),
        await put(db, clock, Target("dm", ALICE, fallback_channel_id=1001, guild_id=None), spec),
        await put(db, clock, Target("dm", BOB, guild_id=None), spec),
        await put(db, clock, Target("dm", CAROL, guild_id=None), spec),
    ]
    items = await box.due(10)
    assert [i.id for i in items] == ids
    assert [i.target for i in items] == [
        CHANNEL,
        Target("dm", ALICE, 1001, guild_id=None),
        Target("dm", BOB, guild_id=None),
        Target("dm", CAROL, guild_id=None),
    ]
    assert all(i.spec == spec and i.state == "pending" and i.attempts == 0 for i in items)
    assert [i.locale for i in items] == [None, "en", "fr", None]
    assert not any(i.dms_closed for i in items)
    assert [i.id for i in await box.due(2)] == ids[:2]


async def test_sent_messages_leave_the_queue(db: Database, box: Outbox, clock: ManualClock) -> None:
    item_id = await put(db, clock, CHANNEL, say("hello"))
    assert await box.next_due_at() == START
    assert await box.mark_sent(item_id, 987654321) is True
    assert await box.mark_sent(item_id, 987654321) is False
    assert await box.due() == []
    assert await box.next_due_at() is None
    item = await box.get(item_id)
    assert item is not None
    assert (item.state, item.sent_message_id) == ("sent", 987654321)
    assert await box.get(item_id + 100) is None


async def test_retry_backs_off_exponentially_and_never_drops(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    item_id = await put(db, clock, CHANNEL, say("hello"))
    waits = []
    for _ in range(12):
        retry_at = await box.mark_retry(item_id, "503 Service Unavailable")
        assert retry_at is not None
        waits.append((retry_at - clock.now()).total_seconds())
        assert await box.next_due_at() == retry_at
        clock.set(retry_at - timedelta(microseconds=1))
        assert await box.due() == []
        clock.set(retry_at)
        assert [i.id for i in await box.due()] == [item_id]
    assert waits == [5, 10, 20, 40, 80, 160, 320, 600, 600, 600, 600, 600]
    item = await box.get(item_id)
    assert item is not None
    assert (item.state, item.attempts, item.last_error) == (
        "pending",
        12,
        "503 Service Unavailable",
    )


async def test_one_target_keeps_its_order_while_others_flow(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    first = await put(db, clock, CHANNEL, say("1"))
    second = await put(db, clock, CHANNEL, say("2"))
    elsewhere = await put(db, clock, Target("channel", 2002, guild_id=None), say("x"))
    assert [i.id for i in await box.due()] == [first, elsewhere]  # one per target, oldest first
    await box.mark_retry(first, "timeout")
    await box.mark_sent(elsewhere, 1)
    assert await box.due() == []  # "2" waits behind "1"
    assert await box.next_due_at() == START + timedelta(seconds=5)  # not START: nothing is due before then
    clock.advance(timedelta(seconds=5))
    assert [i.id for i in await box.due()] == [first]
    await box.mark_sent(first, 2)
    assert [i.id for i in await box.due()] == [second]


async def test_permanent_errors_end_a_message(db: Database, box: Outbox, clock: ManualClock) -> None:
    item_id = await put(db, clock, Target("channel", 404, guild_id=None), say("hello"))
    assert await box.mark_failed(item_id, "404 10003 Unknown Channel") is True
    assert await box.due() == []
    assert await box.next_due_at() is None
    assert await box.mark_retry(item_id, "late") is None  # a finished row is never revived
    item = await box.get(item_id)
    assert item is not None
    assert (item.state, item.last_error) == ("failed", "404 10003 Unknown Channel")


async def test_closed_dms_divert_to_the_fallback_and_are_remembered(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    first = await put(db, clock, Target("dm", BOB, fallback_channel_id=1001, guild_id=None), say("your.hand"))
    assert await box.mark_dms_closed(first, BOB) is True
    assert await box.mark_dms_closed(first, BOB) is True  # the deliverer marks again after posting the button
    item = await box.get(first)
    assert item is not None
    assert item.state == "fallback"
    assert item.dms_closed
    assert await box.due() == []

    # The next DM says the recipient refuses DMs, so the deliverer goes straight to the fallback.
    second = await put(
        db, clock, Target("dm", BOB, fallback_channel_id=1001, guild_id=None), say("your.hand")
    )
    (due,) = await box.due()
    assert (due.id, due.dms_closed) == (second, True)

    # Posting the fallback button failed for a transient reason: the diverted message is retried.
    await box.mark_dms_closed(second, BOB)
    assert await box.mark_retry(second, "timeout") is not None
    clock.advance(timedelta(seconds=5))
    assert [i.id for i in await box.due()] == [second]

    with pytest.raises(ValueError, match="is not a DM to player"):
        await box.mark_dms_closed(second, ALICE)

    assert await box.reopen_dms(BOB) is True
    assert await box.reopen_dms(BOB) is False
    (due,) = await box.due()
    assert not due.dms_closed


async def test_a_delivered_dm_reopens_dms(db: Database, box: Outbox, clock: ManualClock) -> None:
    await db.write(lambda conn: conn.execute("UPDATE players SET dms_closed = 1 WHERE id = ?", (ALICE,)))
    item_id = await put(db, clock, Target("dm", ALICE, guild_id=None), say("hi"))
    assert await box.mark_sent(item_id, 5)
    dms_closed = await db.read(
        lambda conn: conn.execute("SELECT dms_closed FROM players WHERE id = ?", (ALICE,)).fetchone()[0]
    )
    assert dms_closed == 0


async def test_a_clock_gone_back_does_not_hold_the_queue(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    waiting = await put(db, clock, CHANNEL, say("retried"))
    retry_at = await box.mark_retry(waiting, "503 Service Unavailable")
    assert retry_at == START + timedelta(seconds=5)
    fresh = await put(db, clock, Target("channel", 2002, guild_id=None), say("new"))

    clock.set(START - timedelta(days=1))  # the host's clock is corrected a day back

    # Both are due now, not in a day: a retry time further ahead than its back-off predates the jump.
    assert [i.id for i in await box.due()] == [waiting, fresh]
    assert await box.next_due_at() == clock.now()
    await box.mark_sent(fresh, 1)

    # The next back-off counts from the corrected clock, and is respected again.
    retry_at = await box.mark_retry(waiting, "503 Service Unavailable")
    assert retry_at == clock.now() + timedelta(seconds=10)
    assert await box.due() == []
    assert await box.next_due_at() == retry_at
    clock.set(retry_at)
    assert [i.id for i in await box.due()] == [waiting]


async def test_a_small_jump_back_within_the_back_off_keeps_the_wait(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    item_id = await put(db, clock, CHANNEL, say("hello"))
    for _ in range(8):
        retry_at = await box.mark_retry(item_id, "timeout")
    assert retry_at == START + timedelta(minutes=10)
    clock.set(START + timedelta(minutes=5))
    assert await box.due() == []
    clock.set(START + timedelta(minutes=4))  # back a minute: the wait grows by that minute, no more
    assert await box.due() == []
    assert await box.next_due_at() == retry_at
    clock.set(START - timedelta(seconds=1))  # 10 min 1 s ahead is longer than any back-off: due now
    assert [i.id for i in await box.due()] == [item_id]
