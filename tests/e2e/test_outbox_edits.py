"""Outbox items that edit a message an earlier item sent: one public message kept up to date (a duel's),
edits delivered in order after the original, buttons removed when the new version has none, and an edit
whose original was never delivered ends as failed instead of posting something new."""

from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from services.infra.messages import Button, MessageSpec, Target, Text
from services.infra.outbox import enqueue
from store.connection import Connection
from tests.e2e.outbox import queue
from tests.support.messages_built import messages_built


async def test_edits_follow_the_original_in_order(harness: BotHarness) -> None:
    assert harness.games_channel is not None
    first = MessageSpec(content=Text.raw("round 1"), buttons=(Button(Text.raw("Jouer"), "x:play:1"),))
    second = MessageSpec(content=Text.raw("round 2"), buttons=(Button(Text.raw("Jouer"), "x:play:1"),))
    final = MessageSpec(content=Text.raw("the end"))
    await queue(harness, [(first, False), (second, True), (final, True)], harness.games_channel.id)
    posted = harness.emu.channel_messages(harness.games_channel)
    assert len(posted) == 1
    message = posted[0]
    assert message.content == "the end"
    assert message.components == []
    assert [state.get("content") for state in message.history] == ["round 1", "round 2"]


async def test_an_edit_of_a_message_never_sent_fails_without_posting(harness: BotHarness) -> None:
    assert harness.bot is not None
    assert harness.games_channel is not None
    services = harness.bot.services
    now = services.clock.now()
    channel = harness.games_channel.id

    def unit(conn: Connection) -> tuple[int, int]:
        original = enqueue(
            conn, now, Target("channel", channel, guild_id=None), MessageSpec(content=Text.raw("lost"))
        )
        # as if Discord had refused it for good (e.g. missing access at the time)
        conn.execute("UPDATE outbox SET state = 'failed', last_error = 'refused' WHERE id = ?", (original,))
        edit = enqueue(
            conn,
            now,
            Target("channel", channel, guild_id=None),
            MessageSpec(content=Text.raw("x")),
            edit_of=original,
        )
        return original, edit

    original_id, edit_id = await services.db.write(unit)
    await harness.settle()
    edited = await services.outbox.get(edit_id)
    assert edited is not None
    assert edited.state == "failed"
    assert "never sent" in (edited.last_error or "")
    assert harness.emu.channel_messages(harness.games_channel) == []
    assert original_id < edit_id


async def test_the_deliverer_builds_no_message_from_discords_answers(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post and its edits are delivered without a `discord.Message` made from each answer (the deliverer
    needs the new message's id only: discord_app/posts_http.py), nor kept in the client's cache."""
    assert harness.games_channel is not None
    assert harness.bot is not None
    built = messages_built(monkeypatch)
    cached = len(harness.bot.cached_messages)
    first = MessageSpec(content=Text.raw("round 1"), buttons=(Button(Text.raw("Jouer"), "x:play:2"),))
    second = MessageSpec(content=Text.raw("round 2"))
    await queue(harness, [(first, False), (second, True)], harness.games_channel.id)
    posted = harness.emu.channel_messages(harness.games_channel)
    assert [m.content for m in posted] == ["round 2"]
    assert built == []
    assert len(harness.bot.cached_messages) == cached
