"""HOSS's side of the lab (`GameSpec.lab`, docs/lab.md): a saved deck against the AI of each rank, or one.

The deck is read like a ranked battle's (`DeckService.deck_setup`: the player's own slot, the best copies
owned now, refused with every reason when it is not playable), so « a deck being built » is any saved
slot, active or not. Every rank is offered, locked or not: the lab pays nothing, so it may show a player
the ranks ahead of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import BadInput
from engine.hoss import MAX_RANK, CreatureCard, HossCatalog, lab_battles
from engine.protocol import PlayerSetup
from services.community.lab.spec import LabGame, LabJob, LabRequest, Opponent
from services.community.lab.stats import Outcome
from services.hoss.keys import RANK_NAME_KEYS
from services.infra.messages import Text


def play(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[Outcome]:
    """The worker's side: one ranked battle per seed (engine/hoss/lab.py)."""
    return [Outcome(b.won, b.lost, b.length, b.drawn) for b in lab_battles(catalog, deck, rank, seeds)]


def card_names(catalog: HossCatalog, deck: PlayerSetup) -> dict[str, Text]:
    names = {}
    for card in catalog.cards:
        if card.id in deck.deck and isinstance(card, CreatureCard) and card.rank == 1:
            names[card.id] = Text.per_locale({"fr": card.name.get("fr"), "en": card.name.get("en")})
    return names


async def prepare(services: Any, request: LabRequest) -> LabJob:
    ranks = tuple(range(1, MAX_RANK + 1))
    if request.opponent is not None:
        if request.opponent not in {str(r) for r in ranks}:
            raise BadInput("hoss.error.ranked.rank", maximum=MAX_RANK)
        ranks = (int(request.opponent),)
    deck = await services.decks.deck_setup(request.player_id, request.deck)  # checks the slot, int or not
    catalog: HossCatalog = services.decks.catalog
    opponents = tuple(
        Opponent(r, Text(RANK_NAME_KEYS[r]), Text("hoss.lab.rank_short", {"rank": r})) for r in ranks
    )
    subject = (
        Text("hoss.lab.active_deck")
        if request.deck is None
        else Text("hoss.lab.deck_slot", {"slot": request.deck})
    )
    names = card_names(catalog, deck)
    return LabJob(play, catalog, deck, opponents, subject, names, "hoss.lab.rounds", "hoss.lab.presence")


LAB = LabGame(prepare=prepare)
