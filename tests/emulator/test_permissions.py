"""The bot's channel permissions: a server where the bot lacks each one in turn refuses what needs it.

Discord answers 403 with code 50001 (Missing Access) when the bot cannot see the channel and 50013
(Missing Permissions) when it lacks another permission the call needs; interaction responses need none.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable

import discord
import pytest

from emulator import DiscordEmulator
from emulator.world import CHANNEL_PERMISSIONS, Channel
from tests.emulator.conftest import EmulatedBot

Call = Callable[[EmulatedBot, Channel, Channel], Awaitable[object]]


async def post_text(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    return await bot.http.send_message(channel.id, params=discord.http.handle_message_parameters("hello"))


async def post_in_thread(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    return await bot.http.send_message(thread.id, params=discord.http.handle_message_parameters("in thread"))


async def post_embed(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    params = discord.http.handle_message_parameters(embed=discord.Embed(title="scores"))
    return await bot.http.send_message(channel.id, params=params)


async def post_file(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    params = discord.http.handle_message_parameters(file=discord.File(io.BytesIO(b"{}"), "log.json"))
    return await bot.http.send_message(channel.id, params=params)


async def open_thread(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    return await bot.http.start_thread_without_message(
        channel.id, name="table", auto_archive_duration=1440, type=discord.ChannelType.public_thread.value
    )


async def archive_thread(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    return await bot.http.edit_channel(thread.id, archived=True)


async def read_message(bot: EmulatedBot, channel: Channel, thread: Channel) -> object:
    sent = await post_text(bot, channel, thread)
    assert isinstance(sent, dict)
    return await bot.http.get_message(channel.id, int(sent["id"]))


# Each modelled permission, and a call the bot makes that needs it.
CASES: dict[str, Call] = {
    "view_channel": post_text,
    "send_messages": post_text,
    "send_messages_in_threads": post_in_thread,
    "create_public_threads": open_thread,
    "manage_threads": archive_thread,
    "embed_links": post_embed,
    "attach_files": post_file,
    "read_message_history": read_message,
}


async def _setup(emu: DiscordEmulator, bot: EmulatedBot) -> tuple[Channel, Channel]:
    channel = emu.channel("games")
    await open_thread(bot, channel, channel)
    return channel, emu.channel("table")


@pytest.mark.parametrize("permission", sorted(CASES))
async def test_each_missing_permission_is_refused_with_discords_code(
    emu: DiscordEmulator, bot: EmulatedBot, permission: str
) -> None:
    channel, thread = await _setup(emu, bot)
    call = CASES[permission]
    await call(bot, channel, thread)  # allowed while the bot has every permission
    before = len(emu.messages)

    emu.world.deny_bot(channel, permission)
    if permission == "read_message_history":
        emu.world.allow_bot(channel)
        sent = await post_text(bot, channel, thread)
        assert isinstance(sent, dict)
        emu.world.deny_bot(channel, permission)
        with pytest.raises(discord.Forbidden) as refused:
            await bot.http.get_message(channel.id, int(sent["id"]))
        before = len(emu.messages)
    else:
        with pytest.raises(discord.Forbidden) as refused:
            await call(bot, channel, thread)

    assert refused.value.status == 403
    assert refused.value.code == (50001 if permission == "view_channel" else 50013)
    assert len(emu.messages) == before  # nothing was created
    emu.assert_no_errors()  # a refusal for a missing permission is not the bot's bug


async def test_the_permission_set_is_the_one_the_bot_uses() -> None:
    assert set(CASES) <= set(CHANNEL_PERMISSIONS)


async def test_send_messages_and_send_messages_in_threads_are_separate(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    channel, thread = await _setup(emu, bot)

    emu.world.deny_bot(channel, "send_messages")
    await post_in_thread(bot, channel, thread)
    with pytest.raises(discord.Forbidden):
        await post_text(bot, channel, thread)

    emu.world.allow_bot(channel)
    emu.world.deny_bot(channel, "send_messages_in_threads")
    await post_text(bot, channel, thread)
    with pytest.raises(discord.Forbidden):
        await post_in_thread(bot, channel, thread)


async def test_without_view_channel_the_threads_are_hidden_too(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    channel, thread = await _setup(emu, bot)
    emu.world.deny_bot(channel, "view_channel")

    with pytest.raises(discord.Forbidden) as refused:
        await post_in_thread(bot, channel, thread)
    assert refused.value.code == 50001
    with pytest.raises(discord.Forbidden):
        await bot.http.get_channel(channel.id)


async def test_without_history_a_channel_lists_no_message(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    channel, thread = await _setup(emu, bot)
    await post_text(bot, channel, thread)
    assert await bot.http.logs_from(channel.id, 10)

    emu.world.deny_bot(channel, "read_message_history")

    assert await bot.http.logs_from(channel.id, 10) == []


async def test_app_permissions_follow_the_channel(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    channel = emu.channel("games")
    emu.world.deny_bot(channel, "attach_files", "embed_links")

    await emu.run_command(alice, "echo", {"text": "hi"}, channel=channel)
    denied = discord.Permissions(int(emu.interactions[-1].payload["app_permissions"]))
    await emu.run_command(alice, "echo", {"text": "hi"}, channel=emu.channel("general"))
    elsewhere = discord.Permissions(int(emu.interactions[-1].payload["app_permissions"]))

    assert not denied.attach_files
    assert not denied.embed_links
    assert denied.send_messages
    assert elsewhere.attach_files
    assert elsewhere.embed_links
    assert not denied.administrator  # an administrator would ignore the overwrites


async def test_interaction_responses_need_no_channel_permission(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    """Responses are webhooks (Discord's "Receiving and Responding" page): the bot answers even where it
    can neither see nor post."""
    alice = emu.user("alice")
    channel = emu.channel("games")
    emu.world.deny_bot(channel, *CHANNEL_PERMISSIONS)

    result = await emu.run_command(alice, "profile", {"member": "bob"}, channel=channel)

    assert result.embeds
    emu.assert_no_errors()


async def test_an_announcement_channel_opens_announcement_threads(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    news = emu.world.add_channel(emu.guild("Test Server"), "news", announcement=True)
    with pytest.raises(discord.HTTPException) as refused:
        await open_thread(bot, news, news)
    assert refused.value.status == 400
    emu.errors.clear()

    data = await bot.http.start_thread_without_message(
        news.id, name="table", auto_archive_duration=1440, type=discord.ChannelType.news_thread.value
    )

    assert data["type"] == 10
    assert emu.channel("table").parent is news


def test_deny_bot_names_the_known_permissions() -> None:
    from emulator.world import World

    world = World()
    guild = world.add_guild("g")
    with pytest.raises(ValueError, match="unknown permission"):
        world.deny_bot(guild.default_channel, "attach_file")
