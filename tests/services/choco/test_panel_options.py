"""The guided panel's choices: one select per part of the turn, each choice labelled with the positions
of the cards as the turn began (so two copies of one card are told apart), and never more than Discord's
25 per select, the rest counted."""

from __future__ import annotations

import pytest

from engine.choco.engine import ChocoEngine
from engine.choco.policy import greedy_steps
from engine.choco.state import Attack, ChocoState, Prepare, Turn
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.choco.game_store import GameRow
from services.choco.panel import MAX_OPTIONS, build_panel, code, decode
from services.choco.text import enemy_labels, own_labels
from tests.services.choco.render.games import catalog

ENGINE = ChocoEngine()


def row(state: ChocoState) -> GameRow:
    return GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        thread_id=None,
        league="bronze",
        seats=(10, 11),
        seed=0,
        state=state,
        status="live",
        version=3,
        turn_started_at=None,
        deadline_at=None,
        pass_at=None,
        stage=0,
        faulted_turn=None,
        result=None,
        winner_seat=None,
        match_id=1,
        decks=([], []),
    )


def mid_game(seed: int) -> ChocoState:
    """Two copies of the same wizards on both sides (a deck of 12 cards twice), a few turns in."""
    ids = sorted(c.id for c in catalog().cards if c.type == "normal" and c.rarity == "bronze_1")[:12]
    deck = tuple(card for card in ids for _ in range(2))
    players = [PlayerSetup(seat=s, player_id=10 + s, deck=deck) for s in (0, 1)]
    state = ENGINE.new_game(players, seed, {CATALOG_OPTION: catalog()})
    for seat in (0, 1):
        wizard = next(c for c in state.sides[seat].hand if not c.pure)
        state, _ = ENGINE.apply(state, seat, Prepare(card=wizard.uid, line="front"))
    for _ in range(6):
        seat = state.active
        summons_only = [s for s in greedy_steps(state, seat) if not isinstance(s, Attack)]
        state, _ = ENGINE.apply(state, seat, Turn(steps=tuple(summons_only)))
    return state


def test_groups_follow_the_turn_and_every_choice_is_legal() -> None:
    state = mid_game(4)
    seat = state.active
    panel = build_panel(row(state), seat, [], catalog())
    assert [g.code for g in panel.groups] == [c for c in "sead" if any(g.code == c for g in panel.groups)]
    legal = ENGINE.legal_actions(state, seat)
    for group in panel.groups:
        assert 1 <= len(group.options) <= MAX_OPTIONS
        for option in group.options:
            step = decode(option.value)
            ENGINE.apply(state, seat, step)  # raises if the panel offered an illegal step
            assert step in legal or getattr(step, "targets", None)


def test_two_copies_of_one_card_get_different_position_labels() -> None:
    for seed in range(30):
        state = mid_game(seed)
        seat = state.active
        enemy_front = state.sides[1 - seat].front
        names = [c.card_id for c in enemy_front]
        if len(names) == len(set(names)) or not state.sides[seat].front:
            continue
        summon = greedy_steps(state, seat)[:1]  # the summon comes first; then the attacks are offered
        panel = build_panel(row(state), seat, summon, catalog())
        attacks = next(g for g in panel.groups if g.code == "a")
        assert len({o.hint for o in attacks.options}) == len(attacks.options)
        assert len({repr(o.label) for o in attacks.options}) < len(attacks.options)  # names alone clash
        labels = {**own_labels(state.sides[seat]), **enemy_labels(state.sides[1 - seat])}
        for option in attacks.options:
            step = decode(option.value)
            assert isinstance(step, Attack)
            assert option.hint == f"{labels[step.attacker]} → {labels[step.target]}" == code(step, labels)
        return
    raise AssertionError("no seed gave two copies on the enemy front")


def test_choices_beyond_the_limit_are_counted_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    state = mid_game(1)
    seat = state.active
    full = build_panel(row(state), seat, [], catalog())
    summons = next(g for g in full.groups if g.code == "s")
    assert summons.truncated == 0
    assert len(summons.options) > 2
    monkeypatch.setattr("services.choco.panel.MAX_OPTIONS", 2)
    cut = build_panel(row(state), seat, [], catalog())
    first = next(g for g in cut.groups if g.code == "s")
    assert first.options == summons.options[:2]
    assert first.truncated == len(summons.options) - 2
