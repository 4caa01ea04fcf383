"""The lab's battles (engine/hoss/lab.py): the ranked battle's own table and AI, its opening hand, and an AI
that decides the same whatever the other seat's hidden cards, in the lab's very matchups."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

import pytest

from engine.hoss.actions import HossAction
from engine.hoss.ai import strong_policy
from engine.hoss.battle import Battle
from engine.hoss.catalog import CreatureCard, HossCatalog
from engine.hoss.convert import from_state, to_state
from engine.hoss.engine import MOVE_PAUSES_OPTION, new_battle
from engine.hoss.lab import lab_battles, ranked_opponent
from engine.hoss.simulate import Policy, run
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog


@cache
def catalog() -> HossCatalog:
    return load_catalog(DATA_DIR / "hoss.json", HossCatalog)


def player_deck(seed: int = 7, rank: int = 4) -> PlayerSetup:
    return replace(ranked_opponent(catalog(), rank, seed), seat=0, player_id=1)


def by_hand(deck: PlayerSetup, rank: int, seed: int) -> Battle:
    options = {CATALOG_OPTION: catalog(), MOVE_PAUSES_OPTION: True}
    battle = new_battle((deck, ranked_opponent(catalog(), rank, seed)), seed, options)
    policy = strong_policy()
    return run(battle, (policy, policy))


@pytest.mark.parametrize("rank", [1, 5, 9])
def test_a_lab_battle_is_the_ranked_table_played_by_the_strong_ai(rank: int) -> None:
    deck = player_deck()
    seeds = [11, 12, 13, 14]
    for battle, seed in zip(lab_battles(catalog(), deck, rank, seeds), seeds, strict=True):
        played = by_hand(deck, rank, seed)
        assert battle.seed == seed
        assert (battle.won, battle.lost) == (played.winners == (0,), played.winners == (1,))
        assert battle.length == played.round
    assert lab_battles(catalog(), deck, rank, seeds) == lab_battles(catalog(), deck, rank, seeds)


def test_the_opening_hand_is_the_three_rang1_cards_dealt() -> None:
    """« tu commences avec 3 cartes de Rang 1 en main »"""
    deck = player_deck()
    rank1 = {c.id for c in catalog().cards if isinstance(c, CreatureCard) and c.rank == 1}
    hands = set()
    for battle in lab_battles(catalog(), deck, 3, range(20)):
        assert len(battle.drawn) == 3
        assert set(battle.drawn) <= rank1 & set(deck.deck)
        hands.add(battle.drawn)
    assert len(hands) > 5  # the deal depends on the seed


def peeking(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
    """A negative control: a policy that reads the other seat's hand (the one thing it must not)."""
    seen = sum(ord(ch) for uid in battle.sides[1 - seat].hand for ch in uid)
    return legal[seen % len(legal)]


def _same_whatever_is_hidden(policy: Policy, seeds: Sequence[int]) -> tuple[int, int]:
    """At every pause of lab battles, each seat's decision on the battle as it is and on copies where the
    other seat's hand and draw pile are dealt again from the same cards (same sizes): (checked, differed)."""
    deck = player_deck()
    strong = strong_policy()
    checked = differed = 0
    for seed in seeds:
        options = {CATALOG_OPTION: catalog(), MOVE_PAUSES_OPTION: True}
        battle = new_battle((deck, ranked_opponent(catalog(), 5, seed)), seed, options)
        while not battle.over:
            for seat in battle.waiting():
                while legal := battle.legal_actions(seat):
                    chosen = policy(battle, seat, legal)
                    for k in range(2):
                        copy = from_state(to_state(battle))
                        other = copy.sides[1 - seat]
                        hidden = other.hand + other.pile
                        random.Random(f"{seed}:{k}").shuffle(hidden)
                        other.hand, other.pile = hidden[: len(other.hand)], hidden[len(other.hand) :]
                        if sorted(other.hand) != sorted(battle.sides[1 - seat].hand):
                            checked += 1
                            differed += policy(copy, seat, copy.legal_actions(seat)) != chosen
                    battle.answer(seat, strong(battle, seat, legal))
            battle.resume()
    return checked, differed


def test_the_ai_decides_the_same_whatever_the_other_seats_hidden_cards() -> None:
    checked, differed = _same_whatever_is_hidden(strong_policy(), range(6))
    assert checked > 30
    assert differed == 0


def test_the_hidden_card_check_catches_a_policy_that_peeks() -> None:
    checked, differed = _same_whatever_is_hidden(peeking, range(6))
    assert checked > 30
    assert differed > 0
