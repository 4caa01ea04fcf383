"""What Dinocard's collection, shop and leaderboard show, as MessageSpecs of localizable Text: pure
functions of the services' results."""

from __future__ import annotations

from core.i18n import format_decimal, format_int
from engine.dinocard import DinocardCard
from services.dinocard.collection import CollectionPage
from services.dinocard.keys import ELEMENT_KEYS, RARITY_KEYS
from services.dinocard.names import card_line
from services.dinocard.packs import Pack
from services.dinocard.showoff import rare
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.shared.shop import Odds, Purchase, TierOdds
from services.shared.showoff import show_off_buttons


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
