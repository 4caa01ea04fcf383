"""Discord-facing limits of the client and the order of start-up."""

from __future__ import annotations

import discord

from core.clock import ManualClock
from core.settings import load_settings
from discord_app.bot import MAX_RATELIMIT_WAIT, CardBot, cog_modules


def make_bot() -> CardBot:
    return CardBot(load_settings(require_token=False, env_file=None), ManualClock())


def test_mentions_are_off_by_default() -> None:
    mentions = make_bot().allowed_mentions
    assert mentions is not None
    assert mentions.to_dict() == discord.AllowedMentions.none().to_dict()


def test_rate_limit_waits_are_bounded() -> None:
    assert make_bot().http.max_ratelimit_timeout == MAX_RATELIMIT_WAIT


def test_only_the_guilds_intent_is_requested() -> None:
    intents = make_bot().intents
    assert intents.guilds
    assert not intents.members
    assert not intents.message_content
    assert not intents.presences


def test_every_cog_module_loads() -> None:
    assert {
        "cogs.platform.profile",
        "cogs.platform.settings",
        "cogs.platform.setup",
        "cogs.platform.help",
        "cogs.platform.cards",
        "cogs.platform.admin",
    } <= set(cog_modules())
