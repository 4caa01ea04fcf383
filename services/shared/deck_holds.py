"""Which copies a saved deck counts on, and which copy takes the place of one that leaves in a trade: what
the games answer the trade window through `GameSpec.decks_holding` (docs/trades.md, "Decks").

A game whose decks name cards (Pillz, Chocobataille: any copy of a card serves) has no copy of its own in
a deck; the deck is said to count, for each card, on as many copies as it uses: first those nothing holds,
then those leaving in the trade at hand, then those held elsewhere, lowest-numbered first in each group.
So a copy offered while enough free copies stay is not "in the deck", and one that is gets the next copy
as its replacement, even one another trade holds (the deck plays it while it is owned).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from services.infra.games import DeckHold
from services.infra.messages import Text
from store.connection import Connection


@dataclass(frozen=True)
class Copy:
    id: int
    card: str  # catalog id
    engaged: bool  # held by a lock: another trade, an Arena deck, a pack


@dataclass(frozen=True)
class SavedDeck:
    """A saved deck as the trade window names it to its owner, with the command that completes it."""

    cards: Sequence[str]  # catalog ids, a card repeated once per copy used
    name: Text
    fix: Text


def owned(conn: Connection, player_id: int, game: str) -> list[Copy]:
    rows = conn.execute(
        "SELECT id, card_key, locked_by FROM cards WHERE owner_id = ? AND game = ? ORDER BY id",
        (player_id, game),
    )
    return [Copy(int(i), str(key), lock is not None) for i, key, lock in rows]


def takeovers(
    held: Sequence[Copy], spare: Sequence[Copy], leaving: Collection[int]
) -> list[tuple[Copy, Copy | None]]:
    """Each held copy that leaves, paired with the spare that takes its place (in `spare`'s order, never
    one that leaves too), or with None once the spares run out."""
    gone = [c for c in held if c.id in leaving]
    left = [c for c in spare if c.id not in leaving]
    return [(copy, left[n] if n < len(left) else None) for n, copy in enumerate(gone)]


def hold(gone: Copy, replacement: Copy | None, deck: Text, fix: Text, *, playable: bool = False) -> DeckHold:
    return DeckHold(
        gone.id,
        deck,
        fix,
        replacement=None if replacement is None else replacement.id,
        replacement_engaged=replacement is not None and replacement.engaged,
        playable=playable,
    )


def counted_holds(
    decks: Iterable[SavedDeck], copies: Sequence[Copy], leaving: Collection[int]
) -> list[DeckHold]:
    """The holds of decks that name cards (module docstring): per deck and card, the copies it counts on
    that leave, each with the next copy that stays."""
    holds: list[DeckHold] = []
    leaving_cards = {c.card for c in copies if c.id in leaving}
    for deck in decks:
        for card, used in Counter(deck.cards).items():
            if card not in leaving_cards:
                continue
            ranked = sorted(
                (c for c in copies if c.card == card),
                key=lambda c: (0 if not c.engaged else 1 if c.id in leaving else 2, c.id),
            )
            for gone, replacement in takeovers(ranked[:used], ranked[used:], leaving):
                holds.append(hold(gone, replacement, deck.name, deck.fix))
    return holds
