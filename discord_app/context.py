"""Per-interaction facts every cog needs: the services and the reader's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from core.i18n import normalize_locale
from discord_app import welcome

if TYPE_CHECKING:
    from discord_app.bot import CardBot
    from services.infra.container import Services


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
    game = _game_of(interaction)
    chosen, first = await services.players.touch_in_game(interaction.user.id, discord_lang or None, game)
    locale = chosen or discord_lang or services.settings.default_locale
    interaction.extras["locale"] = locale
    if first and game is not None:
        welcome.install(interaction, services.players, game, locale)  # shown before the answer
    return locale


def _game_of(interaction: discord.Interaction[Any]) -> str | None:
    """The game a slash command belongs to, when that game has a welcome (buttons never welcome)."""
    command = interaction.command if interaction.type == discord.InteractionType.application_command else None
    root = str(getattr(command, "qualified_name", "")).split(" ")[0]
    spec = services_of(interaction).registry.of_group(root) if root else None
    return spec.key if spec is not None and spec.guide is not None else None


async def public_locale_of(interaction: discord.Interaction[Any], *, remember: bool = True) -> str:
    """The language of a public post made here: the server's (/setup language, else its Discord language,
    remembered the first time it is seen), else `DEFAULT_LOCALE`. Everyone in the channel reads the post,
    so the player's own language is not the one to use; in direct messages it is the reader's.
    `remember=False` only reads (a refusal changes nothing)."""
    cached = interaction.extras.get("public_locale")
    if cached:
        return str(cached)
    services = services_of(interaction)
    if interaction.guild_id is None:
        locale = await locale_of(interaction)
    else:
        seen = normalize_locale(str(interaction.guild_locale), default="") if interaction.guild_locale else ""
        chosen = await services.guilds.public_locale(
            interaction.guild_id, (seen or None) if remember else None
        )
        locale = chosen or seen or services.settings.default_locale
    interaction.extras["public_locale"] = locale
    return locale


async def guild_locale(services: Services, guild_id: int | None) -> str:
    """The language of a post the outbox sends in a server's channel, without an interaction."""
    chosen = await services.guilds.public_locale(guild_id) if guild_id is not None else None
    return chosen or services.settings.default_locale
