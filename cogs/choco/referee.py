"""/choco referee-… commands: a human referee's overrides, used in the game's thread (or with its number).

Who may is the service's decision (services/choco/referee.py); the cog passes the server where the
command runs, and the member's roles and permissions there as Discord reports them for this interaction.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands

from cogs.choco.lookup import choco_of
from cogs.shared.mixins import CommandsMixin
from core.errors import BadInput
from core.i18n import t
from discord_app.context import locale_of
from discord_app.option_checks import Id
from discord_app.translator import desc
from services.choco.referee import Referee


def referee_of(interaction: discord.Interaction[Any]) -> Referee:
    member = interaction.user
    if interaction.guild is None or not isinstance(member, discord.Member):
        raise app_commands.NoPrivateMessage()
    return Referee(
        member.id,
        interaction.guild.id,
        tuple(r.id for r in member.roles),
        interaction.permissions.manage_guild,
    )


async def game_of(interaction: discord.Interaction[Any], game: int | None) -> int:
    """The game named by its number, else the game of this thread."""
    if game is not None:
        return game
    found = await choco_of(interaction).games.game_in_thread(interaction.channel_id)
    if found is None:
        raise BadInput("choco.error.referee_where")
    return found


class ChocoRefereeCommands(CommandsMixin):
    """Mixed into the /choco GroupCog (cogs/choco/cog.py)."""

    @app_commands.command(name="referee-extend", description=desc("cmd.choco.referee-extend.description"))
    @app_commands.describe(
        hours=desc("cmd.choco.referee-extend.opt.hours.description"),
        game=desc("cmd.choco.referee-extend.opt.game.description"),
    )
    @app_commands.guild_only()
    async def referee_extend(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[int, 1, 336],
        game: Id | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        found = await choco_of(interaction).referee.extend(
            await game_of(interaction, game), referee_of(interaction), hours
        )
        await interaction.response.send_message(t("choco.referee.done", locale, id=found.id), ephemeral=True)

    @app_commands.command(name="referee-penalty", description=desc("cmd.choco.referee-penalty.description"))
    @app_commands.describe(game=desc("cmd.choco.referee-penalty.opt.game.description"))
    @app_commands.guild_only()
    async def referee_penalty(self, interaction: discord.Interaction[Any], game: Id | None = None) -> None:
        locale = await locale_of(interaction)
        game_id = await game_of(interaction, game)
        await choco_of(interaction).referee.cancel_penalty(game_id, referee_of(interaction))
        await interaction.response.send_message(t("choco.referee.done", locale, id=game_id), ephemeral=True)

    @app_commands.command(name="referee-end", description=desc("cmd.choco.referee-end.description"))
    @app_commands.describe(
        winner=desc("cmd.choco.referee-end.opt.winner.description"),
        game=desc("cmd.choco.referee-end.opt.game.description"),
    )
    @app_commands.guild_only()
    async def referee_end(
        self,
        interaction: discord.Interaction[Any],
        winner: discord.User | None = None,
        game: Id | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        game_id = await game_of(interaction, game)
        winner_id = None if winner is None else winner.id
        await choco_of(interaction).referee.end_game(game_id, referee_of(interaction), winner_id)
        await interaction.response.send_message(t("choco.referee.done", locale, id=game_id), ephemeral=True)

    @app_commands.command(name="referee-cancel", description=desc("cmd.choco.referee-cancel.description"))
    @app_commands.describe(game=desc("cmd.choco.referee-cancel.opt.game.description"))
    @app_commands.guild_only()
    async def referee_cancel(self, interaction: discord.Interaction[Any], game: Id | None = None) -> None:
        locale = await locale_of(interaction)
        game_id = await game_of(interaction, game)
        await choco_of(interaction).referee.cancel_game(game_id, referee_of(interaction))
        await interaction.response.send_message(t("choco.referee.done", locale, id=game_id), ephemeral=True)

    @app_commands.command(name="referee-log", description=desc("cmd.choco.referee-log.description"))
    @app_commands.describe(game=desc("cmd.choco.referee-log.opt.game.description"))
    @app_commands.guild_only()
    async def referee_log(self, interaction: discord.Interaction[Any], game: Id | None = None) -> None:
        locale = await locale_of(interaction)
        game_id = await game_of(interaction, game)
        entries = await choco_of(interaction).referee.read_log(game_id, referee_of(interaction))
        data = json.dumps(entries, ensure_ascii=False, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"choco-game-{game_id}-log.json")
        await interaction.response.send_message(
            t("choco.referee.log", locale, id=game_id, count=len(entries)), file=file, ephemeral=True
        )
