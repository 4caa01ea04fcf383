"""The preparation of a Dinocard challenge (docs/dinocard/decisions.md, "Preparation"): what the
challenger's « Perception » shows of the opposing pack, the bonus cards checked as a launch checks them,
and the collection's free cards that may still be added.

Rulebook: « Avant chaque combat, une page vous permet de voir les informations disponibles du pack
adverse et d'ajouter des cartes bonus afin de vous adapter à ses éléments/cartes. La page de préparation
du combat vous montre aussi les cartes disponibles dans votre collection. » The page keeps no state: each
control asks for it again with the whole choice (cogs/dinocard/preparation.py), and the launch checks
everything once more in its own unit (`DinocardBattles.launch`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.errors import BadInput, NotAllowed
from engine.dinocard import (
    CARD_TYPES,
    ELEMENTS,
    MAX_COPIES,
    DinocardCard,
    bonus_cards,
    bonus_problems,
    bonus_room,
    can_challenge,
    perceived,
)
from services.dinocard.economy import DinocardService, welcomed
from services.dinocard.packs import (
    Pack,
    daily_left,
    find_pack,
    free_counts,
    opponent_pack,
    shortages,
    traded_counts,
)
from services.shared.collecting import DeckInvalid, Problem
from services.shared.collection import CollectionPage, owned_page
from store.connection import Connection

EMPTY_PAGE: CollectionPage[DinocardCard] = CollectionPage((), 1, 1, 0, 0)


@dataclass(frozen=True)
class Preparation:
    """What the challenger sees before « Lancer le Défi »: their pack, what their Perception reveals of the
    opposing pack, the bonus cards they chose (checked), and a page of their collection's free cards that
    may still be added (each with how many copies may), filtered by element and type."""

    pack: Pack
    opponent_id: int
    opponent_name: str
    opponent_level: int
    opponent_owner: int
    seen: dict[str, object]
    bonus: tuple[str, ...]
    bonus_allowed: int
    daily_left: int
    choices: CollectionPage[DinocardCard] = EMPTY_PAGE
    element: str | None = None
    kind: str | None = None  # a card type


class DinocardPreparation(DinocardService):
    """The checks of a challenge and its preparation page; `DinocardBattles` launches what they allow."""

    def _bonus_check(
        self, conn: Connection, pack: Pack, bonus: Sequence[str], free: Mapping[str, int] | None = None
    ) -> None:
        """The bonus's rules, then its copies: free ones for each card asked (`free`, the owner's free
        copies when the caller has them). No bonus asks for no copy; the copies an open trade holds are
        read only to word a shortage."""
        allowed = bonus_cards(pack.skills)
        found = [
            Problem(
                f"dinocard.bonus.problem.{p.code}", {"card": p.card, "count": p.count, "maximum": allowed}
            )
            for p in bonus_problems(pack.cards, bonus, allowed, set(self.cards))
        ]
        wanted = Counter(bonus)
        if wanted:
            free = free_counts(conn, pack.owner_id) if free is None else free
            if any(free.get(card, 0) < count for card, count in wanted.items()):
                found += shortages(wanted, free, traded_counts(conn, pack.owner_id), self.cards)
        if found:
            raise DeckInvalid(found)

    def _checked(
        self,
        conn: Connection,
        player: int,
        mine: Pack,
        opponent_id: int,
        bonus: Sequence[str],
        free: Mapping[str, int] | None = None,
    ) -> Pack:
        """Every check of a challenge (the opposing pack, the 5-level window, the bonus): the preparation
        page runs them, and the launch again in its own unit. Returns the opposing pack."""
        opponent = opponent_pack(conn, opponent_id, player)
        if not can_challenge(mine.level, opponent.level):
            raise NotAllowed("dinocard.error.challenge.window", level=opponent.level, maximum=mine.level + 5)
        self._bonus_check(conn, mine, bonus, free)
        return opponent

    async def prepare(
        self,
        player: int,
        pack_ref: str,
        opponent_id: int,
        bonus: Sequence[str],
        *,
        element: str | None = None,
        kind: str | None = None,
        page: int = 1,
        locale: str | None = None,
    ) -> Preparation:
        """The preparation page (« La page de préparation du combat vous montre aussi les cartes
        disponibles dans votre collection »): every check of a launch, and page `page` of the free cards
        that may still be added as bonus, of `element` and of type `kind` when given, sorted as the
        collection is. A read, unless the player is still to be welcomed (their starter given)."""
        if (element is not None and element not in ELEMENTS) or (kind is not None and kind not in CARD_TYPES):
            raise BadInput()
        now = self.clock.now()

        def prepared_in(conn: Connection) -> Preparation:
            mine = find_pack(conn, player, pack_ref)
            free = free_counts(conn, player)  # for the bonus's check and for the cards it may add
            opponent = self._checked(conn, player, mine, opponent_id, bonus, free)
            choices = owned_page(
                _addable(free, mine, bonus),
                self.cards,
                None
                if element is None and kind is None
                else lambda card: element in (None, card.element) and kind in (None, card.type),
                self.collection_rank(locale),
                page,
            )
            return Preparation(
                pack=mine,
                opponent_id=opponent.id,
                opponent_name=opponent.name,
                opponent_level=opponent.level,
                opponent_owner=opponent.owner_id,
                seen=perceived(mine.skills, opponent.cards, self.kinds),
                bonus=tuple(bonus),
                bonus_allowed=bonus_cards(mine.skills),
                daily_left=daily_left(conn, mine, self.today(now)),
                choices=choices,
                element=element,
                kind=kind,
            )

        def unit(conn: Connection) -> Preparation:
            self.welcome(conn, now, player)
            return prepared_in(conn)

        prepared = await self.db.read(lambda conn: prepared_in(conn) if welcomed(conn, player) else None)
        return prepared if prepared is not None else await self.db.write(unit)


def _addable(free: Mapping[str, int], pack: Pack, bonus: Sequence[str]) -> Counter[str]:
    """The copies of each card that may still join the bonus: free copies not chosen yet, within the
    3 identical cards the pack and the bonus may hold together."""
    chosen = Counter(bonus)
    room = bonus_room(pack.cards, bonus)
    return Counter(  # `get`: a Counter's missing key goes through its Python `__missing__`, per free card
        {
            card: left
            for card, n in free.items()
            if (left := min(n - chosen.get(card, 0), room.get(card, MAX_COPIES))) > 0
        }
    )
