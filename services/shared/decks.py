"""Decks as every card game of the platform stores and reads them: a typed list of cards parsed into
catalog ids, a saved deck's ids read back from its JSON column, and the active deck's slot.

A deck stores catalog ids, not copies (copies of a card are interchangeable), so a saved deck is checked
again against the cards owned now whenever it is shown or played; the checks themselves are each game's
rules and report every `services.shared.collecting.Problem` at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import BadInput
from core.message_guard import echo
from engine.cards import CardBase
from services.infra.catalogs import closest, fold
from services.infra.messages import Text
from services.shared.collecting import name_index
from store.connection import Connection

ECHO_LIMIT = 64  # how much of an unknown entry a refusal quotes
_COUNT_SUFFIX = re.compile(r"^(?P<name>.*?)\s*[x×]\s*(?P<count>\d{1,2})$", re.IGNORECASE)


@dataclass(frozen=True)
class DeckText:
    """How one game reads a deck typed as text, and its two refusals."""

    unknown_key: str  # an entry that names no card; `{name}` is the entry
    too_long_key: str  # more entries than `max_items`, or a count above `size`; `{maximum}` is `size`
    size: int  # the largest legal deck
    max_items: int  # entries read at most: room for a too-large deck that validation then reports
    counts: bool = False  # "name x2" / "name ×2" stands for two entries


def did_you_mean(item: str, cards: Mapping[str, CardBase], locale: str | None) -> Text:
    """The nearest card names to an unknown entry, in the reader's language, or the advice to check."""
    suggestions = closest(item, sorted({card.name.get(locale) for card in cards.values()}))
    if not suggestions:
        return Text("cards.check_name")
    return Text("cards.did_you_mean", {"suggestions": ", ".join(suggestions)})


def parse_deck(
    text: str, cards: Mapping[str, CardBase], rules: DeckText, locale: str | None = None
) -> list[str]:
    """Catalog ids from what a player typed: comma-separated ids or names (either language, case and
    accents ignored), each followed by a count when the game allows it. An unknown entry is refused naming
    it, and so is a text longer than `rules.max_items`; any other text gives ids, repeats kept so that
    validation reports them with the other problems. Raises nothing but `BadInput`; an unknown entry's
    refusal offers the nearest names in `locale` (its `hint`)."""
    by_name = name_index(cards)
    deck: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        count = 1
        match = _COUNT_SUFFIX.match(item) if rules.counts else None
        if match and fold(match["name"]) in by_name:
            item, count = match["name"], int(match["count"])
        card_id = item if item in cards else by_name.get(fold(item))
        if card_id is None:
            raise BadInput(
                rules.unknown_key, name=echo(item, ECHO_LIMIT), hint=did_you_mean(item, cards, locale)
            )
        if not 1 <= count <= rules.size or len(deck) + count > rules.max_items:
            raise BadInput(rules.too_long_key, maximum=rules.size)
        deck += [card_id] * count
    return deck


def active_slot(conn: Connection, profiles_table: str, player_id: int) -> int | None:
    """The slot of the player's active deck, from the `active_slot` column of the game's profile table
    (a constant of the game's code, never input); None when no deck is chosen."""
    row = conn.execute(
        f"SELECT active_slot FROM {profiles_table} WHERE player_id = ?", (player_id,)
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def stored_cards(value: str | None) -> list[str] | None:
    """A saved deck's ids from its JSON column (None: no deck saved there)."""
    return None if value is None else [str(c) for c in json.loads(value)]
