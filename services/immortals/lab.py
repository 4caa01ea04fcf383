"""Immortal's War's side of the lab (`GameSpec.lab`, docs/lab.md): the player's deck against the AI of
practice duels, on each of the rulebook's four terrains or on one.

The deck is the player's own (Immortal's War has one per player), with each copy's experience and the
spells the player knows, checked as the duel checks it (every reason it cannot be played). Nothing is
written: a player new to the game is refused for having no deck rather than handed the starter a duel
gives. The opponent is the practice duel's AI, its deck drawn against the player's as
`/immortels entraînement` draws it (`practice_deck`), from the battle's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from core.errors import BadInput, NotAllowed
from engine.immortals import DECK_MAX, DECK_MIN, TERRAINS, ImmortalsCatalog, lab_battles
from engine.protocol import PlayerSetup
from engine.rng import derive
from services.community.lab.spec import LabGame, LabJob, LabRequest, Opponent
from services.community.lab.stats import Outcome
from services.immortals.decks import deck_view
from services.immortals.duels import practice_deck
from services.immortals.economy import known_spells
from services.immortals.names import problem_text, unit_name
from services.immortals.rewards import AI_PLAYER
from services.infra.messages import Text
from services.shared.collecting import Problem
from store.connection import Connection

OPPONENT_LABEL = "immortals-lab-opponent"


def opponent_setup(catalog: ImmortalsCatalog, deck: PlayerSetup, seed: int) -> PlayerSetup:
    """The AI's side in the lab's duel of `seed`: the practice duel's mirror of the player's deck."""
    entries = [{"card": c, "xp": x} for c, x in zip(deck.deck, deck.extra["xp"], strict=True)]
    mirror = practice_deck(catalog, entries, random.Random(derive(seed, OPPONENT_LABEL)))
    return PlayerSetup(
        seat=1,
        player_id=AI_PLAYER,
        deck=tuple(mirror["cards"]),
        extra={"xp": list(mirror["xp"]), "spells": list(mirror["spells"])},
    )


def play(catalog: ImmortalsCatalog, deck: PlayerSetup, terrain: str, seeds: Sequence[int]) -> list[Outcome]:
    """The worker's side: one practice duel per seed on `terrain` (engine/immortals/lab.py)."""
    battles = lab_battles(catalog, deck, lambda seed: opponent_setup(catalog, deck, seed), terrain, seeds)
    return [Outcome(b.won, b.lost, b.length, b.drawn) for b in battles]


def read_deck(conn: Connection, player: int, catalog: ImmortalsCatalog) -> PlayerSetup:
    """The player's deck as a duel's seat 0 when it can be played, else refused with every reason."""
    deck = deck_view(conn, player, catalog)
    if not deck.valid or not deck.copies:
        empty = Problem("immortals.deck.problem.size", {"count": 0, "minimum": DECK_MIN, "maximum": DECK_MAX})
        reasons = Text.lines([problem_text(catalog, p) for p in deck.problems or (empty,)])
        raise NotAllowed("immortals.error.no_deck", player=f"<@{player}>", reasons=reasons)
    return PlayerSetup(
        seat=0,
        player_id=player,
        deck=tuple(c.card.id for c in deck.copies),
        extra={"xp": [c.xp for c in deck.copies], "spells": known_spells(conn, player, catalog)},
    )


async def prepare(services: Any, request: LabRequest) -> LabJob:
    duels = services.duels
    catalog: ImmortalsCatalog = duels.catalog
    terrains = TERRAINS
    if request.opponent is not None:
        if request.opponent not in TERRAINS:
            raise BadInput("immortals.lab.terrain")
        terrains = (request.opponent,)
    deck = await duels.db.read(lambda conn: read_deck(conn, request.player_id, catalog))
    opponents = tuple(
        Opponent(
            t,
            Text("immortals.lab.on_terrain", {"terrain": Text(f"immortals.terrain.{t}")}),
            Text(f"immortals.terrain.{t}"),
        )
        for t in terrains
    )
    names = {card_id: unit_name(catalog, card_id) for card_id in deck.deck}
    return LabJob(
        play,
        catalog,
        deck,
        opponents,
        Text("immortals.lab.subject"),
        names,
        "immortals.lab.rounds",
        "immortals.lab.presence",
    )


LAB = LabGame(prepare=prepare)
