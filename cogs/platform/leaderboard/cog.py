"""`/classement serveur` (English `/leaderboard server`): one board across the five games of this server,
public and pinging nobody (services/community/leaderboard/service.py says how places become points)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.mixins import send_board
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from services.community.leaderboard.render import board_spec


class LeaderboardCog(
    commands.GroupCog, group_name="leaderboard", group_description=desc("cmd.leaderboard.description")
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="server", description=desc("cmd.leaderboard.server.description"))
    @app_commands.guild_only()
    async def server(self, interaction: discord.Interaction[Any]) -> None:
        await locale_of(interaction)  # the reader's first command creates them
        assert interaction.guild_id is not None
        board = await services_of(interaction).leaderboard.server(interaction.guild_id, interaction.user.id)
        await send_board(interaction, board_spec(board, services_of(interaction).registry))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
