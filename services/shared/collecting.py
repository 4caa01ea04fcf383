"""What the card-collecting games share about refusals and ownership: a `Problem` (one reason something
is refused, as a message key), `DeckInvalid` (a deck refused with every reason), and `owned_counts`.

A deck check reports every problem at once, so a player fixes a deck in one go; services return these,
and the Discord layer names the cards in the reader's language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import NotFound
from core.message_guard import echo
from engine.cards import CardBase
from engine.errors import DomainError
from services.infra.catalogs import fold
from services.infra.messages import Text
from store.connection import Connection


@dataclass(frozen=True)
class Problem:
    """Why something is refused: a message key and its parameters. A `card` parameter is a catalog id,
    named in the reader's language by `text` (services never pick a language)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, cards: Mapping[str, CardBase], locale: str | None) -> Text:
        params = dict(self.params)
        card = cards.get(str(params.get("card", "")))
        if card is not None:
            params["card"] = Text.raw(card.name.get(locale))
        return Text(self.key, params)

    def named(self, cards: Mapping[str, CardBase]) -> Text:
        """The reason with its card named in every language, the reader's picked when it is shown: for a
        refusal a service raises, which knows no reader."""
        params = dict(self.params)
        card = cards.get(str(params.get("card", "")))
        if card is not None:
            params["card"] = Text.per_locale({"fr": card.name.fr, "en": card.name.en})
        return Text(self.key, params)


class DeckInvalid(DomainError):
    """The deck breaks the rules; shown by its first reason, `problems` holds them all."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0].key, **problems[0].params)
        self.problems = tuple(problems)


def card_not_found(name: str, suggestions: Sequence[str]) -> NotFound:
    """ "No card is called …", with the nearest names (in the reader's language) when some are close:
    the refusal names the card the player typed and what they probably meant."""
    typed = echo(name)
    if not suggestions:
        return NotFound("error.card_not_found", name=typed)
    return NotFound("error.card_not_found_suggest", name=typed, suggestions=", ".join(suggestions))


def name_index(cards: Mapping[str, CardBase]) -> dict[str, str]:
    """Folded names in both languages, and folded ids, to catalog ids: what a player may type for a card
    (case and accents ignored; the first card wins a name two cards share)."""
    by_name: dict[str, str] = {}
    for card in cards.values():
        for lang in ("fr", "en"):
            by_name.setdefault(fold(card.name.get(lang)), card.id)
        by_name.setdefault(fold(card.id), card.id)
    return by_name


def owned_counts(conn: Connection, player_id: int, game: str, *, free: bool = False) -> Counter[str]:
    """Copies the player owns per catalog id in `game`: locked copies included (they are still owned), or
    with `free` only the unlocked ones, which a deck being saved may count: a copy offered in a trade is
    « en cours d'échange » and may leave at the swap (docs/trades.md)."""
    rows = conn.execute(
        "SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ? AND game = ?"
        + (" AND locked_by IS NULL" if free else "")
        + " GROUP BY card_key",
        (player_id, game),
    )
    return Counter({str(key): int(n) for key, n in rows})
