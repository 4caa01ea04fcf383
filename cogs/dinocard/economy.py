"""/dino collection, boutique, acheter, classement and alertes: the cards a player owns, the boosters and
their odds, the packs' leaderboard and the defence notices. Replies are private but the leaderboard."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.dinocard.common import dino_of
from cogs.shared.cards import add_entry_select, owned_options
from cogs.shared.components import NO_VALUE, check_owner, decode_choice, encode_choice, page_buttons, reply
from cogs.shared.mixins import CommandsMixin, send, send_board
from discord_app.components import PersistentButton
from discord_app.context import locale_of
from discord_app.translator import choice, desc
from engine.dinocard import ELEMENTS
from services.dinocard.collection import CollectionPage
from services.dinocard.render.economy import collection_spec, leaderboard_spec, odds_spec, purchase_spec
from services.infra.messages import MessageSpec, Text

ELEMENT_CHOICES = [choice("dinocard_element", e) for e in ELEMENTS]
PAGE_LABELS = (Text("dinocard.button.previous"), Text("dinocard.button.next"))


def collection_reply(page: CollectionPage, element: str | None, owner: int, locale: str) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    prefix = f"dino:page:{owner}:{encode_choice(element, ELEMENTS)}"
    for item in page_buttons(CollectionPageButton, prefix, page.page, page.pages, PAGE_LABELS, locale):
        view.add_item(item)
    add_entry_select(view, "dinocard", owner, owned_options(page.items, locale), locale)
    return reply(collection_spec(page, element), locale, view)


class CollectionPageButton(
    PersistentButton, template=r"dino:page:(?P<owner>\d+):(?P<element>-|\d):(?P<page>\d{1,6})"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        element = decode_choice(self.match["element"], ELEMENTS)
        page = await dino_of(interaction).collection.page(
            interaction.user.id, element=element, page=int(self.match["page"]), locale=locale
        )
        await interaction.response.edit_message(
            **collection_reply(page, element, interaction.user.id, locale)
        )


class DinocardEconomyCommands(CommandsMixin):
    @app_commands.command(name="collection", description=desc("cmd.dino.collection.description"))
    @app_commands.describe(element=desc("cmd.dino.collection.opt.element.description"))
    @app_commands.choices(element=ELEMENT_CHOICES)
    async def collection(self, interaction: discord.Interaction[Any], element: str | None = None) -> None:
        locale = await locale_of(interaction)
        page = await dino_of(interaction).collection.page(interaction.user.id, element=element, locale=locale)
        await interaction.response.send_message(
            **collection_reply(page, element, interaction.user.id, locale), ephemeral=True
        )

    @app_commands.command(name="shop", description=desc("cmd.dino.shop.description"))
    async def shop(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        odds = await dino_of(interaction).shop.odds(interaction.user.id)
        await send(interaction, odds_spec(odds, locale), locale)

    @app_commands.command(name="buy", description=desc("cmd.dino.buy.description"))
    @app_commands.describe(count=desc("cmd.dino.buy.opt.count.description"))
    async def buy(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 5] = 1
    ) -> None:
        locale = await locale_of(interaction)
        purchase = await dino_of(interaction).shop.buy(interaction.user.id, count, key=interaction.id)
        await send(interaction, purchase_spec(purchase, locale), locale)

    @app_commands.command(name="leaderboard", description=desc("cmd.dino.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        await locale_of(interaction)
        board = await dino_of(interaction).battles.leaderboard()
        await send_board(interaction, leaderboard_spec(board))

    @app_commands.command(name="notices", description=desc("cmd.dino.notices.description"))
    @app_commands.describe(on=desc("cmd.dino.notices.opt.on.description"))
    async def notices(self, interaction: discord.Interaction[Any], on: bool) -> None:
        locale = await locale_of(interaction)
        await dino_of(interaction).battles.set_notify(interaction.user.id, on)
        key = "dinocard.notices.on" if on else "dinocard.notices.off"
        await send(interaction, MessageSpec(content=Text(key)), locale)


ECONOMY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (CollectionPageButton,)
__all__ = ["ECONOMY_ITEMS", "NO_VALUE", "DinocardEconomyCommands"]
