"""`/souhaits ajouter|retirer|liste` (English `/wishlist add|remove|list`): a player's wished cards, any
game's, found by name with autocomplete (services/community/wishlists/service.py). Private replies."""

from __future__ import annotations

from itertools import groupby
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.cards import AUTOCOMPLETE_LIMIT, card_choices
from core.i18n import t
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from services.community.wishlists.service import MAX_PER_GAME, Wish
from services.infra.catalogs import fold
from services.infra.games import GameRegistry


def list_text(wishes: list[Wish], locale: str, registry: GameRegistry) -> str:
    if not wishes:
        return t("wishlist.empty", locale)
    lines = [t("wishlist.title", locale)]
    for game, group in groupby(wishes, key=lambda w: w.ref.game):
        names = [w.ref.name_in(locale) for w in group]
        spec = registry.get(game)
        lines.append(
            t(
                "wishlist.game_line",
                locale,
                game=t(spec.name_key, locale) if spec is not None else game,
                count=len(names),
                limit=MAX_PER_GAME,
                cards=", ".join(names),
            )
        )
    lines.append(t("wishlist.footer", locale))
    return "\n".join(lines)


class WishlistCog(
    commands.GroupCog, group_name="wishlist", group_description=desc("cmd.wishlist.description")
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description=desc("cmd.wishlist.add.description"))
    @app_commands.describe(card=desc("cmd.wishlist.add.opt.card.description"))
    @app_commands.autocomplete(card=card_choices)
    async def add(self, interaction: discord.Interaction[Any], card: app_commands.Range[str, 1, 100]) -> None:
        locale = await locale_of(interaction)
        added = await services_of(interaction).wishlists.add(interaction.user.id, card, locale)
        spec = services_of(interaction).registry.get(added.ref.game)
        key = "wishlist.added" if added.fresh else "wishlist.already"
        answer = t(
            key,
            locale,
            card=added.ref.name_in(locale),
            game=t(spec.name_key, locale) if spec is not None else added.ref.game,
            count=added.count,
            limit=MAX_PER_GAME,
        )
        await interaction.response.send_message(answer, ephemeral=True)

    @app_commands.command(name="remove", description=desc("cmd.wishlist.remove.description"))
    @app_commands.describe(card=desc("cmd.wishlist.remove.opt.card.description"))
    async def remove(
        self, interaction: discord.Interaction[Any], card: app_commands.Range[str, 1, 100]
    ) -> None:
        locale = await locale_of(interaction)
        removed = await services_of(interaction).wishlists.remove(interaction.user.id, card, locale)
        await interaction.response.send_message(
            t("wishlist.removed", locale, card=removed.name_in(locale)), ephemeral=True
        )

    @remove.autocomplete("card")
    async def listed(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's own wishes whose name holds what was typed (a read only)."""
        locale = await locale_of(interaction)
        wanted = fold(current)
        wishes = await services_of(interaction).wishlists.wishes(interaction.user.id)
        found = [w.ref for w in wishes if wanted in fold(w.ref.name_in(locale))]
        return [
            app_commands.Choice(name=ref.name_in(locale)[:100], value=ref.key)
            for ref in found[:AUTOCOMPLETE_LIMIT]
        ]

    @app_commands.command(name="list", description=desc("cmd.wishlist.list.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        wishes = await services_of(interaction).wishlists.wishes(interaction.user.id)
        await interaction.response.send_message(
            list_text(wishes, locale, services_of(interaction).registry), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WishlistCog(bot))
