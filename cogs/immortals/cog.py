"""/immortals: Immortal's War's command group; each part of the game is a mixin (cogs/immortals/*.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.immortals.duel import DUEL_ITEMS, ImmortalsDuelCommands
from cogs.immortals.economy import ImmortalsEconomyCommands
from cogs.immortals.setup import SETUP_SECTION
from cogs.shared.guide import rules_reply
from cogs.shared.lab import LabRequest, lab_reply
from cogs.shared.setup import SetupSection, attach_loaded
from discord_app.context import locale_of, services_of
from discord_app.translator import choice, desc
from engine.immortals import TERRAINS


class ImmortalsCog(
    ImmortalsEconomyCommands,
    ImmortalsDuelCommands,
    commands.GroupCog,
    group_name="immortals",
    group_description=desc("cmd.immortals.description"),
):
    setup_section: SetupSection = SETUP_SECTION  # its part of /setup

    @app_commands.command(name="rules", description=desc("cmd.immortals.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules summed up in the reader's language, a page at a time (cogs/shared/guide.py)."""
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **rules_reply(services_of(interaction).registry, "immortals", 1, locale), ephemeral=True
        )

    @app_commands.command(name="lab", description=desc("cmd.immortals.lab.description"))
    @app_commands.describe(terrain=desc("cmd.immortals.lab.opt.terrain.description"))
    @app_commands.choices(terrain=[choice("immortals_terrain", t) for t in TERRAINS])
    async def lab(
        self, interaction: discord.Interaction[Any], terrain: app_commands.Choice[str] | None = None
    ) -> None:
        """The deck against the practice duel's AI on each terrain, or on one (docs/lab.md)."""
        opponent = None if terrain is None else terrain.value
        await lab_reply(interaction, "immortals", LabRequest(interaction.user.id, opponent=opponent))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DUEL_ITEMS)
    await bot.add_cog(ImmortalsCog())
    attach_loaded(bot, SETUP_SECTION)
