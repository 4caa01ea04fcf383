"""What a trade does to a player's HOSS decks (`GameSpec.decks_holding`, docs/trades.md "Decks").

A HOSS deck names lines and buffs, and plays the best copy the player owns of each card (`best_order`:
bonus, holo, rarity, then the older copy); so a copy is in a deck when it is that best copy, and when it
leaves the next best copy takes its place by itself. Without one, a Rang 1 or a buff leaves the deck
unplayable until it is saved again; a Rang 2 or a Maître only stops its line at the rank before (the
rulebook's "une carte qui manque arrête la créature au dernier rang possédé"), so the deck still plays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.hoss import HossCatalog
from services.hoss.decks import DeckRules, OwnedCopy, seen_copies
from services.infra.games import DeckHold
from services.infra.messages import Text
from services.shared.deck_holds import Copy, hold, takeovers
from services.shared.decks import active_slot
from store.connection import Connection


def _shared(copy: OwnedCopy) -> Copy:
    return Copy(copy.id, copy.card, copy.locked_by is not None)


def decks_holding(
    conn: Connection, catalog: HossCatalog, player_id: int, leaving: Sequence[int]
) -> list[DeckHold]:
    """The saved decks playing one of these copies, each with the copy that would play instead."""
    offered = set(leaving)
    rules = DeckRules(catalog)
    seen = seen_copies(conn, player_id)
    best = {card: copies[0] for card, copies in seen.items()}
    active = active_slot(conn, "hoss_profiles", player_id)
    rows = conn.execute(
        "SELECT slot, name, lines, buffs FROM hoss_decks WHERE player_id = ? ORDER BY slot", (player_id,)
    ).fetchall()
    holds: list[DeckHold] = []
    for slot, name, lines, buffs in rows:
        deck = Text(
            "hoss.deck.held_active" if slot == active else "hoss.deck.held", {"name": name, "slot": slot}
        )
        for copy in rules.copies_in_use(player_id, json.loads(lines), json.loads(buffs), best):
            creature = rules.creatures.get(copy.card)
            later_rank = creature is not None and creature.rank > 1
            fix = Text("hoss.deck.fix_rank" if later_rank else "hoss.deck.fix", {"slot": slot})
            spare = [_shared(c) for c in seen[copy.card][1:]]
            for gone, replacement in takeovers([_shared(copy)], spare, offered):
                holds.append(hold(gone, replacement, deck, fix, playable=later_rank))
    return holds
