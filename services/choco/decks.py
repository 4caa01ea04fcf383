"""Chocobataille decks: one saved deck per player and league, validated with every reason, and `auto`.

A deck is 24 catalog ids (rulebook I: 24 cards of the collection, never more than two of one card); it
stores ids, not copies, because copies of a card are interchangeable. So a card lost or traded since
saving can make a saved deck invalid: `show` and `validate` always re-check against the cards owned now.
Validation lists every reason (a `Problem`); saving an invalid deck raises `DeckInvalid` and writes
nothing. Decisions (what `auto` builds): docs/choco/economy.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.clock import Clock, to_db
from engine.choco import DECK_SIZE, MAX_COPIES, RARITIES, ChocoCard, ChocoCatalog
from services.choco.collection import owned_counts
from services.choco.economy import ALLOWED_RARITIES, GAME_KEY, LEAGUE_KEYS, League, league_of
from services.choco.names import RARITY_KEYS
from services.infra.games import DeckHold, GameRegistry
from services.infra.messages import Text
from services.infra.players import ensure_player
from services.shared.collecting import DeckInvalid, Problem
from services.shared.deck_holds import SavedDeck, counted_holds, owned
from services.shared.decks import DeckText, stored_cards
from services.shared.decks import parse_deck as shared_parse
from store.connection import Connection
from store.db import Database

DeckProblem = Problem


@dataclass(frozen=True)
class DeckView:
    league: League
    cards: tuple[str, ...]  # the 24 ids as saved, in saved order
    problems: tuple[Problem, ...]  # against the cards owned now; empty = playable

    @property
    def valid(self) -> bool:
        return not self.problems


def check(
    deck: Sequence[str], owned: Mapping[str, int], cards: Mapping[str, ChocoCard], league: League
) -> list[Problem]:
    """Every reason this deck cannot be played in this league by a player owning `owned`."""
    problems: list[Problem] = []
    if len(deck) != DECK_SIZE:
        problems.append(Problem("choco.deck.problem.count", {"expected": DECK_SIZE, "count": len(deck)}))
    allowed = ALLOWED_RARITIES[league]
    wizards = 0
    for card_id, used in Counter(deck).items():
        card = cards.get(card_id)
        if card is None:
            problems.append(Problem("choco.deck.problem.unknown", {"card": card_id}))
            continue
        wizards += used if card.type != "pure" else 0
        if used > MAX_COPIES:
            problems.append(
                Problem("choco.deck.problem.copies", {"card": card_id, "count": used, "maximum": MAX_COPIES})
            )
        if owned.get(card_id, 0) < used:
            problems.append(
                Problem(
                    "choco.deck.problem.not_owned",
                    {"card": card_id, "needed": used, "owned": owned.get(card_id, 0)},
                )
            )
        if card.rarity not in allowed:
            problems.append(
                Problem(
                    "choco.deck.problem.rarity",
                    {
                        "card": card_id,
                        "rarity": Text(RARITY_KEYS[card.rarity]),
                        "league": Text(LEAGUE_KEYS[league]),
                    },
                )
            )
    if deck and not wizards:
        problems.append(Problem("choco.deck.problem.no_wizard"))
    return problems


def strongest(owned: Mapping[str, int], cards: Mapping[str, ChocoCard], league: League) -> list[str]:
    """The strongest legal deck from these copies, or fewer than 24 ids when none can be built.

    Wizards (normal and effect) first, by PA + PV, then PA, then rarity, then id, up to two copies of
    each; pure effects (rarest first) only fill what wizards cannot. Sorted by the same key, so the
    result reads strongest first."""
    allowed = ALLOWED_RARITIES[league]
    usable = [cards[c] for c, n in owned.items() if c in cards and n > 0 and cards[c].rarity in allowed]

    def power(card: ChocoCard) -> tuple[int, int, int, str]:
        return (-((card.pa or 0) + (card.pv or 0)), -(card.pa or 0), -RARITIES.index(card.rarity), card.id)

    wizards = sorted((c for c in usable if c.type != "pure"), key=power)
    pures = sorted((c for c in usable if c.type == "pure"), key=power)
    deck: list[str] = []
    for card in (*wizards, *pures):
        take = min(MAX_COPIES, owned[card.id], DECK_SIZE - len(deck))
        deck += [card.id] * take
        if len(deck) == DECK_SIZE:
            break
    return deck


DECK_TEXT = DeckText(
    "choco.error.deck.unknown_card", "choco.error.deck.too_long", DECK_SIZE, max_items=48, counts=True
)


def parse_deck(text: str, cards: Mapping[str, ChocoCard], locale: str | None = None) -> list[str]:
    """Ids or names, each optionally followed by `x2`; counts above two stay as typed so validation
    reports them with the other problems."""
    return shared_parse(text, cards, DECK_TEXT, locale)


def _stored(conn: Connection, player_id: int, league: League) -> list[str] | None:
    row = conn.execute(
        "SELECT cards FROM choco_decks WHERE player_id = ? AND league = ?", (player_id, league)
    ).fetchone()
    return stored_cards(None if row is None else row[0])


def deck_cards(conn: Connection, player_id: int, league: League) -> list[str] | None:
    """The saved deck of this league as stored (not re-checked), None when there is none."""
    return _stored(conn, player_id, league)


def lost_cards(problems: Sequence[Problem], league: League) -> list[Problem]:
    """A saved deck checked again: a card it uses more often than the player still owns (traded, given)
    is said missing from that league's deck, with the command that completes it."""
    return [
        Problem("choco.deck.problem.missing", {**p.params, "league": Text(LEAGUE_KEYS[league])})
        if p.key == "choco.deck.problem.not_owned"
        else p
        for p in problems
    ]


def validate(conn: Connection, catalog: ChocoCatalog, player_id: int, league: League) -> list[Problem]:
    """Every reason the saved deck cannot be played now (no deck is a reason too); empty = playable."""
    deck = _stored(conn, player_id, league)
    if deck is None:
        return [Problem("choco.deck.problem.none", {"league": Text(LEAGUE_KEYS[league])})]
    problems = check(deck, owned_counts(conn, player_id), {c.id: c for c in catalog.cards}, league)
    return lost_cards(problems, league)


def decks_holding(
    conn: Connection, catalog: object, player_id: int, leaving: Sequence[int]
) -> list[DeckHold]:
    """`GameSpec.decks_holding`: the leagues' saved decks that count on these copies (a game in progress
    plays the deck it copied at its start: services/shared/deck_holds.py); a player with no saved deck has
    their copies left unread."""
    rows = conn.execute(
        "SELECT league, cards FROM choco_decks WHERE player_id = ? ORDER BY league", (player_id,)
    ).fetchall()
    if not rows:
        return []
    decks = [
        SavedDeck(
            stored_cards(cards) or [],
            Text("choco.deck.held", {"league": Text(LEAGUE_KEYS[league])}),
            Text("choco.deck.fix", {"league": Text(LEAGUE_KEYS[league])}),
        )
        for league, cards in rows
        if league in LEAGUE_KEYS
    ]
    return counted_holds(decks, owned(conn, player_id, GAME_KEY), set(leaving))


class ChocoDecks:
    def __init__(self, db: Database, clock: Clock, catalog: ChocoCatalog, *, registry: GameRegistry) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.cards: Mapping[str, ChocoCard] = {c.id: c for c in catalog.cards}

    def _write(self, conn: Connection, player_id: int, league: League, deck: list[str]) -> DeckView:
        now = self.clock.now()
        ensure_player(conn, player_id, now, self.registry)
        conn.execute(
            "INSERT INTO choco_decks (player_id, league, cards, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (player_id, league) DO UPDATE SET cards = excluded.cards,"
            " updated_at = excluded.updated_at",
            (player_id, league, json.dumps(deck), to_db(now)),
        )
        return DeckView(league, tuple(deck), ())

    async def save(self, player_id: int, league: str, deck: Sequence[str]) -> DeckView:
        """Validate against the cards owned now and store; an invalid deck raises `DeckInvalid` with every
        reason and changes nothing. Saving over a league's deck replaces it (harmless twice: no key)."""
        chosen = league_of(league)
        wanted = [str(c) for c in deck]

        def unit(conn: Connection) -> DeckView:
            problems = check(wanted, owned_counts(conn, player_id, free=True), self.cards, chosen)
            if problems:
                raise DeckInvalid(problems)
            return self._write(conn, player_id, chosen, wanted)

        return await self.db.write(unit)

    async def auto(self, player_id: int, league: str) -> DeckView:
        """Build the strongest legal deck from the collection (see `strongest`) and save it; when none can
        be built, `DeckInvalid` says why (too few usable cards, or no wizard)."""
        chosen = league_of(league)

        def unit(conn: Connection) -> DeckView:
            owned = owned_counts(conn, player_id, free=True)  # a deck being saved: no copy a trade holds
            deck = strongest(owned, self.cards, chosen)
            if len(deck) < DECK_SIZE:
                params = {"count": len(deck), "expected": DECK_SIZE, "league": Text(LEAGUE_KEYS[chosen])}
                raise DeckInvalid([Problem("choco.deck.problem.auto_short", params)])
            problems = check(deck, owned, self.cards, chosen)
            if problems:  # only "no wizard" can remain: a deck of pure effects
                raise DeckInvalid(problems)
            return self._write(conn, player_id, chosen, deck)

        return await self.db.write(unit)

    async def show(self, player_id: int, league: str) -> DeckView | None:
        """The saved deck with its problems against the cards owned now; None when none is saved."""
        chosen = league_of(league)

        def unit(conn: Connection) -> DeckView | None:
            deck = _stored(conn, player_id, chosen)
            if deck is None:
                return None
            problems = check(deck, owned_counts(conn, player_id), self.cards, chosen)
            return DeckView(chosen, tuple(deck), tuple(lost_cards(problems, chosen)))

        return await self.db.read(unit)
