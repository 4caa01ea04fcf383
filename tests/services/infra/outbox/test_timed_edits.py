"""Outbox items timed on the clock (`not_before`): an edit is due only once the clock passes its time,
edits of one message keep their order, a waiting edit does not hold back the rest of its channel, and
an interaction's message recorded as sent (`record_sent`) can be edited like any post."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from services.infra import outbox
from services.infra.messages import Attachment, MessageSpec, Target, Text
from services.infra.outbox import Outbox
from store.db import Database
from tests.services.infra.outbox.helpers import CHANNEL, START, box, clock, db, put, say

__all__ = ["box", "clock", "db"]  # the fixtures, shared with test_queue.py

SECOND = timedelta(seconds=1)


async def shown_message(db: Database, clock: ManualClock, message_id: int) -> int:
    now = clock.now()
    return await db.write(lambda conn: outbox.record_sent(conn, now, CHANNEL, say("shown"), message_id))


async def timed_edit(db: Database, clock: ManualClock, item: int, key: str, after: timedelta) -> int:
    now = clock.now()
    return await db.write(
        lambda conn: outbox.enqueue(conn, now, CHANNEL, say(key), edit_of=item, not_before=now + after)
    )


async def test_an_edit_is_due_only_once_the_clock_passes_its_time(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    message = await shown_message(db, clock, 555)
    now_edit = await timed_edit(db, clock, message, "round 1", timedelta(0))
    later = await timed_edit(db, clock, message, "round 2", 5 * SECOND)
    due = await box.due()
    assert [i.id for i in due] == [now_edit]
    assert due[0].edit_message_id == 555
    await box.mark_sent(now_edit, 555)
    assert await box.due() == []
    assert await box.next_due_at() == START + 5 * SECOND
    clock.advance(4 * SECOND)
    assert await box.due() == []
    clock.advance(SECOND)
    assert [i.id for i in await box.due()] == [later]


async def test_a_waiting_edit_holds_back_its_message_only(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    message = await shown_message(db, clock, 555)
    first = await timed_edit(db, clock, message, "round 1", 10 * SECOND)
    second = await timed_edit(db, clock, message, "round 2", timedelta(0))  # written later: goes later
    post = await put(db, clock, CHANNEL, say("another game's post"))
    assert [i.id for i in await box.due()] == [post]  # the channel is not held by the waiting edit
    await box.mark_sent(post, 777)
    assert await box.due() == []  # "round 2" stays behind "round 1"
    clock.advance(10 * SECOND)
    assert [i.id for i in await box.due()] == [first]
    await box.mark_sent(first, 555)
    assert [i.id for i in await box.due()] == [second]


async def test_edits_waiting_gives_the_time_of_the_last_queued_edit(
    db: Database, box: Outbox, clock: ManualClock
) -> None:
    message = await shown_message(db, clock, 555)
    assert await db.read(lambda conn: outbox.edits_waiting(conn, message)) is None
    await timed_edit(db, clock, message, "round 1", timedelta(0))
    last = await timed_edit(db, clock, message, "round 2", 5 * SECOND)
    assert await db.read(lambda conn: outbox.edits_waiting(conn, message)) == START + 5 * SECOND
    clock.advance(5 * SECOND)
    for item in await box.due():
        await box.mark_sent(item.id, 555)
    await box.mark_sent(last, 555)
    assert await db.read(lambda conn: outbox.edits_waiting(conn, message)) is None


def test_an_attachment_survives_the_payload() -> None:
    spec = MessageSpec(attachments=(Attachment("log.json", '{"a": "é"}'),))
    assert MessageSpec.from_json(spec.to_json()) == spec


def test_a_file_written_for_readers_is_rendered_in_the_message_language() -> None:
    """A `Text` attachment (a battle told round by round) keeps its languages in the stored payload and is
    written in the language the message is delivered in."""
    story = Text.per_locale({"fr": "Manche 1", "en": "Round 1"})
    spec = MessageSpec(attachments=(Attachment("log.txt", story), Attachment("log.json", "{}")))
    again = MessageSpec.from_json(spec.to_json())
    assert again == spec
    assert [a.body("fr") for a in again.attachments] == ["Manche 1", "{}"]
    assert [a.body("en") for a in again.attachments] == ["Round 1", "{}"]


async def test_only_channel_messages_are_recorded_for_edits(db: Database, clock: ManualClock) -> None:
    now = clock.now()
    with pytest.raises(ValueError, match="channel"):
        await db.write(
            lambda conn: outbox.record_sent(conn, now, Target("dm", 11, guild_id=None), say("x"), 1)
        )


async def test_recording_a_shown_message_wakes_no_deliverer(db: Database, clock: ManualClock) -> None:
    """It is already sent: a deliverer woken by it would read the outbox to find nothing (issue 39)."""
    woken: list[str] = []
    db.subscribe(outbox.TOPIC, lambda: woken.append("woken"))
    message = await shown_message(db, clock, 555)
    assert woken == []
    await timed_edit(db, clock, message, "round 1", timedelta(0))
    assert woken == ["woken"]
