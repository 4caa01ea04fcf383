"""/privacy: a player's personal data, sent to them as a file by DM, or erased after a confirmation
(docs/privacy.md)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.components import button, check_owner
from core.i18n import t
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from services.infra.messages import Text


class EraseButton(PersistentButton, template=r"privacy:erase:(?P<owner>\d+)"):
    """The confirmation: only the player who asked may click it, and a second click finds nothing."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        erased = await services_of(interaction).privacy.erase(interaction.user.id)
        key = "privacy.delete.done" if erased else "privacy.delete.nothing"
        await interaction.response.edit_message(content=t(key, locale), view=None)


class PrivacyCog(commands.GroupCog, group_name="privacy", group_description=desc("cmd.privacy.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="export", description=desc("cmd.privacy.export.description"))
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        await services_of(interaction).privacy.export(interaction.user.id)
        await interaction.response.send_message(t("privacy.export.sent", locale), ephemeral=True)

    @app_commands.command(name="delete", description=desc("cmd.privacy.delete.description"))
    async def delete(self, interaction: discord.Interaction[Any]) -> None:
        """Nothing is erased yet: the button asks once more, privately."""
        locale = await locale_of(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(
            button(
                EraseButton,
                f"privacy:erase:{interaction.user.id}",
                Text("privacy.delete.confirm_button"),
                locale,
                "danger",
            )
        )
        await interaction.response.send_message(
            t("privacy.delete.confirm", locale), view=view, ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(EraseButton)
    await bot.add_cog(PrivacyCog(bot))
