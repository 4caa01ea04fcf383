"""/choco: Chocobataille's command group; each part of the game is a mixin (cogs/choco/*.py)."""

from __future__ import annotations

from discord.ext import commands

from cogs.choco.components import CHOCO_ITEMS
from cogs.choco.economy import ECONOMY_ITEMS, ChocoEconomyCommands
from cogs.choco.play import ChocoPlayCommands
from cogs.choco.referee import ChocoRefereeCommands
from discord_app.translator import desc


class ChocoCog(  # discord.py lists the last base's commands first: collection, then games, then referee
    ChocoRefereeCommands,
    ChocoPlayCommands,
    ChocoEconomyCommands,
    commands.GroupCog,
    group_name="choco",
    group_description=desc("cmd.choco.description"),
):
    pass


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *CHOCO_ITEMS)
    await bot.add_cog(ChocoCog())
