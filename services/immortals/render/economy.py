"""What Les Immortels' collection, decks, spell book and ladder show, as MessageSpecs of localizable
Text: pure functions of the services' results."""

from __future__ import annotations

from engine.immortals import ImmortalsCatalog
from services.immortals.decks import CollectionView, DeckView
from services.immortals.economy import Copy
from services.immortals.ladder import Leaderboard
from services.immortals.names import spell_text, unit_line
from services.immortals.spells import SpellBook
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.shared.render import problems as shared_problems
from services.shared.render.ladder import ladder_spec


def copy_line(catalog: ImmortalsCatalog, copy: Copy, in_deck: bool = False) -> Text:
    key = "immortals.copy.in_deck" if in_deck else "immortals.copy.line"
    return Text(key, {"unit": unit_line(catalog, copy.card, copy.level), "xp": copy.xp})


def collection_spec(view: CollectionView, catalog: ImmortalsCatalog) -> MessageSpec:
    lines = [copy_line(catalog, c, c.copy_id in view.in_deck) for c in view.items]
    embed = Embed(
        title=Text("immortals.collection.title", {"count": view.copies}),
        description=Text.lines(lines) if lines else Text("immortals.collection.empty"),
        fields=(
            EmbedField(
                Text("immortals.collection.page_label"),
                Text("immortals.collection.page", {"page": view.page, "pages": view.pages}),
            ),
        ),
    )
    note = Text("immortals.collection.starter", {"count": len(view.starter)}) if view.starter else None
    return MessageSpec(content=note, embeds=(embed,))


def deck_spec(view: DeckView, catalog: ImmortalsCatalog, locale: str, note: Text | None) -> MessageSpec:
    lines = [copy_line(catalog, c) for c in view.copies]
    status = (
        shared_problems.problem_lines(
            view.problems, catalog.cards_by_id(), locale, "immortals.economy.problem"
        )
        if view.problems
        else Text("immortals.deck.valid")
    )
    embed = Embed(
        title=Text("immortals.deck.title", {"count": len(view.copies)}),
        description=Text.lines(lines) if lines else Text("immortals.deck.empty"),
        fields=(EmbedField(Text("immortals.deck.status"), status, inline=False),),
    )
    return MessageSpec(content=note, embeds=(embed,))


def book_spec(book: SpellBook, catalog: ImmortalsCatalog) -> MessageSpec:
    known = Text.lines([Text("immortals.economy.item", {"item": spell_text(catalog, s)}) for s in book.known])
    unknown = Text.lines(
        [Text("immortals.economy.item", {"item": spell_text(catalog, s)}) for s in book.unknown]
    )
    fields = [EmbedField(Text("immortals.spells.known", {"count": len(book.known)}), known, inline=False)]
    if book.unknown:
        fields.append(
            EmbedField(Text("immortals.spells.unknown", {"count": len(book.unknown)}), unknown, inline=False)
        )
    embed = Embed(
        title=Text("immortals.spells.title"),
        description=Text("immortals.spells.how", {"price": book.price, "fragments": book.fragments}),
        fields=tuple(fields),
    )
    return MessageSpec(embeds=(embed,))


def leaderboard_spec(board: Leaderboard) -> MessageSpec:
    lines = [
        Text(
            "immortals.leaderboard.line",
            {
                "rank": e.rank,
                "who": f"<@{e.player_id}>",
                "points": e.combat_points,
                "xp": e.xp,
                "duels": e.duels,
                "wins": e.wins,
            },
        )
        for e in board.entries
    ]
    return ladder_spec("immortals", board.players, lines)
