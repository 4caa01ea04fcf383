"""What Pillz's shop, collection, decks and ladder show, as MessageSpecs of localizable Text: pure
functions of the services' results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.i18n import format_decimal, format_int
from engine.pillz import PillzCard, PillzCatalog
from services.infra.messages import Embed, EmbedField, MessageSpec, Number, Text
from services.pillz.collection import CollectionPage
from services.pillz.decks import DeckView
from services.pillz.ladder import Leaderboard
from services.pillz.names import ability_text, clan_name, stars_text
from services.pillz.showoff import rare
from services.shared.collecting import Problem
from services.shared.render import problems as shared_problems
from services.shared.render.ladder import ladder_spec
from services.shared.shop import Odds, Purchase, TierOdds
from services.shared.showoff import show_off_buttons


def coins(amount: int, locale: str) -> Text:
    return Text("pillz.gold_amount", {"amount": format_int(amount, locale)})


def character_line(card: PillzCard, catalog: PillzCatalog, locale: str, count: int | None = None) -> Text:
    """One character with its stats: name (👑 for a leader), stars, clan, P/D, its ability if any."""
    params: dict[str, Any] = {
        "name": ("👑 " if card.leader else "") + card.name.get(locale),
        "stars": stars_text(card.stars),
        "clan": clan_name(catalog, card.clan, locale),
        "power": card.power,
        "damage": card.damage,
    }
    ability = ability_text(card, locale)
    line = (
        Text("pillz.economy.line", params)
        if ability is None
        else Text("pillz.economy.line_ability", params | {"ability": ability})
    )
    return line if count is None else Text("pillz.economy.copies", {"count": count, "line": line})


def problem_lines(
    problems: tuple[Problem, ...] | list[Problem], cards: Mapping[str, PillzCard], locale: str
) -> Text:
    return shared_problems.problem_lines(problems, cards, locale, "pillz.economy.problem")


def purchase_spec(purchase: Purchase[PillzCard], catalog: PillzCatalog, locale: str) -> MessageSpec:
    note = Text(
        "pillz.packs.paid",
        {"total": coins(purchase.total, locale), "balance": coins(purchase.balance, locale)},
    )
    fields = tuple(
        EmbedField(
            Text("pillz.packs.pack", {"number": n}),
            Text.lines([character_line(c.card, catalog, locale) for c in pack]),
            inline=False,
        )
        for n, pack in enumerate(purchase.packs, start=1)
    )
    embed = Embed(title=Text("pillz.packs.title", {"count": purchase.count}), fields=fields)
    return MessageSpec(content=note, embeds=(embed,), buttons=show_off_buttons("pillz", purchase.cards, rare))


def odds_spec(odds: Odds[TierOdds[int]], locale: str) -> MessageSpec:
    lines = [
        Text(
            "pillz.odds.line",
            {
                "stars": stars_text(s.tier),
                "percent": format_decimal(s.per_mille / 10, locale),
                "cards": s.cards,
            },
        )
        for s in odds.tiers
    ]
    price = Text(
        "pillz.odds.price",
        {"price": coins(odds.price, locale), "cards": odds.cards_per_pack, "maximum": odds.max_count},
    )
    fields = [EmbedField(Text("pillz.odds.how"), price, inline=False)]
    if odds.balance is not None:
        fields.append(EmbedField(Text("pillz.odds.balance"), coins(odds.balance, locale), inline=False))
    embed = Embed(title=Text("pillz.odds.title"), description=Text.lines(lines), fields=tuple(fields))
    return MessageSpec(embeds=(embed,))


def collection_spec(
    page: CollectionPage, clan: str | None, stars: int | None, catalog: PillzCatalog, locale: str
) -> MessageSpec:
    filters = [clan_name(catalog, clan, locale)] if clan is not None else []
    filters += [stars_text(stars)] if stars is not None else []
    lines = [character_line(o.card, catalog, locale, o.count) for o in page.items]
    body = Text.lines(lines) if lines else None
    fields = [EmbedField(Text("pillz.collection.filter"), Text.raw(" · ".join(filters)))] if filters else []
    fields.append(
        EmbedField(
            Text("pillz.collection.page_label"),
            Text("pillz.collection.page", {"page": page.page, "pages": page.pages}),
        )
    )
    embed = Embed(
        title=Text("pillz.collection.title", {"cards": page.cards, "copies": page.copies}),
        description=body or Text("pillz.collection.empty"),
        fields=tuple(fields),
    )
    note = Text("pillz.collection.starter", {"count": len(page.starter)}) if page.starter else None
    return MessageSpec(content=note, embeds=(embed,))


def deck_spec(view: DeckView, catalog: PillzCatalog, locale: str, note: Text | None) -> MessageSpec:
    cards = {c.id: c for c in catalog.cards}
    lines = [character_line(cards[c], catalog, locale) if c in cards else Text.raw(c) for c in view.cards]
    status = problem_lines(view.problems, cards, locale) if view.problems else Text("pillz.deck.valid")
    embed = Embed(
        title=Text("pillz.deck.title", {"slot": view.slot, "count": len(view.cards)}),
        description=Text.lines(lines),
        fields=(
            EmbedField(Text("pillz.deck.status"), status, inline=False),
            EmbedField(
                Text("pillz.deck.active_label"),
                Text("pillz.deck.active" if view.active else "pillz.deck.inactive"),
                inline=False,
            ),
        ),
    )
    return MessageSpec(content=note, embeds=(embed,))


def leaderboard_spec(board: Leaderboard) -> MessageSpec:
    lines = [
        Text(
            "pillz.leaderboard.line",
            {
                "rank": e.rank,
                "who": f"<@{e.player_id}>",
                "rating": Number(e.rating),
                "games": e.games,
                "wins": e.wins,
                "draws": e.draws,
                "losses": e.losses,
            },
        )
        for e in board.entries
    ]
    return ladder_spec("pillz", board.players, lines)
