"""One place turns every failure into a localized private message, and logs what is not the user's doing.

Every refusal passes through `fit` on its way out: a message Discord would reject (over 2,000 characters)
would leave the user with nothing at all, so a refusal that grew with what the user typed is cut here,
once, rather than in every command.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from core.i18n import t
from discord_app.context import locale_of, public_locale_of
from discord_app.gate import check_game_access
from discord_app.option_checks import check_options
from discord_app.refusals import echo
from discord_app.translator import translated_payload
from engine.errors import DomainError
from services.infra.messages import PUBLIC, Text, render_text

log = logging.getLogger("bot.errors")

CONTENT_LIMIT = 2000  # Discord's limit for a message's content
_TAIL_ROOM = 80  # kept free for the "and N more lines" line


def fit(message: str, locale: str, limit: int = CONTENT_LIMIT) -> str:
    """The message cut on a line boundary to fit Discord, the dropped lines counted on a last line."""
    if len(message) <= limit:
        return message
    lines = message.split("\n")
    room = limit - _TAIL_ROOM
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > room:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:  # one line too long on its own: cut inside it
        kept, size = [lines[0][: room - 1] + "…"], room
    dropped = len(lines) - len(kept)
    if dropped:
        kept.append(t("error.more_lines", locale, count=dropped))
    return "\n".join(kept)[:limit]


async def _public_labels(interaction: discord.Interaction[Any], error: BaseException) -> dict[str, str]:
    """A refusal that quotes a public message's button names it as the channel shows it: in the
    server's language, which may not be the reader's."""
    if not isinstance(error, DomainError):
        return {}
    quoted = {k: v for k, v in error.params.items() if isinstance(v, Text) and v.key == PUBLIC}
    if not quoted:
        return {}
    public = await public_locale_of(interaction, remember=False)
    return {k: t(str(v.params["key"]), public) for k, v in quoted.items()}


def _user_message(error: BaseException, locale: str, labels: dict[str, str] | None = None) -> str | None:
    """The message for errors the user can act on; None for our own bugs."""
    if isinstance(error, DomainError):  # its parameters rendered as any message's (a Number, a Text...)
        quoted = {k: Text.raw(v) for k, v in (labels or {}).items()}
        return render_text(Text(error.key, error.params | quoted), locale)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("a client sent a command the bot does not have (commands not synced?): %s", error)
        return t("error.unknown_command", locale)  # removed or changed while a client still offered it
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", locale)
    if isinstance(error, app_commands.MissingPermissions):
        return t("error.missing_permissions", locale)
    if isinstance(error, app_commands.CheckFailure):
        return t("error.not_allowed", locale)
    if isinstance(error, app_commands.TransformerError):
        return t("error.bad_option", locale, value=echo(error.value))
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
    message = _user_message(original, locale, await _public_labels(interaction, original))
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
    await reply_private(interaction, fit(message, locale))
    return expected


class GameTree(app_commands.CommandTree["Any"]):
    """Every slash command error lands here. Unexpected ones are also kept so tests can fail on them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unexpected_errors: list[BaseException] = []

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        """discord.py's `sync`, each command's translated payload built once per process
        (discord_app/translator.py `translated_payload`)."""
        translator, application = self.translator, self.client.application_id
        if translator is None or application is None:
            return await super().sync(guild=guild)
        commands = self._get_all_commands(guild=guild)
        payload = [await translated_payload(self, command, translator) for command in commands]
        try:
            if guild is None:
                data = await self._http.bulk_upsert_global_commands(application, payload=payload)
            else:
                data = await self._http.bulk_upsert_guild_commands(application, guild.id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:  # as discord.py's own sync reports it
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """No command runs with an option value it did not declare (discord_app/option_checks.py), nor
        a paused game's or for a banned player (discord_app/gate.py); the refusal raised here reaches
        `on_error` like any command error."""
        command = interaction.command
        if interaction.type is discord.InteractionType.application_command and isinstance(
            command, app_commands.Command
        ):
            check_options(command, interaction.data or {})
            await check_game_access(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        try:
            locale = await locale_of(interaction)
        except Exception:
            locale = "fr"
        if not await handle_error(interaction, error, locale):
            self.unexpected_errors.append(error)
