"""SHARD_COUNT chooses the bot's class; only the process holding the dev guild's shard syncs its commands."""

from __future__ import annotations

import discord
import pytest

from core.clock import ManualClock
from core.settings import Settings, load_settings
from discord_app.bot import CardBot, ShardedCardBot, make_bot

DEV_GUILD = (7 << 22) + 5  # on shard 1 of 2


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return load_settings(require_token=False, env_file=None)


def test_without_a_shard_count_the_bot_is_one_unsharded_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = make_bot(settings(monkeypatch), ManualClock())
    assert type(bot) is CardBot
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count is None


def test_a_shard_count_makes_a_sharded_bot_over_this_process_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = make_bot(settings(monkeypatch, SHARD_COUNT="4", SHARD_IDS="3,1"), ManualClock())
    assert isinstance(bot, ShardedCardBot)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4
    assert bot.shard_ids == [1, 3]
    assert bot.allowed_mentions is not None  # the same construction as the unsharded bot
    assert bot.allowed_mentions.to_dict() == discord.AllowedMentions.none().to_dict()


def test_the_plain_class_refuses_sharded_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TypeError, match="make_bot"):
        CardBot(settings(monkeypatch, SHARD_COUNT="2"), ManualClock())
    with pytest.raises(TypeError, match="make_bot"):
        ShardedCardBot(settings(monkeypatch, SHARD_COUNT=""), ManualClock())


@pytest.mark.parametrize(("shards", "syncs"), [("0", False), ("1", True), ("0,1", True), ("", True)])
async def test_only_the_process_holding_the_dev_guild_syncs_it(
    monkeypatch: pytest.MonkeyPatch, shards: str, syncs: bool
) -> None:
    env = {"DEV_GUILD_ID": str(DEV_GUILD)}
    if shards:
        env |= {"SHARD_COUNT": "2", "SHARD_IDS": shards}
    bot = make_bot(settings(monkeypatch, **env), ManualClock())
    synced: list[int | None] = []

    async def sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        synced.append(None if guild is None else guild.id)
        return []

    monkeypatch.setattr(bot.tree, "sync", sync)
    await bot._sync_dev_guild()
    assert synced == ([DEV_GUILD] if syncs else [])
