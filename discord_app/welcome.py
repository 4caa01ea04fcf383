"""A game's welcome, owed by a player's first slash command of that game (`discord_app.context.locale_of`
claims it with the player's touch) and sent privately after the command's reply, whether the command
succeeded (the completion listener of `cogs/platform/help.py`) or was refused (the error handler).

Nothing here reads the database: the follow-up leaves as soon as the reply is out.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from discord_app.context import WELCOME
from discord_app.render import to_discord
from services.platform import games
from services.platform.messages import MessageSpec, Text

log = logging.getLogger(__name__)


def welcome_spec(game_key: str) -> MessageSpec | None:
    """What the game is, what the player received (its first currency's starting amount) and the next
    command: the game's `GameGuide.welcome_key`."""
    spec = games.get(game_key)
    if spec is None or spec.guide is None:
        return None
    starting = spec.currencies[0].starting if spec.currencies else 0
    return MessageSpec(content=Text(spec.guide.welcome_key, {"starting": starting}))


async def send_welcome(interaction: discord.Interaction[Any]) -> None:
    """The welcome this interaction owes, once, as a private follow-up (after the reply)."""
    game = interaction.extras.pop(WELCOME, None)
    welcome = welcome_spec(str(game)) if game else None
    if welcome is None or not interaction.response.is_done():
        return
    locale = str(interaction.extras.get("locale") or "fr")
    try:
        await interaction.followup.send(**to_discord(welcome, locale), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver the %s welcome for interaction %s", game, interaction.id)
