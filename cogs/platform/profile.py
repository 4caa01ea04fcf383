"""/profile: wallets, a line per game, the titles won in tournaments, and the date the player joined,
with its picture (services/community/profile_card.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.errors import NotFound
from discord_app.context import locale_of, services_of
from discord_app.render import image_file, to_discord
from discord_app.translator import desc
from services.community import profile_card
from services.community.render.profile import profile_spec


class ProfileCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="profile", description=desc("cmd.profile.description"))
    @app_commands.describe(player=desc("cmd.profile.opt.player.description"))
    async def profile(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        locale = await locale_of(interaction)
        target = player or interaction.user
        own = target.id == interaction.user.id
        result = await services_of(interaction).players.profile(target.id, create=own)
        if result is None:
            raise NotFound("error.no_profile", name=target.display_name)
        services = services_of(interaction)
        image = await profile_card.picture(
            services.players, services.card_images, result, target.display_name, own=own, locale=locale
        )
        spec = profile_spec(result, target.display_name, own=own, locale=locale, image=image)
        await interaction.response.send_message(
            **to_discord(spec, locale), files=[image_file(image)], ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ProfileCog(bot))
