"""/immortals: Immortal's War's command group; each part of the game is a mixin (cogs/immortals/*.py)."""

from __future__ import annotations

from discord.ext import commands

from cogs.immortals.duel import DUEL_ITEMS, ImmortalsDuelCommands
from cogs.immortals.economy import ImmortalsEconomyCommands
from cogs.immortals.setup import SETUP_SECTION
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.translator import desc


class ImmortalsCog(
    ImmortalsEconomyCommands,
    ImmortalsDuelCommands,
    commands.GroupCog,
    group_name="immortals",
    group_description=desc("cmd.immortals.description"),
):
    setup_section: SetupSection = SETUP_SECTION  # its part of /setup


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DUEL_ITEMS)
    await bot.add_cog(ImmortalsCog())
    attach_loaded(bot, SETUP_SECTION)
