"""Interaction callbacks ask Discord for the created message only where the bot reads it (issue 19):
discord_app/callbacks.py."""

from __future__ import annotations

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from discord_app.callbacks import CallbackAdapter
from emulator.records import RequestRecord, walk_components
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import decide_once, give, start_rank_1, with_deck


def callbacks(harness: BotHarness) -> list[RequestRecord]:
    return [r for r in harness.emu.requests if r.method == "POST" and r.path.endswith("/callback")]


def asked_for_the_message(record: RequestRecord) -> bool:
    return record.query.get("with_response", "").lower() in ("1", "true")


async def test_commands_and_clicks_do_not_ask_for_the_message_they_create(harness: BotHarness) -> None:
    dave = harness.user("dave")
    await give(harness, dave, "orc_mage_1")
    profile = await harness.emu.run_command(dave, "profile")
    assert profile.message is not None
    assert "Profil de dave" in str(profile.message.render())
    page = await harness.emu.run_command(dave, "hoss collection")
    assert page.message is not None
    menu = next(c for c in walk_components(page.message.components) if c.get("type") == 3)
    copy_id = str(menu["options"][0]["value"])
    detail = await harness.emu.select(dave, values=[copy_id], message=page.message)  # sends its image
    assert detail.message is not None
    sent = callbacks(harness)
    assert len(sent) == 3
    assert sent[2].files  # the detail's image: a multipart callback
    assert all(r.status == 204 for r in sent)
    assert not any(asked_for_the_message(r) for r in sent)


@pytest.mark.usefixtures("no_pacing")
async def test_the_battle_message_asks_for_its_id_and_the_outbox_edits_it(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    before = len(callbacks(harness))
    started = await start_rank_1(harness, alice)
    await harness.settle()
    battle_callbacks = callbacks(harness)[before:]
    # the ladder (/hoss rang), then the click that posts the battle
    assert [asked_for_the_message(r) for r in battle_callbacks] == [False, True]
    assert [r.status for r in battle_callbacks] == [204, 200]
    await decide_once(harness, alice)
    assert started.history  # the outbox edited the message whose id the callback returned
    assert harness.bot is not None
    http = harness.bot.callbacks.http
    kept = sum(conn.uses for conns in http._idle.values() for conn in conns)
    assert kept == len(callbacks(harness))  # the one asking for its message too (aiohttp's path before)


async def test_the_adapter_stays_inside_the_bots_interactions(harness: BotHarness) -> None:
    """Another client of the process (here: the test's own context) keeps discord.py's adapter."""
    await harness.emu.run_command(harness.user("erin"), "profile")
    adapter = async_context.get()
    assert isinstance(adapter, AsyncWebhookAdapter)
    assert not isinstance(adapter, CallbackAdapter)


async def test_commands_are_answered_over_one_kept_alive_connection(harness: BotHarness) -> None:
    """The bot's callbacks go over its own connections (discord_app/callback_http.py), reused."""
    assert harness.bot is not None
    frank = harness.user("frank")
    for _ in range(3):
        answer = await harness.emu.run_command(frank, "help")
        assert answer.message is not None
        assert "Aide" in str(answer.message.render())
    assert [r.status for r in callbacks(harness)] == [204, 204, 204]
    assert harness.bot.callbacks.http.opened == 1


async def test_a_rate_limited_callback_is_sent_again_after_the_wait(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.emu.rate_limit(r"/interactions/\d+/[^/]+/callback", method="POST", times=1, retry_after=0.01)
    answer = await harness.emu.run_command(harness.user("gina"), "profile")
    assert answer.message is not None
    assert "Profil de gina" in str(answer.message.render())
    assert [r.status for r in callbacks(harness)] == [429, 204]


async def test_a_reply_with_a_picture_goes_over_the_same_kept_alive_connection(harness: BotHarness) -> None:
    """/profile attaches its picture: the multipart callback is written by the bot
    (`callbacks.multipart_body`) and sent over its own connection, as a reply without a file is."""
    assert harness.bot is not None
    hugo = harness.user("hugo")
    await harness.emu.run_command(hugo, "help")
    for _ in range(2):
        answer = await harness.emu.run_command(hugo, "profile")
        assert answer.message is not None
        assert "Profil de hugo" in str(answer.message.render())
        assert [a.data[:4] for a in answer.message.attachments] == [b"\x89PNG"]
    sent = callbacks(harness)
    assert [r.status for r in sent] == [204, 204, 204]
    assert [len(r.files) for r in sent] == [0, 1, 1]
    http = harness.bot.callbacks.http
    assert http.opened == 1
    assert sum(conn.uses for kept in http._idle.values() for conn in kept) == 3  # aiohttp's path: 1


async def test_a_deferred_answer_goes_over_the_same_kept_alive_connection(harness: BotHarness) -> None:
    """A bulk sale's confirmation defers, then edits its response (discord_app/deferral.py): both over
    the bot's own connection, as the quote's callback."""
    assert harness.bot is not None
    ines = harness.user("ines")
    for _ in range(2):
        await give(harness, ines, "orc_mage_1")
    quoted = await harness.emu.run_command(ines, "hoss vendre doublons")
    sold = await harness.emu.click(ines, "Confirmer la vente")
    assert sold.message is quoted.message
    assert sold.message is not None
    assert "Vente confirmée" in str(sold.message.render())
    edits = [r for r in harness.emu.requests if r.method == "PATCH" and r.path.endswith("/@original")]
    assert [r.status for r in edits] == [200]
    http = harness.bot.callbacks.http
    assert http.opened == 1
    assert sum(conn.uses for kept in http._idle.values() for conn in kept) == 3  # aiohttp's path: 2
