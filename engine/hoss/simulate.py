"""The fast path: a whole battle with decision policies, without the protocol's frozen states.

Same code as the protocol path (the `Battle` pauses at the same points and advances the same random
stream), so for the same seed and the same decisions the result and the log are identical; only the
conversions to and from `HossState` at each pause are skipped. For bulk simulation (AI training,
balance runs) keep `log=False`.

A policy sees the live battle (read it, never change it; `clone` gives an independent copy to simulate
ahead with `run`), the seat, and the legal actions, and returns one of those actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.hoss.actions import HossAction, Pass
from engine.hoss.battle import Battle, Record
from engine.hoss.catalog import HossCatalog
from engine.hoss.convert import copy_battle
from engine.hoss.deck import deck_cards, parse_setup
from engine.hoss.state import CardSpec, DeckSpec
from engine.protocol import PlayerSetup

Policy = Callable[[Battle, int, Sequence[HossAction]], HossAction]


@dataclass(frozen=True)
class BattleResult:
    winners: tuple[int, ...]
    reason: str
    rounds: int
    scores: tuple[int, ...]
    hits: int  # attacks resolved + status ticks + deflected hits landed
    log: list[Record] | None

    @property
    def draw(self) -> bool:
        return not self.winners


def first_policy(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
    """Always the first legal action: plays a card whenever it can, the first path, the first protégé."""
    return legal[0]


def random_policy(seed: int) -> Policy:
    chooser = random.Random(seed)

    def choose(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
        return legal[int(chooser.random() * len(legal))]

    return choose


def passive_policy(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
    """Never plays: for tests of what happens to a seat that does nothing."""
    return next((a for a in legal if isinstance(a, Pass)), legal[0])


def prepare(
    setups: Sequence[PlayerSetup | DeckSpec], catalog: HossCatalog
) -> tuple[tuple[DeckSpec, DeckSpec], dict[str, CardSpec]]:
    """Validate the decks once; reuse the result across many `simulate` calls."""
    decks = [s if isinstance(s, DeckSpec) else parse_setup(s, catalog) for s in setups]
    cards = {card.id: card for card in deck_cards(decks, catalog)}
    return (decks[0], decks[1]), cards


def run(battle: Battle, policies: Sequence[Policy]) -> Battle:
    """Drive a battle to its end: at each pause, each waiting seat answers until done, then fight."""
    while not battle.over:
        for seat in battle.waiting():
            policy = policies[seat]
            legal = battle.legal_actions(seat)
            while legal:
                battle.answer(seat, policy(battle, seat, legal))
                legal = battle.legal_actions(seat)
        battle.resume()
    return battle


def simulate(
    setup_a: PlayerSetup | DeckSpec,
    setup_b: PlayerSetup | DeckSpec,
    seed: int,
    policy_a: Policy = first_policy,
    policy_b: Policy = first_policy,
    *,
    catalog: HossCatalog | None = None,
    cards: Mapping[str, CardSpec] | None = None,
    log: bool = False,
    move_pauses: bool = False,
) -> BattleResult:
    """Play a whole battle. Pass `catalog` with `PlayerSetup`s, or pre-validated `DeckSpec`s and their
    `cards` (from `prepare`) to skip validation in bulk runs."""
    if cards is None:
        if catalog is None:
            raise ValueError("simulate needs a catalog or prepared cards")
        decks, cards = prepare((setup_a, setup_b), catalog)
    else:
        if not isinstance(setup_a, DeckSpec) or not isinstance(setup_b, DeckSpec):
            raise ValueError("prepared cards go with prepared decks")
        decks = (setup_a, setup_b)
    battle = run(Battle.start(decks, cards, seed, log=log, move_pauses=move_pauses), (policy_a, policy_b))
    return BattleResult(
        winners=battle.winners,
        reason=battle.reason,
        rounds=battle.round,
        scores=battle.scores,
        hits=battle.hits,
        log=battle.records if log else None,
    )


def clone(battle: Battle, *, log: bool = False) -> Battle:
    """An independent copy of a battle at a pause (for look-ahead): the battle the exact state translation
    would give back (`convert.copy_battle`)."""
    return copy_battle(battle, log=log)


__all__ = [
    "BattleResult",
    "Policy",
    "clone",
    "first_policy",
    "passive_policy",
    "prepare",
    "random_policy",
    "simulate",
]
