"""What Chocobataille's shop, collection, decks, leagues and leaderboard show, as MessageSpecs of
localizable Text: pure functions of the services' results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from core.i18n import format_decimal, format_int
from engine.choco import ChocoCard
from services.choco.collection import CollectionPage
from services.choco.decks import DeckView
from services.choco.economy import GAME_KEY, LEAGUE_KEYS, LEAGUES
from services.choco.leagues import Leaderboard, Standing
from services.choco.names import RARITY_KEYS, TYPE_KEYS
from services.choco.shop import RarityOdds
from services.choco.showoff import rare
from services.community.daily import DailyClaim
from services.infra.messages import Embed, EmbedField, MessageSpec, Text, render_text
from services.shared.collecting import Problem
from services.shared.render import problems as shared_problems
from services.shared.shop import Odds, Purchase
from services.shared.showoff import show_off_buttons

LINE_KEYS = {
    "normal": "choco.economy.line.normal",
    "effect": "choco.economy.line.effect",
    "pure": "choco.economy.line.pure",
}


def galleons(amount: int, locale: str) -> Text:
    return Text("choco.gold_amount", {"amount": format_int(amount, locale)})


def card_line(card: ChocoCard, locale: str, count: int | None = None) -> Text:
    """One card with its stats: name, rarity, type, PA/PV for a wizard, the effect's name if any."""
    params: dict[str, Any] = {
        "name": card.name.get(locale),
        "rarity": Text(RARITY_KEYS[card.rarity]),
        "type": Text(TYPE_KEYS[card.type]),
        "pa": card.pa,
        "pv": card.pv,
        "effect": card.effect.name.get(locale) if card.effect is not None else "",
    }
    line = Text(LINE_KEYS[card.type], params)
    return line if count is None else Text("choco.economy.copies", {"count": count, "line": line})


def problem_lines(
    problems: tuple[Problem, ...] | list[Problem], cards: Mapping[str, ChocoCard], locale: str
) -> Text:
    return shared_problems.problem_lines(problems, cards, locale, "choco.economy.problem")


def purchase_spec(purchase: Purchase[ChocoCard], locale: str) -> MessageSpec:
    lines = [card_line(c.card, locale) for c in purchase.cards]
    note = Text(
        "choco.frogs.paid",
        {"total": galleons(purchase.total, locale), "balance": galleons(purchase.balance, locale)},
    )
    title = Text("choco.frogs.title", {"count": purchase.count})
    return MessageSpec(
        content=note,
        embeds=(Embed(title=title, description=Text.lines(lines)),),
        buttons=show_off_buttons(GAME_KEY, purchase.cards, rare),
    )


def odds_spec(odds: Odds[RarityOdds], locale: str) -> MessageSpec:
    """Each rarity's odds and one given card's: the per-card figure is the one that falls with rarity."""
    lines = [
        Text(
            "choco.odds.line",
            {
                "rarity": Text(RARITY_KEYS[r.tier]),
                "percent": format_decimal(r.per_mille / 10, locale),
                "cards": r.cards,
                "card_percent": format_decimal(float(r.per_card * 100), locale, ".2f"),
            },
        )
        for r in odds.tiers
    ]
    price = Text("choco.odds.price", {"price": galleons(odds.price, locale), "maximum": odds.max_count})
    fields = [EmbedField(Text("choco.odds.how"), price, inline=False)]
    if odds.balance is not None:
        fields.append(EmbedField(Text("choco.odds.balance"), galleons(odds.balance, locale), inline=False))
    embed = Embed(title=Text("choco.odds.title"), description=Text.lines(lines), fields=tuple(fields))
    return MessageSpec(embeds=(embed,))


def collection_spec(page: CollectionPage, rarity: str | None, kind: str | None, locale: str) -> MessageSpec:
    filters = [Text(RARITY_KEYS[rarity]) for rarity in (rarity,) if rarity is not None]
    filters += [Text(TYPE_KEYS[kind]) for kind in (kind,) if kind is not None]
    body = Text.lines([card_line(o.card, locale, o.count) for o in page.items]) if page.items else None
    fields = [
        EmbedField(
            Text("choco.collection.filter"), Text.raw(" · ".join(render_text(f, locale) for f in filters))
        )
    ]
    embed = Embed(
        title=Text("choco.collection.title", {"cards": page.cards, "copies": page.copies}),
        description=body or Text("choco.collection.empty"),
        fields=(
            *fields[: 1 if filters else 0],
            EmbedField(
                Text("choco.collection.page_label"),
                Text("choco.collection.page", {"page": page.page, "pages": page.pages}),
            ),
        ),
    )
    return MessageSpec(embeds=(embed,))


def deck_spec(view: DeckView, cards: Mapping[str, ChocoCard], locale: str, note: Text | None) -> MessageSpec:
    counts: dict[str, int] = {}
    for card_id in view.cards:
        counts[card_id] = counts.get(card_id, 0) + 1
    lines = [
        card_line(cards[c], locale, n) if c in cards else Text.raw(f"{n}× {c}") for c, n in counts.items()
    ]
    status = problem_lines(view.problems, cards, locale) if view.problems else Text("choco.deck.valid")
    embed = Embed(
        title=Text("choco.deck.title", {"league": Text(LEAGUE_KEYS[view.league]), "count": len(view.cards)}),
        description=Text.lines(lines),
        fields=(EmbedField(Text("choco.deck.status"), status, inline=False),),
    )
    return MessageSpec(content=note, embeds=(embed,))


def leagues_spec(
    open_: Mapping[str, list[Problem]], cards: Mapping[str, ChocoCard], locale: str
) -> MessageSpec:
    fields = []
    for league in LEAGUES:
        problems = open_[league]
        value = problem_lines(problems, cards, locale) if problems else Text("choco.leagues.open")
        name = Text(
            "choco.leagues.closed_name" if problems else "choco.leagues.open_name",
            {"league": Text(LEAGUE_KEYS[league])},
        )
        fields.append(EmbedField(name, value, inline=False))
    return MessageSpec(embeds=(Embed(title=Text("choco.leagues.title"), fields=tuple(fields)),))


def standing_line(s: Standing, who: str) -> Text:
    return Text(
        "choco.leaderboard.line",
        {
            "rank": s.rank,
            "who": who,
            "score": s.score,
            "wins": s.wins,
            "forfeits": s.absence_forfeits,
            "lost": s.cards_lost,
        },
    )


def leaderboard_spec(board: Leaderboard) -> MessageSpec:
    hrp = [standing_line(s, f"<@{s.player_id}>") for s in board.hrp]
    inrp = [standing_line(s, discord.utils.escape_markdown(s.character or "")) for s in board.inrp]
    empty = Text("choco.leaderboard.empty")
    fields = (
        EmbedField(
            Text("choco.leaderboard.hrp", {"count": board.players}),
            Text.lines(hrp) if hrp else empty,
            inline=False,
        ),
        EmbedField(
            Text("choco.leaderboard.inrp", {"count": board.characters}),
            Text.lines(inrp) if inrp else Text("choco.leaderboard.no_character"),
            inline=False,
        ),
    )
    embed = Embed(
        title=Text("choco.leaderboard.title"), description=Text("choco.leaderboard.rule"), fields=fields
    )
    return MessageSpec(embeds=(embed,))


def daily_text(claim: DailyClaim, locale: str) -> Text:
    balance = galleons(claim.balance, locale)
    if claim.credited:
        return Text("choco.daily.credited", {"amount": galleons(claim.amount, locale), "balance": balance})
    return Text(
        "choco.daily.already", {"next": f"<t:{int(claim.next_at.timestamp())}:R>", "balance": balance}
    )
