"""/choco: Chocobataille's command group; each part of the game is a mixin (cogs/choco/*.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.choco.components import CHOCO_ITEMS
from cogs.choco.economy import ECONOMY_ITEMS, ChocoEconomyCommands
from cogs.choco.play import ChocoPlayCommands
from cogs.choco.referee import ChocoRefereeCommands
from cogs.choco.setup import SETUP_SECTION
from cogs.shared.guide import rules_reply
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.context import locale_of, services_of
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

    @app_commands.command(name="rules", description=desc("cmd.choco.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules summed up in the reader's language, a page at a time (cogs/shared/guide.py)."""
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **rules_reply(services_of(interaction).registry, "choco", 1, locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *CHOCO_ITEMS)
    await bot.add_cog(ChocoCog())
    attach_loaded(bot, SETUP_SECTION)
