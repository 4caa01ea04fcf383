"""Which Immortal's War recruits may be shown off in public (« Montrer », services/shared/showoff.py): a
unit of tier 3, légendaire, the game's top tier (docs/card-images.md). Copies differ here (each has its
experience), so the copy itself must still be the player's, and it is drawn at its level."""

from __future__ import annotations

from engine.immortals import ImmortalsCard, ImmortalsCatalog
from services.community.card_images.spec import CardCopy
from services.immortals.economy import owned_copies
from services.immortals.names import TIER_KEYS
from services.infra.games import ShownCopy
from services.infra.messages import Text
from store.connection import Connection

SHOWN_TIER = 3


def rare(card: ImmortalsCard) -> Text | None:
    return Text(TIER_KEYS[card.tier]) if card.tier >= SHOWN_TIER else None


def show_off(conn: Connection, catalog: ImmortalsCatalog, player_id: int, copy_id: int) -> ShownCopy | None:
    copy = owned_copies(conn, player_id, catalog, [copy_id]).get(copy_id)
    rarity = rare(copy.card) if copy is not None else None
    if copy is None or rarity is None:
        return None
    return ShownCopy(copy.card.id, CardCopy(None, copy.level), rarity)
