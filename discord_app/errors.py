"""One place turns every failure into a localized private message, and logs what is not the user's doing."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from core.i18n import t
from discord_app.render import text
from engine.errors import DomainError
from services.messages import Text

log = logging.getLogger("bot.errors")


def _user_message(error: BaseException, locale: str) -> str | None:
    """The message for errors the user can act on; None for our own bugs."""
    if isinstance(error, DomainError):  # a parameter may itself be a message (a league's name, reasons)
        params = {k: text(v, locale) if isinstance(v, Text) else v for k, v in error.params.items()}
        return t(error.key, locale, **params)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", locale)
    if isinstance(error, app_commands.MissingPermissions):
        return t("error.missing_permissions", locale)
    if isinstance(error, app_commands.CheckFailure):
        return t("error.not_allowed", locale)
    if isinstance(error, app_commands.TransformerError):
        return t("error.bad_option", locale, value=str(error.value)[:100])
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", locale, seconds=round(error.retry_after))
    return None


async def reply_private(interaction: discord.Interaction[Any], message: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


async def handle_error(interaction: discord.Interaction[Any], error: BaseException, locale: str) -> bool:
    """Answer the user; returns False when the error was unexpected (a bug, logged with its context)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    message = _user_message(original, locale)
    expected = message is not None
    if message is None:
        command = interaction.command.qualified_name if interaction.command else interaction.data
        log.error(
            "unexpected error in %s by user %s in guild %s",
            command,
            interaction.user.id,
            interaction.guild_id,
            exc_info=original,
        )
        message = t("error.unexpected", locale)
    await reply_private(interaction, message)
    return expected


class GameTree(app_commands.CommandTree["Any"]):
    """Every slash command error lands here. Unexpected ones are also kept so tests can fail on them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unexpected_errors: list[BaseException] = []

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        from discord_app.context import locale_of

        try:
            locale = await locale_of(interaction)
        except Exception:
            locale = "fr"
        if not await handle_error(interaction, error, locale):
            self.unexpected_errors.append(error)
