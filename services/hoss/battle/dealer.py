"""A ranked battle's deal, without validating again what has not changed since the last one.

`new_battle` validates both setups against the catalog (`parse_setup`: every copy checked, each line's
best copies chosen) and copies each creature card the decks can field out of the catalog, at every
start: about a third of a start's unit on the writer's thread (issue 39, docs/performance.md). The
player's active deck is the same `PlayerSetup` object from one start to the next while it is kept
(`DeckService.setups`: forgotten when a copy of theirs or their decks change), so its validated deck is
kept beside that very object; the catalog's cards are copied once (`start_parsed`, as the deck lab
deals its battles). The opponent, drawn anew each time, is validated each time, but for the lines and
buffs of an earlier opponent (`KnownCopies`: at Rang 1, most of them after a few hundred battles). Used
in write units only, so on the writer's thread.
"""

from __future__ import annotations

from engine.hoss import Battle, CardSpec, DeckSpec, HossCatalog, KnownCopies, parse_setup, start_parsed
from engine.protocol import PlayerSetup

KEPT_DECKS = 1024  # players whose validated deck is kept; all are dropped beyond it
KNOWN_COPIES = 4096  # the opponents' lines (and buffs) kept validated; all are dropped beyond it


class Dealer:
    def __init__(self, catalog: HossCatalog) -> None:
        self.catalog = catalog
        self._specs: dict[str, CardSpec] = {}
        self._decks: dict[int, tuple[PlayerSetup, DeckSpec]] = {}
        self._known = KnownCopies(KNOWN_COPIES)

    def deal(self, player: PlayerSetup, opponent: PlayerSetup, seed: int) -> Battle:
        """`new_battle((player, opponent), seed, ...)` with the ranked options (the Défenseur's pauses
        between two rounds, docs/hoss/ranked.md) and the log on: the same battle, dealt from the same
        validated decks. `player` sits in seat 0, `opponent` in seat 1."""
        assert player.seat == 0
        assert opponent.seat == 1
        decks = (self._validated(player), parse_setup(opponent, self.catalog, self._known))
        return start_parsed(decks, self.catalog, seed, self._specs, log=True, move_pauses=True)

    def _validated(self, setup: PlayerSetup) -> DeckSpec:
        kept = self._decks.get(setup.player_id)
        if kept is not None and kept[0] is setup:
            return kept[1]
        deck = parse_setup(setup, self.catalog)
        if len(self._decks) >= KEPT_DECKS:
            self._decks.clear()
        self._decks[setup.player_id] = (setup, deck)
        return deck
