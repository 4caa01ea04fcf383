"""Small lookups every /choco command and component shares: the game's services, the game of this place."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from discord_app.context import services_of

if TYPE_CHECKING:
    from services.choco import ChocoServices


def choco_of(interaction: discord.Interaction[Any]) -> ChocoServices:
    services: ChocoServices = services_of(interaction).games["choco"]
    return services


async def here(interaction: discord.Interaction[Any]) -> int:
    """The game of this thread, else the player's only live game on this server (in DMs: anywhere)."""
    games = choco_of(interaction).games
    return await games.game_here(interaction.channel_id, interaction.user.id, interaction.guild_id)


def member_since(interaction: discord.Interaction[Any]) -> datetime | None:
    """When the user joined the server where they act (Discord sends it with every interaction there)."""
    return interaction.user.joined_at if isinstance(interaction.user, discord.Member) else None


__all__ = ["choco_of", "here", "member_since"]
