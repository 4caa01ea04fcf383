"""Pillz decks: four saved slots of 8 to 12 distinct characters the player owns (at most one leader),
and the active one the duels draw their four characters from.

A deck stores catalog ids, not copies: copies of a character are interchangeable. A character lost since
saving can make a saved deck invalid, so `show`, `activate` and `active_deck` re-check against the
characters owned now. Validation lists every reason (a `Problem`); saving an invalid deck raises
`DeckInvalid` and writes nothing. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.errors import BadInput
from engine.pillz import PillzCard
from services.infra.games import DeckHold
from services.infra.messages import Text
from services.pillz.collection import owned_counts
from services.pillz.economy import GAME_KEY, PillzService, store_deck
from services.shared.collecting import DeckInvalid, Problem
from services.shared.deck_holds import SavedDeck, counted_holds, owned
from services.shared.decks import DeckText, stored_cards
from services.shared.decks import active_slot as shared_active_slot
from services.shared.decks import parse_deck as shared_parse
from store.connection import Connection

DECK_SLOTS = 4
MIN_CARDS = 8
MAX_CARDS = 12
MAX_LEADERS = 1
DECK_TEXT = DeckText("pillz.error.deck.unknown_card", "pillz.error.deck.too_long", MAX_CARDS, max_items=24)


@dataclass(frozen=True)
class DeckView:
    slot: int
    cards: tuple[str, ...]  # as saved, in saved order
    problems: tuple[Problem, ...]  # against the characters owned now; empty = playable
    active: bool

    @property
    def valid(self) -> bool:
        return not self.problems


def check(
    deck: Sequence[str], owned: Mapping[str, int], cards: Mapping[str, PillzCard] | None
) -> list[Problem]:
    """Every reason this deck cannot be played by a player owning `owned`. Without `cards` (the catalog),
    the checks that need it (unknown ids, leaders) are skipped."""
    problems: list[Problem] = []
    if not MIN_CARDS <= len(deck) <= MAX_CARDS:
        problems.append(
            Problem(
                "pillz.deck.problem.count", {"count": len(deck), "minimum": MIN_CARDS, "maximum": MAX_CARDS}
            )
        )
    leaders: list[str] = []
    for card_id, used in Counter(deck).items():
        card = cards.get(card_id) if cards is not None else None
        if cards is not None and card is None:
            problems.append(Problem("pillz.deck.problem.unknown", {"card": card_id}))
            continue
        if used > 1:
            problems.append(Problem("pillz.deck.problem.duplicate", {"card": card_id, "count": used}))
        if owned.get(card_id, 0) < 1:
            problems.append(Problem("pillz.deck.problem.not_owned", {"card": card_id}))
        if card is not None and card.leader:
            leaders.append(card_id)
    if len(leaders) > MAX_LEADERS:
        problems.append(
            Problem("pillz.deck.problem.leaders", {"count": len(leaders), "maximum": MAX_LEADERS})
        )
    return problems


def parse_deck(text: str, cards: Mapping[str, PillzCard], locale: str | None = None) -> list[str]:
    """Ids or names, one character each; repeats stay so validation reports them."""
    return shared_parse(text, cards, DECK_TEXT, locale)


def check_slot(slot: int) -> int:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= DECK_SLOTS:
        raise BadInput("pillz.error.deck.slot", minimum=1, maximum=DECK_SLOTS)
    return slot


def deck_in_slot(conn: Connection, player_id: int, slot: int) -> list[str] | None:
    row = conn.execute(
        "SELECT cards FROM pillz_decks WHERE player_id = ? AND slot = ?", (player_id, slot)
    ).fetchone()
    return stored_cards(None if row is None else row[0])


def active_slot(conn: Connection, player_id: int) -> int | None:
    return shared_active_slot(conn, "pillz_profiles", player_id)


def lost_cards(problems: Sequence[Problem], slot: int) -> list[Problem]:
    """A saved deck checked again: a character it names that the player no longer owns (traded, given) is
    said missing from that deck, with the command that completes it."""
    return [
        Problem("pillz.deck.problem.missing", {"card": p.params["card"], "slot": slot})
        if p.key == "pillz.deck.problem.not_owned"
        else p
        for p in problems
    ]


def decks_holding(
    conn: Connection, catalog: object, player_id: int, leaving: Sequence[int]
) -> list[DeckHold]:
    """`GameSpec.decks_holding`: the saved decks that count on these copies (services/shared/deck_holds.py);
    a player with no saved deck has nothing more read (their copies, their active slot)."""
    rows = conn.execute(
        "SELECT slot, cards FROM pillz_decks WHERE player_id = ? ORDER BY slot", (player_id,)
    ).fetchall()
    if not rows:
        return []
    active = active_slot(conn, player_id)
    decks = [
        SavedDeck(
            stored_cards(cards) or [],
            Text("pillz.deck.held_active" if slot == active else "pillz.deck.held", {"slot": slot}),
            Text("pillz.deck.fix", {"slot": slot}),
        )
        for slot, cards in rows
    ]
    return counted_holds(decks, owned(conn, player_id, GAME_KEY), set(leaving))


def active_problems(
    conn: Connection, player_id: int, cards: Mapping[str, PillzCard] | None = None
) -> list[Problem]:
    """Every reason the player's active deck cannot be played now (no active deck is a reason too)."""
    slot = active_slot(conn, player_id)
    deck = None if slot is None else deck_in_slot(conn, player_id, slot)
    if slot is None or deck is None:
        return [Problem("pillz.deck.problem.no_active")]
    return lost_cards(check(deck, owned_counts(conn, player_id), cards), slot)


def active_deck(
    conn: Connection, player_id: int, cards: Mapping[str, PillzCard] | None = None
) -> list[str] | None:
    """The active deck's ids when it is playable now, else None (see `active_problems` for why). For the
    duel service, inside its own unit; pass the catalog's cards to check unknown ids and leaders too."""
    if active_problems(conn, player_id, cards):
        return None
    slot = active_slot(conn, player_id)
    return None if slot is None else deck_in_slot(conn, player_id, slot)


class PillzDecks(PillzService):
    async def save(
        self, player_id: int, slot: int, deck: Sequence[str], *, activate: bool = False
    ) -> DeckView:
        """Validate against the characters owned now and store in `slot` (replacing it); `activate` also
        makes it the active deck. An invalid deck raises `DeckInvalid` with every reason, changing nothing
        (but the starter deck, given first if this is the player's first Pillz call)."""
        chosen = check_slot(slot)
        wanted = [str(c) for c in deck]
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView:
            self.welcome(conn, now, player_id)
            problems = check(wanted, owned_counts(conn, player_id, free=True), self.cards)
            if problems:
                raise DeckInvalid(problems)
            store_deck(conn, now, player_id, chosen, wanted)
            if activate or active_slot(conn, player_id) is None:  # a player's only deck is the one they play
                self._activate(conn, player_id, chosen)
            return DeckView(chosen, tuple(wanted), (), active_slot(conn, player_id) == chosen)

        return await self.db.write(unit)

    async def activate(self, player_id: int, slot: int) -> DeckView:
        """Make a saved, playable deck the active one; otherwise `DeckInvalid` says why."""
        chosen = check_slot(slot)
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView:
            self.welcome(conn, now, player_id)
            deck = deck_in_slot(conn, player_id, chosen)
            if deck is None:
                raise DeckInvalid([Problem("pillz.deck.problem.none", {"slot": chosen})])
            problems = lost_cards(check(deck, owned_counts(conn, player_id), self.cards), chosen)
            if problems:
                raise DeckInvalid(problems)
            self._activate(conn, player_id, chosen)
            return DeckView(chosen, tuple(deck), (), True)

        return await self.db.write(unit)

    async def show(self, player_id: int, slot: int) -> DeckView | None:
        """The saved deck with its problems against the characters owned now; None for an empty slot."""
        chosen = check_slot(slot)
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView | None:
            self.welcome(conn, now, player_id)
            deck = deck_in_slot(conn, player_id, chosen)
            if deck is None:
                return None
            problems = lost_cards(check(deck, owned_counts(conn, player_id), self.cards), chosen)
            return DeckView(chosen, tuple(deck), tuple(problems), active_slot(conn, player_id) == chosen)

        return await self.db.write(unit)

    @staticmethod
    def _activate(conn: Connection, player_id: int, slot: int) -> None:
        conn.execute("UPDATE pillz_profiles SET active_slot = ? WHERE player_id = ?", (slot, player_id))
