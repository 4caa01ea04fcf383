"""/dino: Dinocard's command group; each part of the game is a mixin (cogs/dinocard/*.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.dinocard.battle import BATTLE_ITEMS, DinocardBattleCommands
from cogs.dinocard.economy import ECONOMY_ITEMS, DinocardEconomyCommands
from cogs.dinocard.packs import DinocardPackCommands
from cogs.shared.guide import rules_reply
from discord_app.context import locale_of, services_of
from discord_app.translator import desc


class DinocardCog(
    DinocardEconomyCommands,
    DinocardPackCommands,
    DinocardBattleCommands,
    commands.GroupCog,
    group_name="dino",
    group_description=desc("cmd.dino.description"),
):
    """Collection, boosters, packs, challenges, the dojo, replays and the leaderboard."""

    @app_commands.command(name="rules", description=desc("cmd.dino.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules summed up in the reader's language, a page at a time (cogs/shared/guide.py)."""
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **rules_reply(services_of(interaction).registry, "dinocard", 1, locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *BATTLE_ITEMS)
    await bot.add_cog(DinocardCog())
