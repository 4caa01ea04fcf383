"""/setup pillz: the time a Pillz player has for each choice on a server, a section of the platform's
/setup group (cogs/shared/setup.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.pillz.duel import pillz_of
from cogs.shared.setup import SetupCommand, SetupSection, require_manage_guild
from core.i18n import t
from discord_app.context import locale_of
from discord_app.translator import desc


async def summary(interaction: discord.Interaction[Any], locale: str) -> str:
    assert interaction.guild_id is not None
    seconds = await pillz_of(interaction).duels.choice_seconds(interaction.guild_id)
    return t("pillz.setup.summary", locale, seconds=seconds)


@app_commands.describe(seconds=desc("cmd.setup.pillz.opt.seconds.description"))
async def pillz(interaction: discord.Interaction[Any], seconds: app_commands.Range[int, 30, 3600]) -> None:
    """The time a Pillz player has for each choice before the AI chooses for them."""
    require_manage_guild(interaction)
    locale = await locale_of(interaction)
    assert interaction.guild_id is not None
    saved = await pillz_of(interaction).duels.set_choice_time(interaction.guild_id, seconds)
    await interaction.response.send_message(
        t("setup.saved", locale) + "\n" + t("pillz.setup.summary", locale, seconds=saved), ephemeral=True
    )


def commands() -> tuple[SetupCommand, ...]:
    """A new command object for each /setup group (a command belongs to one group)."""
    return (app_commands.command(name="pillz", description=desc("cmd.setup.pillz.description"))(pillz),)


SETUP_SECTION = SetupSection("pillz", commands, summary)
