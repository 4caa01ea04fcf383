"""/pillz: the Pillz duel's command group; each part of the game is a mixin (cogs/pillz/*.py)."""

from __future__ import annotations

from discord.ext import commands

from cogs.pillz.duel import DUEL_ITEMS, PillzDuelCommands
from cogs.pillz.economy import ECONOMY_ITEMS, PillzEconomyCommands
from cogs.pillz.setup import SETUP_SECTION
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.translator import desc


class PillzCog(
    PillzEconomyCommands,
    PillzDuelCommands,
    commands.GroupCog,
    group_name="pillz",
    group_description=desc("cmd.pillz.description"),
):
    setup_section: SetupSection = SETUP_SECTION  # its part of /setup


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *DUEL_ITEMS)
    await bot.add_cog(PillzCog())
    attach_loaded(bot, SETUP_SECTION)
