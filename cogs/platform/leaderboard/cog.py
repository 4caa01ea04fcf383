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
from services.community.leaderboard.service import ServerBoard, ServerLine
from services.infra.erased import mention
from services.infra.games import GameRegistry
from services.infra.messages import Embed, MessageSpec, Number, Text


def game_place(game: str, place: int, registry: GameRegistry) -> Text:
    return Text("leaderboard.server.place", {"game": registry.name(game), "place": place})


def line_text(line: ServerLine, registry: GameRegistry) -> Text:
    return Text(
        "leaderboard.server.line",
        {
            "place": line.place,
            "player": mention(line.player_id),
            "points": Number(line.points),
            "games": [game_place(game, place, registry) for game, place in line.places],
        },
    )


def board_spec(board: ServerBoard, registry: GameRegistry) -> MessageSpec:
    if not board.lines:
        body = Text("leaderboard.server.empty")
    else:
        lines = [line_text(line, registry) for line in board.lines]
        if board.viewer is not None:
            lines += [Text.raw("…"), line_text(board.viewer, registry)]
        if board.players > len(board.lines):
            lines.append(Text("leaderboard.server.more", {"count": board.players - len(board.lines)}))
        lines.append(Text("leaderboard.server.how"))
        body = Text.lines(lines)
    return MessageSpec(embeds=(Embed(title=Text("leaderboard.server.title"), description=body),))


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
