"""A player's Immortal's War units and their deck: the collection (each copy with its level and XP) and
the one deck duels draw from.

A deck is a list of copies (their experience differs), typed by the player as unit names, a name taking
a count (« Diablotin x2 »); the service picks, for each name, the player's copies of highest level. The
deck rules are the engine's (`deck_problems`: 4 to 30 units, copies of one unit allowed by the highest
level among them, never 4) plus ownership; a refused deck lists every reason (`DeckInvalid`) and writes
nothing. A copy traded or given away is replaced in the deck at the swap by the player's best free copy
of the same unit (`repair_decks`, docs/trades.md); a copy lost with none to replace it makes the deck
unplayable, naming the unit, until it is saved again. Decisions: docs/immortals/economy.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import BadInput, NotFound
from engine.immortals import DECK_MAX, DECK_MIN, MAX_COPIES_BY_LEVEL, ImmortalsCatalog, deck_problems
from services.community.card_images.spec import CardCopy
from services.immortals.economy import (
    GAME_KEY,
    Copy,
    ImmortalsService,
    owned_copies,
    saved_deck,
    store_deck,
)
from services.immortals.names import unit_line
from services.infra.games import CollectionEntry, DeckHold
from services.infra.messages import Text
from services.shared import deck_holds
from services.shared.collecting import DeckInvalid, Problem
from services.shared.collection import paginate
from services.shared.decks import DeckText
from services.shared.decks import parse_deck as shared_parse
from store.connection import Connection

DECK_TEXT = DeckText(
    "immortals.error.deck.unknown_card", "immortals.error.deck.too_long", DECK_MAX, max_items=40, counts=True
)


@dataclass(frozen=True)
class DeckView:
    copies: tuple[Copy, ...]  # in saved order (copies no longer owned left out, and reported)
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class CollectionView:
    items: tuple[Copy, ...]  # this page's copies: highest level first, then name order of the catalog
    page: int
    pages: int
    copies: int
    in_deck: frozenset[int]
    starter: tuple[str, ...] = ()  # the sign-up units when this call gave them


def parse_deck(text: str, catalog: ImmortalsCatalog, locale: str | None = None) -> list[str]:
    """Catalog ids from typed names or ids (« name x2 » for two), repeats kept for validation; an unknown
    name is refused with the nearest names in `locale`."""
    return shared_parse(text, catalog.cards_by_id(), DECK_TEXT, locale)


def problems_of(copies: Sequence[Copy], catalog: ImmortalsCatalog, size: int | None = None) -> list[Problem]:
    """The engine's deck rules, each reason a message (sizes and copy limits named). `size`: the number
    of units asked for, when some of them could not be picked (the size rule judges what was asked)."""
    problems: list[Problem] = []
    count = len(copies) if size is None else size
    codes = deck_problems([(c.card.id, c.level) for c in copies], catalog)
    if size is not None:
        codes = [c for c in codes if c != "size"] + ([] if DECK_MIN <= size <= DECK_MAX else ["size"])
    for code in codes:
        kind, _, card = code.partition(":")
        if kind == "size":
            sizes = {"count": count, "minimum": DECK_MIN, "maximum": DECK_MAX}
            problems.append(Problem("immortals.deck.problem.size", sizes))
        elif kind == "copies":
            same = [c for c in copies if c.card.id == card]
            top = max(c.level for c in same)
            params: dict[str, object] = {
                "card": card,
                "count": len(same),
                "level": top,
                "maximum": MAX_COPIES_BY_LEVEL[top],
            }
            problems.append(Problem("immortals.deck.problem.copies", params))
        else:
            problems.append(Problem("immortals.deck.problem.unknown", {"card": card}))
    return problems


def pick_copies(wanted: Sequence[str], owned: dict[int, Copy]) -> tuple[list[Copy], list[Problem]]:
    """For each wanted unit, the owned copies of highest level (then XP, then oldest), in typed order;
    a unit asked more often than owned is a problem."""
    by_card: dict[str, list[Copy]] = {}
    for copy in owned.values():
        by_card.setdefault(copy.card.id, []).append(copy)
    for copies in by_card.values():
        copies.sort(key=lambda c: (-c.xp, c.copy_id))
    counts = Counter(wanted)
    problems = [
        Problem(
            "immortals.deck.problem.not_owned",
            {"card": card, "count": n, "owned": len(by_card.get(card, []))},
        )
        for card, n in counts.items()
        if n > len(by_card.get(card, []))
    ]
    taken: Counter[str] = Counter()
    chosen: list[Copy] = []
    for card in wanted:
        available = by_card.get(card, [])
        if taken[card] < len(available):
            chosen.append(available[taken[card]])
        taken[card] += 1
    return chosen, problems


def lost_copies(conn: Connection, lost: Sequence[int]) -> list[Problem]:
    """The deck's copies the player no longer owns, each naming its unit (a copy traded or given away
    still has its row); copies without a row are counted together."""
    problems: list[Problem] = []
    for copy_id in lost:
        row = conn.execute("SELECT card_key FROM cards WHERE id = ?", (copy_id,)).fetchone()
        if row is not None:
            problems.append(Problem("immortals.deck.problem.missing", {"card": str(row[0]), "copy": copy_id}))
    unnamed = len(lost) - len(problems)
    return problems + ([Problem("immortals.deck.problem.lost", {"count": unnamed})] if unnamed else [])


def deck_view(conn: Connection, player_id: int, catalog: ImmortalsCatalog) -> DeckView:
    """The saved deck against what the player owns now, with every reason it cannot be played."""
    ids = saved_deck(conn, player_id)
    owned = owned_copies(conn, player_id, catalog, ids)
    copies = [owned[i] for i in ids if i in owned]
    problems = lost_copies(conn, [i for i in ids if i not in owned])
    return DeckView(tuple(copies), tuple(problems + problems_of(copies, catalog)))


def _holds(
    conn: Connection, catalog: ImmortalsCatalog, player_id: int, leaving: Sequence[int], write: bool
) -> list[DeckHold]:
    """The deck's copies among `leaving`, each with the copy of the same unit that takes its place: a
    copy nothing holds first, then the most experienced, then the oldest; with `write`, the deck saved
    with them (a copy without a replacement stays, and the deck names it missing)."""
    deck = saved_deck(conn, player_id)
    offered = set(leaving)
    gone = offered & set(deck)
    if not gone:
        return []
    owned = owned_copies(conn, player_id, catalog)
    engaged = {
        int(i)
        for (i,) in conn.execute(
            "SELECT id FROM cards WHERE owner_id = ? AND game = ? AND locked_by IS NOT NULL",
            (player_id, GAME_KEY),
        )
    }

    def shared(copy: Copy) -> deck_holds.Copy:
        return deck_holds.Copy(copy.copy_id, copy.card.id, copy.copy_id in engaged)

    repaired = {i: i for i in deck}
    holds: list[DeckHold] = []
    for unit in sorted({owned[i].card.id for i in gone if i in owned}):
        held = [shared(owned[i]) for i in deck if i in owned and owned[i].card.id == unit]
        spare = sorted(
            (c for c in owned.values() if c.card.id == unit and c.copy_id not in repaired),
            key=lambda c: (c.copy_id in engaged, -c.xp, c.copy_id),
        )
        for lost, replacement in deck_holds.takeovers(held, [shared(c) for c in spare], offered):
            repaired[lost.id] = lost.id if replacement is None else replacement.id
            holds.append(
                deck_holds.hold(lost, replacement, Text("immortals.deck.held"), Text("immortals.deck.fix"))
            )
    if write and any(repaired[i] != i for i in deck):
        store_deck(conn, player_id, [repaired[i] for i in deck])
    return holds


def decks_holding(
    conn: Connection, catalog: ImmortalsCatalog, player_id: int, leaving: Sequence[int]
) -> list[DeckHold]:
    """`GameSpec.decks_holding`: the deck's copies among those offered, and what would replace them."""
    return _holds(conn, catalog, player_id, leaving, write=False)


def repair_decks(
    conn: Connection, catalog: ImmortalsCatalog, player_id: int, leaving: Sequence[int]
) -> list[DeckHold]:
    """`GameSpec.repair_decks`: at the swap, before the copies move, the deck takes their replacements."""
    return _holds(conn, catalog, player_id, leaving, write=True)


class ImmortalsDecks(ImmortalsService):
    async def save(self, player_id: int, wanted: Sequence[str]) -> DeckView:
        """Pick the copies for the typed units and save them as the deck, or refuse with every reason."""
        now = self.clock.now()
        cards = [str(c) for c in wanted]

        def unit(conn: Connection) -> DeckView:
            self.welcome(conn, now, player_id)
            chosen, problems = pick_copies(cards, owned_copies(conn, player_id, self.catalog))
            problems = problems_of(chosen, self.catalog, len(cards)) + problems
            if problems:
                raise DeckInvalid(problems)
            store_deck(conn, player_id, [c.copy_id for c in chosen])
            return DeckView(tuple(chosen), ())

        return await self.db.write(unit)

    async def show(self, player_id: int) -> DeckView:
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView:
            self.welcome(conn, now, player_id)
            return deck_view(conn, player_id, self.catalog)

        return await self.db.write(unit)

    async def collection(self, player_id: int, page: int = 1) -> CollectionView:
        """The player's copies, 10 a page, highest level first; the first look gives the sign-up gift."""
        if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= 10_000:
            raise BadInput("immortals.error.page")
        now = self.clock.now()
        order = {c.id: n for n, c in enumerate(self.catalog.cards)}

        def unit(conn: Connection) -> CollectionView:
            starter = self.welcome(conn, now, player_id)
            owned = sorted(
                owned_copies(conn, player_id, self.catalog).values(),
                key=lambda c: (-c.level, -c.xp, order[c.card.id], c.copy_id),
            )
            items, shown, pages = paginate(owned, page)
            deck = frozenset(saved_deck(conn, player_id))
            return CollectionView(tuple(items), shown, pages, len(owned), deck, tuple(starter or ()))

        return await self.db.write(unit)


def collection_entry(
    conn: Connection, catalog: ImmortalsCatalog, player_id: int, value: str
) -> CollectionEntry:
    """One copy of the collection, for « Voir une carte »: copies differ by level, so the select's value is
    a copy id, and only a copy of the player's opens."""
    if not value.isdigit() or len(value) > 18:
        raise NotFound("collection.entry.not_owned")
    copy = owned_copies(conn, player_id, catalog, [int(value)]).get(int(value))
    if copy is None:
        raise NotFound("collection.entry.not_owned")
    note = Text("immortals.copy.line", {"unit": unit_line(catalog, copy.card, copy.level), "xp": copy.xp})
    return CollectionEntry(copy.card.id, CardCopy(None, copy.level), 1, note)
