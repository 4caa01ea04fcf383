"""Pillz's side of the lab (`GameSpec.lab`, docs/lab.md): a saved deck against the AI of practice duels.

The deck is the player's own: their active deck, or the one saved in a slot (a deck being built), checked
as the duel checks the active deck (every reason it cannot be played, in the deck's words). Nothing is
written: a player new to Pillz is refused for having no deck rather than handed the starter a duel gives.
The opponent is the practice duel's AI (Pillz has one AI): its deck drawn against the player's as
`/pillz entraînement` draws it (`practice_deck`), from the battle's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from core.errors import BadInput, NotAllowed
from engine.pillz import PillzCatalog, lab_battles
from engine.rng import derive
from services.community.lab.spec import LabGame, LabJob, LabRequest, Opponent
from services.community.lab.stats import Outcome
from services.infra.messages import Text
from services.pillz.collection import owned_counts
from services.pillz.decks import active_problems, active_slot, check, check_slot, deck_in_slot, lost_cards
from services.pillz.duels import practice_deck
from services.pillz.render.duel import card_name
from services.shared.collecting import Problem
from store.connection import Connection

AI = "ai"  # the only opponent: Pillz has one AI
OPPONENT_LABEL = "pillz-lab-opponent"


def opponent_deck(catalog: PillzCatalog, deck: Sequence[str], seed: int) -> list[str]:
    """The AI's deck in the lab's battle of `seed`: the practice duel's mirror of the player's deck."""
    return practice_deck(catalog, list(deck), random.Random(derive(seed, OPPONENT_LABEL)))


def play(catalog: PillzCatalog, deck: tuple[str, ...], opponent: str, seeds: Sequence[int]) -> list[Outcome]:
    """The worker's side: one practice duel per seed (engine/pillz/lab.py)."""
    battles = lab_battles(catalog, deck, lambda seed: opponent_deck(catalog, deck, seed), seeds)
    return [Outcome(b.won, b.lost, b.length, b.drawn) for b in battles]


def read_deck(conn: Connection, player: int, slot: int | None, catalog: PillzCatalog) -> list[str]:
    """The player's deck in `slot` (None: the active one) when it can be played, else refused with every
    reason, as the duel refuses an unplayable active deck."""
    cards = {c.id: c for c in catalog.cards}
    if slot is None:
        problems = active_problems(conn, player, cards)
        slot = active_slot(conn, player)
        refusal = "pillz.error.no_active_deck"
    else:
        saved = deck_in_slot(conn, player, slot)
        problems = (
            [Problem("pillz.deck.problem.none", {"slot": slot})]
            if saved is None
            else lost_cards(check(saved, owned_counts(conn, player), cards), slot)
        )
        refusal = "pillz.lab.unplayable"
    deck = None if slot is None else deck_in_slot(conn, player, slot)
    if problems or deck is None:
        reasons = Text.lines([p.named(cards) for p in problems])
        raise NotAllowed(refusal, player=f"<@{player}>", slot=slot, reasons=reasons)
    return deck


async def prepare(services: Any, request: LabRequest) -> LabJob:
    duels = services.duels
    catalog: PillzCatalog = duels.catalog
    if request.opponent not in (None, AI):
        raise BadInput()
    deck_slot = request.deck
    slot = None if deck_slot is None else check_slot(deck_slot if isinstance(deck_slot, int) else -1)
    deck = await duels.db.read(lambda conn: read_deck(conn, request.player_id, slot, catalog))
    opponents = (Opponent(AI, Text("pillz.lab.ai"), Text("pillz.lab.ai_short")),)
    subject = Text("pillz.lab.active_deck") if slot is None else Text("pillz.lab.deck_slot", {"slot": slot})
    names = {card_id: card_name(catalog, card_id) for card_id in deck}
    return LabJob(
        play, catalog, tuple(deck), opponents, subject, names, "pillz.lab.rounds", "pillz.lab.presence"
    )


LAB = LabGame(prepare=prepare)
