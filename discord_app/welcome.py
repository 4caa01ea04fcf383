"""A game's welcome, owed by a player's slash commands of that game until one succeeds
(`discord_app.context.locale_of` learns it with the player's touch), sent privately after the command's
reply. A command that succeeds records it (`PlayerService.claim_welcome`: one write, once per player and
game) and shows it; a refused one shows it once per process and records nothing, since a refusal leaves
no trace (the error handler).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from discord_app.context import WELCOME, services_of
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


async def send_welcome(interaction: discord.Interaction[Any], *, succeeded: bool) -> None:
    """The welcome this interaction owes, as a private follow-up (after the reply): recorded when the
    command `succeeded`, shown without a record when it was refused."""
    game = interaction.extras.pop(WELCOME, None)
    welcome = welcome_spec(str(game)) if game else None
    if welcome is None or not interaction.response.is_done():
        return
    players = services_of(interaction).players
    player = interaction.user.id
    due = (
        await players.claim_welcome(player, str(game))
        if succeeded
        else players.show_welcome_on_refusal(player, str(game))
    )
    if not due:
        return
    locale = str(interaction.extras.get("locale") or "fr")
    try:
        await interaction.followup.send(**to_discord(welcome, locale), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver the %s welcome for interaction %s", game, interaction.id)
