"""/card: any card of any game, found by name in the reader's language; and the selects « Voir une carte » under
every game's collection pages and under a hand or a line-up (cogs/shared/cards.py), registered here."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.cards import CardViewSelect, EntrySelect, ShowOffButton, card_choices
from discord_app.context import locale_of, services_of
from discord_app.render import image_file, to_discord
from discord_app.translator import desc
from services.shared.collecting import card_not_found
from services.shared.render.cards import card_spec


class CardsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="card", description=desc("cmd.card.description"))
    @app_commands.describe(name=desc("cmd.card.opt.name.description"))
    async def card(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 100]
    ) -> None:
        locale = await locale_of(interaction)
        index = services_of(interaction).cards
        ref = index.resolve(name, locale)
        card = index.get(ref.game, ref.card_id) if ref is not None else None
        if ref is None or card is None:
            raise card_not_found(name, index.suggest(name, locale))
        images = services_of(interaction).card_images
        image = await images.image(ref.game, ref.card_id, None, locale) if images.art(ref.game) else None
        kwargs = to_discord(
            card_spec(ref, card, index.catalog(ref.game), locale, services_of(interaction).registry, image),
            locale,
        )
        if image is not None:
            kwargs["files"] = [image_file(image)]
        await interaction.response.send_message(**kwargs, ephemeral=True)

    @card.autocomplete("name")
    async def card_name(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CardsCog(bot))
    bot.add_dynamic_items(EntrySelect, ShowOffButton, CardViewSelect)
