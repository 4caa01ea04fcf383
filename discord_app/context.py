"""Per-interaction facts every cog needs: the services and the reader's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from core.i18n import normalize_locale

if TYPE_CHECKING:
    from discord_app.bot import CardBot
    from services.platform.container import Services


def services_of(interaction: discord.Interaction[Any]) -> Services:
    bot: CardBot = interaction.client
    return bot.services


async def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The player's /settings choice, else their Discord language, else the default; resolved once."""
    cached = interaction.extras.get("locale")
    if cached:
        return str(cached)
    services = services_of(interaction)
    discord_lang = normalize_locale(str(interaction.locale), default="")
    chosen = await services.players.touch(interaction.user.id, discord_lang or None)
    locale = chosen or discord_lang or services.settings.default_locale
    interaction.extras["locale"] = locale
    return locale
