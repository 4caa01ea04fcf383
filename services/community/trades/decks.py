"""What a trade does to the giver's decks (docs/trades.md, "Decks"): a warning in the giver's own window
while the trade is open, and at the swap the decks' repair and a DM telling the giver what changed.

The platform names no game: each game answers through its `GameSpec` which of its decks use a copy and
which copy takes its place (`decks_holding`), and repairs them at the swap (`repair_decks`, for decks
that store copies). A game that declares neither trades as before. Only the giver reads about their own
decks: what a deck holds is theirs, so the partner's window and DMs never carry it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from services.community.card_names import named
from services.community.trades.store import Trade
from services.infra.catalogs import CardIndex
from services.infra.games import DeckHold, GameRegistry
from services.infra.messages import Embed, MessageSpec, Text
from store.connection import Connection

MAX_LINES = 8  # of one window or notice; the rest are counted (an embed's description stays short)
WILL = {
    "replaced": "trades.decks.will.replaced",
    "engaged": "trades.decks.will.engaged",
    "missing": "trades.decks.will.missing",
    "playable": "trades.decks.will.playable",
}
DID = {
    "replaced": "trades.decks.did.replaced",
    "engaged": "trades.decks.did.engaged",
    "missing": "trades.decks.did.missing",
    "playable": "trades.decks.did.playable",
}
TITLES = {"trade": "trades.decks.after.trade", "gift": "trades.decks.after.gift"}


def _offered(trade: Trade, player: int) -> list[int]:
    return [i.card_id for i in trade.offered_by(player) if i.card_id is not None]


def _holds(
    conn: Connection, trade: Trade, player: int, cards: CardIndex, registry: GameRegistry
) -> list[DeckHold]:
    """The decks of `player` that use a copy they offer in this trade, read-only."""
    spec = registry.get(trade.game)
    offered = _offered(trade, player)
    if spec is None or spec.decks_holding is None or not offered:
        return []
    return spec.decks_holding(conn, cards.catalog(trade.game), player, offered)


def _outcome(hold: DeckHold) -> str:
    if hold.replacement is not None:
        return "engaged" if hold.replacement_engaged else "replaced"
    return "playable" if hold.playable else "missing"


def _lines(
    trade: Trade, found: Sequence[DeckHold], cards: CardIndex, keys: dict[str, str], others: Iterable[str]
) -> list[Text]:
    """A line per copy a deck uses; the card named as in the window (`others`: the other party's
    language, services/community/card_names.py)."""
    names = {i.card_id: i.card_key for i in trade.items if i.card_id is not None}
    lines = []
    for hold in found[:MAX_LINES]:
        card = cards.get(trade.game, names.get(hold.copy_id) or "")
        name = named(card.name, others) if card is not None else Text("trades.decks.a_card")
        params: dict[str, object] = {"card": name, "copy": hold.copy_id, "deck": hold.deck, "fix": hold.fix}
        if hold.replacement is not None:
            params["replacement"] = hold.replacement
        lines.append(Text(keys[_outcome(hold)], params))
    if len(found) > MAX_LINES:
        lines.append(Text("trades.decks.more", {"count": len(found) - MAX_LINES}))
    return lines


def warnings(
    conn: Connection,
    trade: Trade,
    viewer: int,
    cards: CardIndex,
    registry: GameRegistry,
    other_language: str | None = None,
) -> tuple[Text, ...]:
    """What `viewer` reads in their own window about their decks before confirming: each copy they offer
    that a deck of theirs uses, and what the deck does without it. Nothing once the trade has ended."""
    if trade.status != "open":
        return ()
    others = () if other_language is None else (other_language,)
    return tuple(_lines(trade, _holds(conn, trade, viewer, cards, registry), cards, WILL, others))


def repair(
    conn: Connection, trade: Trade, cards: CardIndex, registry: GameRegistry
) -> dict[int, list[DeckHold]]:
    """At the swap, in its unit and before the copies move: each giver's decks let go of the copies
    leaving (a game whose decks store copies writes the replacements now). Returns what each giver is
    told once the trade is done (`notices`)."""
    spec = registry.get(trade.game)
    hook = None if spec is None else spec.repair_decks or spec.decks_holding
    if hook is None:
        return {}
    found: dict[int, list[DeckHold]] = {}
    for giver in (trade.proposer_id, trade.partner_id):
        offered = _offered(trade, giver)
        if not offered:
            continue
        changed = hook(conn, cards.catalog(trade.game), giver, offered)
        if changed:
            found[giver] = changed
    return found


def notices(
    trade: Trade,
    repaired: dict[int, list[DeckHold]],
    cards: CardIndex,
    languages: Mapping[int, str] | None = None,
) -> list[tuple[int, MessageSpec]]:
    """The DM each giver whose decks changed gets after the swap, and only they; `languages`: each
    party's, the other's card names beside the giver's."""
    read = languages or {}
    return [
        (
            giver,
            MessageSpec(
                embeds=(
                    Embed(
                        title=Text(TITLES[trade.kind], {"id": trade.id}),
                        description=Text.lines(
                            _lines(trade, found, cards, DID, _language_of(read, trade.other(giver)))
                        ),
                    ),
                )
            ),
        )
        for giver, found in repaired.items()
    ]


def _language_of(languages: Mapping[int, str], player: int) -> tuple[str, ...]:
    return (languages[player],) if player in languages else ()
