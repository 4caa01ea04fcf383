"""DMs, threads, channel posts, simulated outages and the emulator's own error reporting."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord.http import Route

from emulator import DiscordEmulator
from tests.emulator.conftest import EmulatedBot


async def test_dm_to_the_user(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")

    result = await emu.run_command(alice, "hand")

    assert result.content == "check your DMs"
    assert result.ephemeral
    [dm] = emu.dm_messages(alice)
    assert dm.content == "your hand: A, K"
    assert dm.where == ("dm", "alice")
    assert [m.content for m in emu.visible_to(alice)] == ["your hand: A, K", "check your DMs"]
    assert emu.visible_to(emu.user("bob")) == []
    emu.assert_no_errors()


async def test_closed_dms_raise_forbidden_50007_in_the_bot(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    carol = emu.user("carol")

    result = await emu.run_command(carol, "hand")

    assert result.content == "I cannot DM you"
    [error] = bot.dm_errors
    assert isinstance(error, discord.Forbidden)
    assert error.status == 403
    assert error.code == 50007
    assert emu.dm_messages(carol) == []
    emu.assert_no_errors()


async def test_threads_from_a_message_and_from_a_channel(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")

    result = await emu.run_command(alice, "table", {"name": "table-1"})
    await emu.settle()

    assert result.content == "opening table-1"
    assert [(t.name, t.parent and t.parent.name) for t in emu.threads] == [
        ("table-1", "general"),
        ("table-1-side", "general"),
    ]
    thread = emu.channel("table-1")
    assert result.message is not None
    assert thread.id == result.message.id
    [welcome] = emu.channel_messages(thread)
    assert welcome.content == "welcome to the table"
    assert welcome.where == ("thread", "table-1")
    assert emu.channel_messages(emu.channel("table-1-side"))[0].content == "side thread"
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the client cache
    emu.assert_no_errors()


async def test_unavailable_switch_fails_fast_with_503(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    emu.unavailable = True

    failed = await emu.run_command(alice, "announce", {"text": "hello"})

    assert failed.content == "Discord is unavailable"
    [error] = bot.post_errors
    assert isinstance(error, discord.DiscordServerError)
    assert error.status == 503
    assert emu.channel_messages(emu.channel("general")) == []

    emu.unavailable = False
    posted = await emu.run_command(alice, "announce", {"text": "hello"})
    assert posted.content == "posted"
    assert [m.content for m in emu.channel_messages(emu.channel("general"))] == ["hello"]
    emu.assert_no_errors()


async def test_unknown_route_is_recorded(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/emojis", guild_id=1))

    assert emu.errors == ["unknown route: GET /guilds/1/emojis"]
    with pytest.raises(AssertionError, match="unknown route"):
        emu.assert_no_errors()
    emu.errors.clear()


async def test_payloads_discord_would_reject_are_errors(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    channel = bot.get_channel(emu.channel("games").id)
    assert isinstance(channel, discord.TextChannel)

    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)

    assert too_long.value.status == 400
    assert too_long.value.code == 50035
    assert len(emu.errors) == 1
    assert "2001 characters" in emu.errors[0]
    assert emu.channel_messages(emu.channel("games")) == []
    emu.errors.clear()


async def test_settle_waits_for_background_posts(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    channel = bot.get_channel(emu.channel("games").id)
    assert isinstance(channel, discord.TextChannel)

    async def outbox() -> None:
        for index in range(3):
            await channel.send(f"post {index}", embed=discord.Embed(title="Round", description=f"#{index}"))
            await asyncio.sleep(0.005)

    task = asyncio.create_task(outbox())
    await emu.settle()

    assert task.done()
    posts = emu.channel_messages(emu.channel("games"))
    assert [m.content for m in posts] == ["post 0", "post 1", "post 2"]
    assert emu.render(posts[2]) == "post 2\n| ** Round **\n| #2"


async def test_files_are_recorded_from_multipart_bodies(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    channel = bot.get_channel(emu.channel("games").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(
        "see attached", file=discord.File(io.BytesIO(b"hand: A K"), filename="hand.txt")
    )

    [message] = emu.channel_messages(emu.channel("games"))
    assert [a.filename for a in message.attachments] == ["hand.txt"]
    assert message.attachments[0].data == b"hand: A K"
    assert sent.attachments[0].filename == "hand.txt"
    edited = await sent.edit(content="edited", attachments=[])
    assert edited.content == "edited"
    assert message.attachments == []
    assert message.content == "edited"
    emu.assert_no_errors()


async def test_user_messages_reach_the_bot_without_content_intent(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    received = asyncio.ensure_future(bot.wait_for("message"))

    await emu.post_message(emu.user("bob"), "hello bot", channel=emu.channel("games"))

    message = await asyncio.wait_for(received, 1)
    assert message.author.id == emu.user("bob").id
    assert message.content == ""


async def test_gateway_resume_after_a_dropped_socket(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    assert bot.ws is not None
    await bot.ws.socket.close(code=4000)
    for _ in range(200):
        if emu.gateway.resumes and emu.gateway.connected:
            break
        await asyncio.sleep(0.005)
    assert emu.gateway.resumes == 1
    assert emu.gateway.sessions == 1

    result = await emu.run_command(emu.user("alice"), "echo", {"text": "still here"})

    assert result.content == "still here (locale fr)"
    emu.assert_no_errors()
