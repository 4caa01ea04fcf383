"""Chocobataille for the engine-wide golden and property tests (tests/engine/game_checks.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from engine.choco import ENGINE
from engine.choco.catalog import ChocoCatalog
from engine.choco.state import (
    Attack,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Move,
    PlayEffect,
    Prepare,
    Summon,
    Turn,
)
from engine.rng import derive
from tests.engine.game_checks import ID, GameChecks, Policy, Scenario


def policy(seed: int) -> Policy:
    """A fixed, seeded player: it summons its strongest wizard to the front, plays a pure effect now and
    then, keeps a wizard on the front, hits the weakest enemy (or the pioche once) and sometimes
    discards down to five, so a whole game goes through most of the rules."""
    rng = random.Random(derive(seed, "golden", "choco"))

    def choose(state: ChocoState, current: list[int]) -> tuple[int, Any]:
        seat = current[0]
        legal = ENGINE.legal_actions(state, seat)
        if state.turn == 0:
            return seat, rng.choice(legal)
        hand = {c.uid: c for c in state.sides[seat].hand}
        summons = [a for a in legal if isinstance(a, Summon)]
        if summons:
            front = [a for a in summons if a.line == "front"] or summons
            return seat, max(front, key=lambda a: (hand[a.card].pa, hand[a.card].pv, a.card))
        effects = [a for a in legal if isinstance(a, PlayEffect)]
        if effects and rng.random() < 0.7:
            return seat, rng.choice(effects)
        forward = [a for a in legal if isinstance(a, Move) and a.line == "front"]
        if forward and not state.sides[seat].front:
            return seat, forward[0]
        pv = {c.uid: c.pv for c in state.sides[1 - seat].front}
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks:
            return seat, min(attacks, key=lambda a: (pv.get(a.target, 99), a.attacker, a.target))
        decks = [a for a in legal if isinstance(a, DeckAttack)]
        if decks and state.progress.deck_attacks == 0:
            return seat, decks[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards and len(hand) > 5 and rng.random() < 0.5:
            return seat, rng.choice(discards)
        return seat, EndTurn() if EndTurn() in legal else rng.choice(legal)

    return choose


LINE = st.sampled_from(["front", "reserve"])
UIDS = st.lists(ID, max_size=3).map(tuple)
STEP = st.one_of(
    st.builds(Summon, card=ID, line=LINE, targets=UIDS, recall=UIDS),
    st.builds(PlayEffect, card=ID, targets=UIDS, recall=UIDS),
    st.builds(Move, card=ID, line=LINE),
    st.builds(Attack, attacker=ID, target=ID),
    st.builds(DeckAttack, attacker=ID),
    st.builds(Discard, card=ID),
)

CHECKS = GameChecks(
    game="choco",
    catalog_model=ChocoCatalog,
    golden=(
        Scenario(
            "choco",
            "whole_game",
            seed=2,
            options={"max_turns": 200},
            policy=policy,
            why="a whole game to the last wizard: secret placements, summons, pure effects (mill, recall,"
            " draws), Excès de magie, moves, attacks, deck attacks, discards",
        ),
    ),
    action_types=(Prepare, Summon, PlayEffect, Move, Attack, DeckAttack, Discard, EndTurn, Turn),
    well_formed=st.one_of(
        STEP,
        st.builds(Prepare, card=ID, line=LINE),
        st.just(EndTurn()),
        st.builds(Turn, steps=st.lists(STEP, max_size=5).map(tuple)),
    ),
)
