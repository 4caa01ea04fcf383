"""/daily (« /quotidien »): every game's daily reward in one command, or one game's; /cooldowns
(« /minuteurs »): every timer the player has, as Discord relative times. Both answer privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import normalize_locale, t
from discord_app.context import locale_of, services_of
from discord_app.render import to_discord
from discord_app.translator import desc
from services.community.daily import daily_games
from services.community.render.daily import cooldowns_spec, daily_spec


class DailyCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="daily", description=desc("cmd.daily.description"))
    @app_commands.describe(game=desc("cmd.daily.opt.game.description"))
    async def daily(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        locale = await locale_of(interaction)
        claims = await services_of(interaction).daily.claim(interaction.user.id, game or None)
        await interaction.response.send_message(
            **to_discord(daily_spec(claims, services_of(interaction).registry), locale), ephemeral=True
        )

    @daily.autocomplete("game")
    async def daily_game(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The games that have a daily, named in the reader's language (a read only)."""
        services = services_of(interaction)
        chosen = await services.players.locale_of(interaction.user.id)
        locale = chosen or normalize_locale(str(interaction.locale), default=services.settings.default_locale)
        typed = current.casefold()
        named = [(t(g.name_key, locale), g.key) for g in daily_games(services.registry)]
        return [app_commands.Choice(name=n[:100], value=k) for n, k in named if typed in n.casefold()]

    @app_commands.command(name="cooldowns", description=desc("cmd.cooldowns.description"))
    async def cooldowns(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        services = services_of(interaction)
        found = await services.reminders.cooldowns(interaction.user.id)
        on = await services.reminders.is_enabled(interaction.user.id)
        await interaction.response.send_message(
            **to_discord(cooldowns_spec(found, on, services.registry), locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DailyCog(bot))
