"""/settings: personal preferences (the language the bot speaks to you, DM reminders, wishlist alerts)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import normalize_locale, t
from discord_app.context import locale_of, services_of
from discord_app.translator import choice, desc


class SettingsCog(
    commands.GroupCog, group_name="settings", group_description=desc("cmd.settings.description")
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="language", description=desc("cmd.settings.language.description"))
    @app_commands.describe(language=desc("cmd.settings.language.opt.language.description"))
    @app_commands.choices(
        language=[choice("language", "fr"), choice("language", "en"), choice("language", "auto")]
    )
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        services = services_of(interaction)
        chosen = None if language.value == "auto" else language.value
        await services.players.set_locale(interaction.user.id, chosen)
        locale = chosen or normalize_locale(str(interaction.locale), default=services.settings.default_locale)
        key = "settings.language_auto" if chosen is None else "settings.language_set"
        await interaction.response.send_message(t(key, locale), ephemeral=True)

    @app_commands.command(name="reminders", description=desc("cmd.settings.reminders.description"))
    @app_commands.describe(state=desc("cmd.settings.reminders.opt.state.description"))
    @app_commands.choices(state=[choice("reminders", "on"), choice("reminders", "off")])
    async def reminders(self, interaction: discord.Interaction[Any], state: app_commands.Choice[str]) -> None:
        locale = await locale_of(interaction)
        setting = await services_of(interaction).reminders.set_enabled(
            interaction.user.id, state.value == "on"
        )
        if not setting.enabled:
            key = "settings.reminders_off"
        else:
            key = "settings.reminders_on_closed" if setting.dms_closed else "settings.reminders_on"
        await interaction.response.send_message(t(key, locale), ephemeral=True)

    @app_commands.command(name="wishlist", description=desc("cmd.settings.wishlist.description"))
    @app_commands.describe(state=desc("cmd.settings.wishlist.opt.state.description"))
    @app_commands.choices(state=[choice("wish_alerts", "on"), choice("wish_alerts", "off")])
    async def wishlist(self, interaction: discord.Interaction[Any], state: app_commands.Choice[str]) -> None:
        """Wishlist alerts: a mention on a drop of a wished card, a DM when one is shown off."""
        locale = await locale_of(interaction)
        on = state.value == "on"
        await services_of(interaction).wishlists.set_alerts(interaction.user.id, on)
        key = "settings.wish_alerts_on" if on else "settings.wish_alerts_off"
        await interaction.response.send_message(t(key, locale), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
