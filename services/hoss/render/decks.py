"""A HOSS deck's page and the list of a player's decks, as MessageSpecs of localizable Text; a deck's
problems in words, what the player typed quoted short."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.message_guard import echo
from engine.hoss import BuffCard, CreatureCard, HossCatalog
from services.hoss import BUFF_KEYS, CLASS_KEYS, RACE_KEYS, RANK_KEYS
from services.hoss.collection import HossCard
from services.hoss.decks import BuffView, DeckView, LineView, RankView
from services.hoss.render.collection import RARITY_KEYS, card_name, number, percent
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.shared.collecting import Problem
from services.shared.decks import did_you_mean
from services.shared.render.problems import PARAM_ECHO_LIMIT


def line_name(catalog_first: dict[str, CreatureCard], line: str, locale: str) -> str:
    first = catalog_first.get(line)
    return line if first is None else card_name(first, locale)


# A deck problem naming an entry that is no card, and the kind of card that entry should have named.
UNKNOWN_ENTRY: dict[str, type[HossCard]] = {
    "hoss.error.deck.unknown_line": CreatureCard,
    "hoss.error.deck.unknown_buff": BuffCard,
}


def problem_text(problem: Problem, catalog: HossCatalog, first: dict[str, CreatureCard], locale: str) -> Text:
    """A deck problem with its ids shown as card names in the reader's language; an entry that names no
    card is quoted as typed, with the nearest names of the right kind (creatures or buffs)."""
    params: dict[str, Any] = dict(problem.params)
    typed = params.get("line", params.get("buff"))
    if problem.key in UNKNOWN_ENTRY and isinstance(typed, str):
        kind = [c for c in catalog.cards if isinstance(c, UNKNOWN_ENTRY[problem.key])]
        hint = did_you_mean(typed, {c.id: c for c in kind}, locale)
        return Text("hoss.deck.problem.unknown_card", {"name": echo(typed, PARAM_ECHO_LIMIT), "hint": hint})
    if isinstance(params.get("line"), str):
        params["line"] = echo(line_name(first, params["line"], locale), PARAM_ECHO_LIMIT)
    if isinstance(params.get("buff"), str):
        buff = next((c for c in catalog.cards if c.id == params["buff"]), None)
        params["buff"] = echo(params["buff"], PARAM_ECHO_LIMIT) if buff is None else card_name(buff, locale)
    return Text(problem.key, params)


def _rank_line(rank: RankView, cards: dict[str, HossCard], locale: str) -> Text:
    card, stats = cards[rank.copy.card], rank.stats
    assert isinstance(card, CreatureCard)
    key = "hoss.deck.rank_defender" if card.cls == "defenseur" else "hoss.deck.rank_attacker"
    return Text(
        key,
        {
            "rank": Text(RANK_KEYS[rank.rank]),
            "name": card_name(card, locale),
            "quality": Text(
                "hoss.copy.quality_holo" if rank.copy.holo else "hoss.copy.quality",
                {"rarity": Text(RARITY_KEYS[rank.copy.rarity]), "stars": rank.copy.stars},
            ),
            "bonus": percent(rank.copy.bonus_pm / 1000, locale),
            "pv": number(stats.pv, locale),
            "atk": number(stats.atk, locale),
            "interval": number(stats.interval_s, locale, 2),
            "block": percent(stats.block, locale),
        },
    )


def _line_field(line: LineView, cards: dict[str, HossCard], locale: str) -> EmbedField:
    name = Text(
        "hoss.deck.line_title", {"race": Text(RACE_KEYS[line.race]), "cls": Text(CLASS_KEYS[line.cls])}
    )
    body = [_rank_line(r, cards, locale) for r in line.ranks]
    body += [Text("hoss.deck.unreachable", {"name": card_name(cards[m], locale)}) for m in line.unreachable]
    return EmbedField(name, Text.lines(body), inline=False)


def _buff_line(buff: BuffView, cards: dict[str, HossCard], locale: str) -> Text:
    return Text(
        "hoss.deck.buff_line",
        {
            "name": card_name(cards[buff.copy.card], locale),
            "effect": Text(BUFF_KEYS[buff.effect], {"power": number(buff.strength_bp / 100, locale)}),
        },
    )


def deck_spec(
    view: DeckView,
    catalog: HossCatalog,
    first: dict[str, CreatureCard],
    locale: str,
    *,
    note: Text | None = None,
) -> MessageSpec:
    cards: dict[str, HossCard] = {c.id: c for c in catalog.cards}
    fields = [_line_field(line, cards, locale) for line in view.lines]
    if view.buffs:
        fields.append(
            EmbedField(
                Text("hoss.deck.buffs"),
                Text.lines([_buff_line(b, cards, locale) for b in view.buffs]),
                inline=False,
            )
        )
    if view.problems:
        reasons = [problem_text(p, catalog, first, locale) for p in view.problems]
        fields.append(EmbedField(Text("hoss.deck.problems"), Text.lines(reasons), inline=False))
    status = (
        Text("hoss.deck.valid") if view.valid else Text("hoss.deck.invalid", {"count": len(view.problems)})
    )
    key = "hoss.deck.title_active" if view.active else "hoss.deck.title"
    title = Text(key, {"slot": view.slot, "name": view.name})
    description = Text.lines([status, Text("hoss.deck.stats_note")])
    return MessageSpec(
        content=note, embeds=(Embed(title=title, description=description, fields=tuple(fields[:25])),)
    )


def deck_list_spec(views: Sequence[DeckView]) -> MessageSpec:
    if not views:
        return MessageSpec(content=Text("hoss.deck.none"))
    lines = []
    for view in views:
        status = (
            Text("hoss.deck.valid")
            if view.valid
            else Text("hoss.deck.invalid", {"count": len(view.problems)})
        )
        key = "hoss.deck.list_line_active" if view.active else "hoss.deck.list_line"
        lines.append(Text(key, {"slot": view.slot, "name": echo(view.name, 100), "status": status}))
    return MessageSpec(embeds=(Embed(title=Text("hoss.deck.list_title"), description=Text.lines(lines)),))
