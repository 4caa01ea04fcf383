"""/pillz: the Pillz duel's command group; each part of the game is a mixin (cogs/pillz/*.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.pillz.duel import DUEL_ITEMS, PillzDuelCommands
from cogs.pillz.economy import ECONOMY_ITEMS, PillzEconomyCommands
from cogs.pillz.setup import SETUP_SECTION
from cogs.shared.guide import rules_reply
from cogs.shared.lab import LabRequest, lab_reply
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.context import locale_of, services_of
from discord_app.translator import desc


class PillzCog(
    PillzEconomyCommands,
    PillzDuelCommands,
    commands.GroupCog,
    group_name="pillz",
    group_description=desc("cmd.pillz.description"),
):
    setup_section: SetupSection = SETUP_SECTION  # its part of /setup

    @app_commands.command(name="rules", description=desc("cmd.pillz.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules summed up in the reader's language, a page at a time (cogs/shared/guide.py)."""
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **rules_reply(services_of(interaction).registry, "pillz", 1, locale), ephemeral=True
        )

    @app_commands.command(name="lab", description=desc("cmd.pillz.lab.description"))
    @app_commands.describe(slot=desc("cmd.pillz.lab.opt.slot.description"))
    async def lab(
        self, interaction: discord.Interaction[Any], slot: app_commands.Range[int, 1, 4] | None = None
    ) -> None:
        """The deck (the active one by default) against the practice duel's AI (docs/lab.md)."""
        await lab_reply(interaction, "pillz", LabRequest(interaction.user.id, slot))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ECONOMY_ITEMS, *DUEL_ITEMS)
    await bot.add_cog(PillzCog())
    attach_loaded(bot, SETUP_SECTION)
