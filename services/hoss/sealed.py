"""Boosters bought sealed: their cards drawn at the purchase, their copies minted when they are opened.

A purchase of ten boosters shows one booster at a time, and minting its sixty copies in the purchase's
unit (a ledger row, an insert and an opening slot each) made it cost three times a bare bot's command.
So only the first booster of a purchase is minted there; each other one is stored with its six cards
already drawn (`hoss_openings.sealed`) and minted by the unit that opens it (« Booster suivant »,
`/hoss ouvrir`, or a flip that names it).

Decision: the draw is made at the purchase and stored, not a seed stored for a draw at the opening. Either
way nothing can be re-rolled (the player never sees nor chooses what feeds the draw, and opening later
changes nothing), but a stored draw is data: it does not depend on `draw_booster`'s code nor on the
catalog's order staying the same until the booster is opened, and the purchase's randomness is spent in
the purchase, as before (the same seed gives the same cards as when all sixty were minted at once).

Opening is guarded: `UPDATE ... SET sealed = NULL WHERE ... AND sealed IS NOT NULL` must change the row,
so however many clicks race, one unit mints the six copies and the others find the booster open.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.hoss import DrawnCard
from services.infra import ledger
from store.connection import Connection

REASON_BOOSTER = "hoss.booster"

# A sealed slot as stored: card id, rarity, holo.
SealedCard = tuple[str, str, bool]


def seal(drawn: Sequence[DrawnCard]) -> str:
    """The stored form of a booster's six drawn cards, in opening order."""
    return json.dumps([[d.card, d.rarity, d.holo] for d in drawn])


def _unsealed(stored: str) -> list[SealedCard]:
    return [(str(card), str(rarity), bool(holo)) for card, rarity, holo in json.loads(stored)]


def mint_opening(
    conn: Connection, now: datetime, player_id: int, opening_id: int, cards: Sequence[SealedCard]
) -> None:
    """The booster's copies, each with its ledger row (reason `hoss.booster`, ref = the opening id) and
    its face-down slot at its position."""
    why = ledger.Movement(REASON_BOOSTER, ref=str(opening_id))
    for position, (card, rarity, holo) in enumerate(cards):
        attrs: dict[str, Any] = {"rarity": rarity, "stars": 0, "holo": holo}
        copy_id = ledger.mint_card(conn, now, player_id, "hoss", card, why, attrs)
        conn.execute(
            "INSERT INTO hoss_opening_cards (opening_id, position, card_id) VALUES (?, ?, ?)",
            (opening_id, position, copy_id),
        )


def drawn_cards(drawn: Sequence[DrawnCard]) -> list[SealedCard]:
    return [(d.card, d.rarity, d.holo) for d in drawn]


def unseal(conn: Connection, now: datetime, player_id: int, opening_id: int) -> bool:
    """Open the player's booster if it is still sealed: True when this call minted its copies."""
    row = conn.execute(
        "SELECT sealed FROM hoss_openings WHERE id = ? AND player_id = ?", (opening_id, player_id)
    ).fetchone()
    if row is None or row[0] is None:
        return False
    cursor = conn.execute(
        "UPDATE hoss_openings SET sealed = NULL WHERE id = ? AND sealed IS NOT NULL", (opening_id,)
    )
    if cursor.rowcount != 1:
        return False
    mint_opening(conn, now, player_id, opening_id, _unsealed(str(row[0])))
    return True


def sealed_boosters(conn: Connection, player_id: int) -> int:
    """How many boosters the player bought and has not opened yet."""
    row = conn.execute(
        "SELECT COUNT(*) FROM hoss_openings WHERE player_id = ? AND sealed IS NOT NULL", (player_id,)
    ).fetchone()
    return int(row[0])


def drop_sealed(conn: Connection, player_id: int) -> None:
    """The player's unopened boosters, gone without a copy minted: at an erasure (nothing may ever be
    handed to an erased player) and at an admin's reset of their HOSS progress (their copies go too).
    The gold they cost stays spent, as the copies of opened boosters are destroyed rather than refunded."""
    conn.execute("DELETE FROM hoss_openings WHERE player_id = ? AND sealed IS NOT NULL", (player_id,))


def anonymise(conn: Connection, player_id: int, anonymous: int) -> None:
    """`GameSpec.anonymise`: an erased player's sealed boosters never open."""
    drop_sealed(conn, player_id)
