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
from core.i18n import format_decimal, format_int
from discord_app.components import PersistentButton
from discord_app.context import locale_of
from discord_app.translator import choice, desc
from engine.dinocard import ELEMENTS, DinocardCard
from services.dinocard.collection import CollectionPage
from services.dinocard.keys import ELEMENT_KEYS, RARITY_KEYS
from services.dinocard.names import card_line
from services.dinocard.packs import Pack
from services.dinocard.showoff import rare
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.shared.shop import Odds, Purchase, TierOdds
from services.shared.showoff import show_off_buttons

ELEMENT_CHOICES = [choice("dinocard_element", e) for e in ELEMENTS]
PAGE_LABELS = (Text("dinocard.button.previous"), Text("dinocard.button.next"))


def coins(amount: int, locale: str) -> Text:
    return Text("dinocard.gold_amount", {"amount": format_int(amount, locale)})


def collection_spec(page: CollectionPage, element: str | None) -> MessageSpec:
    lines = [
        Text(
            "dinocard.collection.line",
            {"line": card_line(o.card, o.count), "free": page.free.get(o.card.id, 0)},
        )
        for o in page.items
    ]
    fields = [EmbedField(Text("dinocard.collection.filter"), Text(ELEMENT_KEYS[element]))] if element else []
    fields.append(
        EmbedField(
            Text("dinocard.collection.page_label"),
            Text("dinocard.collection.page", {"page": page.page, "pages": page.pages}),
        )
    )
    embed = Embed(
        title=Text("dinocard.collection.title", {"cards": page.cards, "copies": page.copies}),
        description=Text.lines(lines) if lines else Text("dinocard.collection.empty"),
        fields=tuple(fields),
    )
    note = Text("dinocard.collection.starter", {"count": page.starter}) if page.starter else None
    return MessageSpec(content=note, embeds=(embed,))


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


def odds_spec(odds: Odds[TierOdds[str]], locale: str) -> MessageSpec:
    lines = [
        Text(
            "dinocard.odds.line",
            {
                "rarity": Text(RARITY_KEYS[r.tier]),
                "percent": format_decimal(r.per_mille / 10, locale),
                "cards": r.cards,
            },
        )
        for r in odds.tiers
    ]
    how = Text(
        "dinocard.odds.price",
        {"price": coins(odds.price, locale), "cards": odds.cards_per_pack, "maximum": odds.max_count},
    )
    fields = [EmbedField(Text("dinocard.odds.how"), how, inline=False)]
    if odds.balance is not None:
        fields.append(EmbedField(Text("dinocard.odds.balance"), coins(odds.balance, locale), inline=False))
    embed = Embed(title=Text("dinocard.odds.title"), description=Text.lines(lines), fields=tuple(fields))
    return MessageSpec(embeds=(embed,))


def purchase_spec(purchase: Purchase[DinocardCard], locale: str) -> MessageSpec:
    note = Text(
        "dinocard.boosters.paid",
        {"total": coins(purchase.total, locale), "balance": coins(purchase.balance, locale)},
    )
    fields = tuple(
        EmbedField(
            Text("dinocard.boosters.booster", {"number": n}),
            Text.lines([card_line(c.card) for c in booster]),
            inline=False,
        )
        for n, booster in enumerate(purchase.packs, start=1)
    )
    return MessageSpec(
        content=note,
        embeds=(Embed(title=Text("dinocard.boosters.title", {"count": purchase.count}), fields=fields),),
        buttons=show_off_buttons("dinocard", purchase.cards, rare),
    )


def leaderboard_spec(board: list[tuple[int, Pack]]) -> MessageSpec:
    lines = [
        Text(
            "dinocard.leaderboard.line",
            {
                "rank": rank,
                "pack": p.name,
                "who": f"<@{p.owner_id}>",
                "level": p.level,
                "wins": p.wins,
                "losses": p.losses,
            },
        )
        for rank, p in board
    ]
    embed = Embed(
        title=Text("dinocard.leaderboard.title"),
        description=Text.lines(lines) if lines else Text("dinocard.leaderboard.empty"),
    )
    return MessageSpec(embeds=(embed,))


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
