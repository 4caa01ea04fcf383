"""Which HOSS pulls may be shown off in public (« Montrer », services/shared/showoff.py): a copy of the
player's, face up, of rarity Or or rarer (Or, Platine, Diamant, Divin), drawn with its stars and holo."""

from __future__ import annotations

from engine.hoss import RARITIES, HossCatalog, Rarity
from services.community.card_images.spec import CardCopy
from services.hoss.collection import face_down_ids, owned_copies
from services.hoss.keys import RARITY_KEYS
from services.hoss.shop import Opening, OpeningCard
from services.infra.games import ShownCopy
from services.infra.messages import Text
from store.connection import Connection

SHOW_OFF_FROM = "or"


def worth_showing(rarity: Rarity) -> bool:
    return RARITIES.index(rarity) >= RARITIES.index(SHOW_OFF_FROM)


def showable(opening: Opening) -> list[OpeningCard]:
    """The cards of an opening its player may show off: face up, still theirs, Or or rarer."""
    return [
        s
        for s in opening.cards
        if s.flipped
        and s.owned
        and s.copy_id is not None
        and s.rarity is not None
        and worth_showing(s.rarity)
    ]


def show_off(conn: Connection, catalog: HossCatalog, player_id: int, copy_id: int) -> ShownCopy | None:
    if copy_id in face_down_ids(conn, player_id):
        return None
    cards = {card.id: card for card in catalog.cards}
    found = owned_copies(conn, cards, player_id, [copy_id])
    if not found or not worth_showing(found[0].rarity):
        return None
    copy = found[0]
    return ShownCopy(
        copy.card.id, CardCopy(copy.rarity, copy.stars, copy.holo), Text(RARITY_KEYS[copy.rarity])
    )
