"""/choco: Chocobataille's command group; each part of the game is a mixin (cogs/choco/*.py)."""

from __future__ import annotations

from discord.ext import commands

from cogs.choco.components import CHOCO_ITEMS
from cogs.choco.economy import ECONOMY_ITEMS, ChocoEconomyCommands
from cogs.choco.play import ChocoPlayCommands
from cogs.choco.referee import ChocoRefereeCommands
from cogs.choco.setup import SETUP_SECTION
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.translator import desc


class ChocoCog(  # discord.py lists the last base's commands first: collection, then games, then referee
    ChocoRefereeCommands,
    ChocoPlayCommands,
    ChocoEconomyCommands,
    commands.GroupCog,
    group_name="choco",
    group_description=desc("cmd.choco.description"),
):
    setup_section: SetupSection = SETUP_SECTION  # its part of /setup


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *CHOCO_ITEMS)
    await bot.add_cog(ChocoCog())
    attach_loaded(bot, SETUP_SECTION)
