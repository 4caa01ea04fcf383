"""/dino: Dinocard's command group; each part of the game is a mixin (cogs/dinocard/*.py)."""

from __future__ import annotations

from discord.ext import commands

from cogs.dinocard.battle import BATTLE_ITEMS, DinocardBattleCommands
from cogs.dinocard.economy import ECONOMY_ITEMS, DinocardEconomyCommands
from cogs.dinocard.packs import DinocardPackCommands
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


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *BATTLE_ITEMS)
    await bot.add_cog(DinocardCog())
