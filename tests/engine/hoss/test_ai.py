"""The AI policies (engine/hoss/ai.py): legal, deterministic, blind to hidden cards, and the strong one wins.

The win-rate test plays the real catalog (data/hoss.json): each random deck is given to both seats (a
mirror match), and each deck is played twice with the same battle seed, the strong policy in seat 0 then
in seat 1, so the luck of the shuffles and of the seat cancels pair by pair.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.hoss import ENGINE
from engine.hoss.actions import ChoosePath, HossAction, Move, Pass, Place, Play
from engine.hoss.ai import simple_policy, strong_policy
from engine.hoss.battle import Battle
from engine.hoss.catalog import CreatureCard, HossCatalog
from engine.hoss.convert import from_state, to_state
from engine.hoss.sample import SAMPLE_CATALOG, random_setup
from engine.hoss.simulate import Policy, prepare, simulate
from engine.hoss.state import CardSpec, DeckSpec
from engine.protocol import CATALOG_OPTION
from engine.rng import derive
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.hoss.helpers import arena, creature

SEED = 20240611
MIRRORED_DECKS = 600  # x 2 seats = 1200 battles, about 3 s
MIN_WIN_RATE = 0.60


@pytest.fixture(scope="module")
def catalog() -> HossCatalog:
    return load_catalog(DATA_DIR / "hoss.json", HossCatalog)


def _mirror(catalog: HossCatalog, index: int) -> tuple[tuple[DeckSpec, DeckSpec], dict[str, CardSpec]]:
    setup = random_setup(random.Random(derive(SEED, "deck", index)), catalog, 0)
    return prepare([setup, setup], catalog)


# --- strength -------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_strong_beats_simple_in_mirror_matches(catalog: HossCatalog) -> None:
    strong = strong_policy()
    wins = draws = battles = 0
    for index in range(MIRRORED_DECKS):
        (deck_a, deck_b), cards = _mirror(catalog, index)
        seed = derive(SEED, "battle", index)
        for strong_seat in (0, 1):
            policies = (strong, simple_policy) if strong_seat == 0 else (simple_policy, strong)
            result = simulate(deck_a, deck_b, seed, *policies, cards=cards)
            battles += 1
            wins += result.winners == (strong_seat,)
            draws += result.draw
    rate = wins / battles
    assert rate >= MIN_WIN_RATE, (
        f"strong won {wins}/{battles} = {rate:.1%} (draws {draws}, counted as non-wins) against simple, "
        f"expected at least {MIN_WIN_RATE:.0%}"
    )


# --- legality, purity, determinism ----------------------------------------------------------------------


def _checked(policy: Policy, seen: list[type]) -> Policy:
    """`policy`, asserting each answer is legal and leaves the battle untouched."""

    def choose(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
        before = to_state(battle)
        action = policy(battle, seat, legal)
        assert action in legal, (action, legal)
        assert to_state(battle) == before, "a policy changed the battle"
        seen.append(type(action))
        return action

    return choose


@pytest.mark.parametrize("move_pauses", [False, True])
@pytest.mark.parametrize("which", ["real", "sample"])
def test_both_policies_only_return_legal_actions(catalog: HossCatalog, which: str, move_pauses: bool) -> None:
    cat = catalog if which == "real" else SAMPLE_CATALOG
    seen: list[type] = []
    strong = _checked(strong_policy(), seen)
    simple = _checked(simple_policy, seen)
    rng = random.Random(derive(SEED, "legal", which, int(move_pauses)))
    for i in range(40):
        setups = [random_setup(rng, cat, 0), random_setup(rng, cat, 1)]
        (deck_a, deck_b), cards = prepare(setups, cat)
        policies = (strong, simple) if i % 3 == 0 else (simple, strong) if i % 3 == 1 else (strong, strong)
        simulate(deck_a, deck_b, i, *policies, cards=cards, move_pauses=move_pauses)
    kinds = set(seen)
    assert {Play, Place, ChoosePath} <= kinds, kinds  # every kind of decision was exercised
    if move_pauses:
        assert Move in kinds
        assert Pass in kinds


@pytest.mark.parametrize("policy_name", ["simple", "strong"])
def test_same_seed_same_battle(catalog: HossCatalog, policy_name: str) -> None:
    for index in range(10):
        (deck_a, deck_b), cards = _mirror(catalog, index)
        runs = []
        for _ in range(2):  # a new policy each time: nothing is carried over between battles
            policy = strong_policy() if policy_name == "strong" else simple_policy
            opponent = strong_policy() if policy_name == "strong" else simple_policy
            runs.append(simulate(deck_a, deck_b, index, policy, opponent, cards=cards, log=True))
        assert runs[0] == runs[1]


def test_policies_decide_the_same_on_a_restored_battle(catalog: HossCatalog) -> None:
    """Through the protocol (a battle rebuilt from its state at every decision, stats not yet computed)
    the policies take the same decisions as on the fast path: the same outcome."""
    policies = (strong_policy(), simple_policy)
    for index in range(8):
        rng = random.Random(derive(SEED, "protocol", index))
        players = [random_setup(rng, catalog, 0), random_setup(rng, catalog, 1)]
        state = ENGINE.new_game(players, index, {CATALOG_OPTION: catalog})
        while ENGINE.outcome(state) is None:
            for seat in ENGINE.current_players(state):
                while legal := ENGINE.legal_actions(state, seat):
                    action = policies[seat](from_state(state), seat, legal)
                    state, _ = ENGINE.apply(state, seat, action)
        fast = simulate(players[0], players[1], index, policies[0], policies[1], catalog=catalog)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert (outcome.winners, outcome.scores, state.round) == (fast.winners, fast.scores, fast.rounds)


def test_strong_policy_ignores_hidden_cards_and_secret_answers(catalog: HossCatalog) -> None:
    """Seat 1's decision does not change when seat 0 has already answered, nor when seat 0's hand and
    draw pile are reshuffled between them (same sizes)."""
    strong = strong_policy()
    checked = 0
    for index in range(30):
        (deck_a, deck_b), cards = _mirror(catalog, index)
        battle = Battle.start((deck_a, deck_b), cards, index)
        for _ in range(6):
            if battle.over:
                break
            for seat in reversed(battle.waiting()):  # seat 1 first, then seat 0
                if seat == 1 and 0 in battle.waiting():
                    legal = battle.legal_actions(1)
                    alone = strong(battle, 1, legal)
                    peek = from_state(to_state(battle))
                    while zero := peek.legal_actions(0):
                        peek.answer(0, simple_policy(peek, 0, zero))
                    other = peek.sides[0]
                    hidden = other.hand + other.pile
                    random.Random(index).shuffle(hidden)
                    other.hand, other.pile = hidden[: len(other.hand)], hidden[len(other.hand) :]
                    assert strong(peek, 1, legal) == alone
                    checked += 1
                while legal := battle.legal_actions(seat):
                    battle.answer(seat, (strong if seat == 1 else simple_policy)(battle, seat, legal))
            battle.resume()
    assert checked > 50


# --- what the strong policy sees ------------------------------------------------------------------------


def _twin(card_id: str, race: str, cls: str = "guerrier") -> CreatureCard:
    """Creatures that differ only by race and class."""
    return creature(card_id, race, cls, pv=100, atk=12, interval=2.0)


def test_strong_plays_the_race_the_enemy_fears_not_the_one_that_fears_it() -> None:
    enemies = [_twin("sq_guerrier_1", "squelette")]
    for hand in (["syl", "hum"], ["hum", "syl"]):
        cards = {"syl": _twin("syl_guerrier_1", "sylvestre"), "hum": _twin("hum_guerrier_1", "humain")}
        battle = arena([], enemies, hand_a=[cards[h] for h in hand])
        legal: list[HossAction] = [Play("a1"), Play("a2"), Pass()]
        humain = f"a{hand.index('hum') + 1}"
        assert strong_policy()(battle, 0, legal) == Play(humain)  # Squelettes fear Humains


def test_strong_counter_picks_a_lancier_against_cavaliers() -> None:
    enemies = [_twin("orc_cavalier_1", "orc", "cavalier")]
    hand = [_twin("hum_guerrier_1", "humain"), _twin("hum_lancier_1", "humain", "lancier")]
    battle = arena([], enemies, hand_a=hand)
    assert strong_policy()(battle, 0, [Play("a1"), Play("a2"), Pass()]) == Play("a2")


def test_strong_guards_the_creature_the_enemy_hunts_and_moves_there() -> None:
    """A Humain Défenseur goes on the Sylvestre that the Squelettes hunt (100 % interception), and moves
    there from an Orc nobody targets."""
    mine = [
        _twin("orc_guerrier_1", "orc"),
        _twin("syl_guerrier_1", "sylvestre"),
        creature("hum_defenseur_1", "humain", "defenseur", pv=200, block=0.2, damage_reduction=0.2),
    ]
    enemies = [_twin("sq_guerrier_1", "squelette"), _twin("sq_archer_1", "squelette", "archer")]
    battle = arena(mine, enemies)
    assert battle.sides[0].defenders[0].protege is battle.sides[0].fighters[0]  # on the Orc for now
    strong = strong_policy()
    assert strong(battle, 0, [Place("a3", "a1"), Place("a3", "a2")]) == Place("a3", "a2")
    assert strong(battle, 0, [Move("a3", "a2"), Pass()]) == Move("a3", "a2")
    assert simple_policy(battle, 0, [Move("a3", "a2"), Pass()]) == Pass()  # simple never moves


def test_simple_plays_its_strongest_attacker_before_any_defender() -> None:
    hand = [
        creature("hum_defenseur_1", "humain", "defenseur", pv=250),
        _twin("orc_guerrier_1", "orc"),
        creature("syl_guerrier_1", "sylvestre", pv=140, atk=14, interval=2.0),
    ]
    battle = arena([_twin("hum_guerrier_1", "humain")], [_twin("sq_guerrier_1", "squelette")], hand_a=hand)
    legal: list[HossAction] = [Play("a2", "a1"), Play("a3"), Play("a4"), Pass()]
    assert simple_policy(battle, 0, legal) == Play("a4")
    assert simple_policy(battle, 0, [Play("a2", "a1"), Pass()]) == Play("a2", "a1")
