"""Property tests (hypothesis) of the one-line notation of a Chocobataille turn (docs/choco/notation.md).

Whatever a player types, `parse_turn` returns steps or raises `BadInput` (a `NotationError` or an
`UnownedCard`, shown to the player localized), never another exception; and what it returns is written
back by `to_text`, in both languages, into a line that parses to the same steps (a turn without any
action excepted: it is declared by an end word, and `to_text` writes it as an empty line).
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, Phase, event, find, given, settings
from hypothesis import strategies as st

from core.errors import BadInput
from engine.choco import ENGINE
from engine.choco.state import Attack, ChocoState, DeckAttack, Discard, Move, PlayEffect, Summon
from services.choco.notation import (
    END_WORDS,
    KEYWORDS,
    REASON_KEYS,
    UnownedCard,
    fold,
    parse_turn,
    split_steps,
    to_text,
)
from tests.engine.game_checks import catalog

PROPERTIES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STEP_TYPES = (Summon, PlayEffect, Move, Attack, DeckAttack, Discard)


@cache
def turn_starts() -> tuple[tuple[ChocoState, int], ...]:
    """Start-of-turn states of a few seeded random games on the real catalog, with the seat to play."""
    found: list[tuple[ChocoState, int]] = []
    for seed in range(4):
        rng = random.Random(seed)
        setup = ENGINE.sample_setup(rng, catalog("choco"))
        state = ENGINE.new_game(setup.players, seed, {**setup.options, "max_turns": 12})
        turn = 0
        while current := ENGINE.current_players(state):
            if state.turn != turn:
                turn = state.turn
                found.append((state, state.active))
            seat = rng.choice(current)
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return tuple(found)


def _names(state: ChocoState) -> list[str]:
    """The names, in both languages, of every card either seat has in play or in hand."""
    names: list[str] = []
    for side in state.sides:
        for card in side.hand + side.front + side.reserve + side.graveyard:
            found = catalog("choco").card(card.card_id)
            if found is not None:
                names += [found.name.fr, found.name.en]
    return sorted(set(names))


@st.composite
def references(draw: st.DrawFn, state: ChocoState) -> str:
    """A card reference: a position label (valid or not), a name or a prefix of one, or anything."""
    kind = draw(st.sampled_from(["label", "name", "text"]))
    if kind == "label":
        zone = draw(st.sampled_from(["m", "f", "r", "af", "ar", "of", "or", "M", "AF", "Ar", "x"]))
        space = draw(st.sampled_from(["", " "]))
        return f"{zone}{space}{draw(st.integers(0, 12))}"
    if kind == "name":
        name = draw(st.sampled_from(_names(state)))
        cut = draw(st.integers(0, len(name)))
        return draw(st.sampled_from([name, name[:cut], name.upper(), name.replace("é", "e")]))
    return draw(st.text(max_size=12))


@st.composite
def lines(draw: st.DrawFn, state: ChocoState) -> str:
    """A turn written by a player who roughly knows the notation: keywords, references, line words,
    arrows and separators in any mix, or plain text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=60))
    keyword = st.sampled_from([*sorted(KEYWORDS), "Invoque", "déplacer", "DÉFAUSSE", "attaquer", "foo"])
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        head = draw(keyword)
        ref = draw(references(state))
        form = draw(st.integers(0, 6))
        if form == 0:
            steps.append(f"{head} {ref}")
        elif form == 1:
            steps.append(
                f"{head} {ref} {draw(st.sampled_from(['front', 'réserve', 'reserve', 'Front', 'milieu']))}"
            )
        elif form == 2:
            steps.append(f"{head} {ref} {draw(st.sampled_from(['>', '->', '→']))} {draw(references(state))}")
        elif form == 3:
            targets = ", ".join(draw(st.lists(references(state), min_size=0, max_size=3)))
            steps.append(f"{head} {ref} {draw(st.sampled_from(['->', '→']))} {targets}")
        elif form == 4:
            steps.append(f"{head} {ref} > {draw(st.sampled_from(['pioche', 'deck', 'Pioche', '']))}")
        elif form == 5:
            steps.append(draw(st.sampled_from([*sorted(END_WORDS), head, ""])))
        else:
            steps.append(draw(st.text(max_size=20)))
    return draw(st.sampled_from(["; ", ";", "\n", " ;; "])).join(steps)


@st.composite
def own(draw: st.DrawFn, state: ChocoState, seat: int, zones: str = "mfr") -> str:
    """A reference to one of the player's cards that exists: its label or its name."""
    side = state.sides[seat]
    cards = {"m": side.hand, "f": side.front, "r": side.reserve}
    present = [(zone, i) for zone in zones for i in range(1, len(cards[zone]) + 1)]
    if not present or draw(st.integers(0, 4)) == 0:
        return draw(references(state))
    zone, index = draw(st.sampled_from(present))
    if draw(st.booleans()):
        return f"{zone.upper()}{index}"
    found = catalog("choco").card(cards[zone][index - 1].card_id)
    return draw(references(state)) if found is None else found.name.fr


@st.composite
def enemy(draw: st.DrawFn, state: ChocoState, seat: int) -> str:
    side = state.sides[1 - seat]
    present = [f"AF{i}" for i in range(1, len(side.front) + 1)] + [
        f"AR{i}" for i in range(1, len(side.reserve) + 1)
    ]
    if not present or draw(st.integers(0, 4)) == 0:
        return draw(references(state))
    return draw(st.sampled_from(present))


@st.composite
def well_formed(draw: st.DrawFn, state: ChocoState, seat: int) -> str:
    """A turn written as the notation says, about cards that exist (whether the steps are legal is
    the engine's business, not the parser's)."""
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["summon", "effect", "move", "attack", "discard"]))
        if kind == "summon":
            line = draw(st.sampled_from(["", " front", " réserve"]))
            arrow = draw(st.sampled_from(["", f" -> {draw(enemy(state, seat))}"]))
            steps.append(f"invoque {draw(own(state, seat, 'm'))}{line}{arrow}")
        elif kind == "effect":
            arrow = draw(st.sampled_from(["", f" -> {draw(own(state, seat, 'fr'))}"]))
            steps.append(f"effect {draw(own(state, seat, 'm'))}{arrow}")
        elif kind == "move":
            steps.append(
                f"déplace {draw(own(state, seat, 'fr'))} {draw(st.sampled_from(['front', 'reserve']))}"
            )
        elif kind == "attack":
            target = draw(st.sampled_from(["pioche", draw(enemy(state, seat))]))
            steps.append(f"attaque {draw(own(state, seat, 'f'))} > {target}")
        else:
            steps.append(f"discard {draw(own(state, seat, 'm'))}")
    return "; ".join(steps)


@st.composite
def typed(draw: st.DrawFn) -> tuple[ChocoState, int, str]:
    state, seat = draw(st.sampled_from(turn_starts()))
    text = draw(well_formed(state, seat)) if draw(st.booleans()) else draw(lines(state))
    return state, seat, text


def _cards(state: ChocoState) -> set[str]:
    return {c.uid for side in state.sides for c in side.hand + side.front + side.reserve}


@PROPERTIES
@given(typed())
def test_any_text_parses_to_steps_or_a_bad_input(case: tuple[ChocoState, int, str]) -> None:
    state, seat, text = case
    refusal: str | None = None
    try:
        steps = parse_turn(text, state, seat, catalog("choco"))
    except BadInput as error:
        refusal = error.key
    if refusal is not None:
        event(f"refused: {refusal}")
        assert refusal in set(REASON_KEYS.values()) | {UnownedCard.key}
        return
    assert isinstance(steps, tuple)
    assert all(isinstance(step, STEP_TYPES) for step in steps)
    if not steps:  # only a lone end word declares a turn without any action
        parts = split_steps(text)
        assert len(parts) == 1
        assert fold(parts[0]) in END_WORDS
        return
    for step in steps:
        uids = [getattr(step, name) for name in ("card", "attacker", "target") if hasattr(step, name)]
        assert set(uids) | set(getattr(step, "targets", ())) <= _cards(state), step
    event(f"parsed {min(len(steps), 2)}+ steps")
    for lang in ("fr", "en"):
        written = to_text(steps, state, seat, lang)
        assert parse_turn(written, state, seat, catalog("choco")) == steps, written


def test_the_states_cover_both_boards() -> None:
    """The generated lines aim at real positions: some start-of-turn states have both boards filled."""
    starts = turn_starts()
    assert len(starts) > 20
    assert any(s.sides[seat].front and s.sides[1 - seat].front and s.sides[seat].hand for s, seat in starts)


def test_the_generated_lines_reach_the_round_trip() -> None:
    """The round trip above is not vacuous: the generator does write turns of several parsed steps."""

    def several_steps(case: tuple[ChocoState, int, str]) -> bool:
        state, seat, text = case
        try:
            return len(parse_turn(text, state, seat, catalog("choco"))) >= 2
        except BadInput:
            return False

    state, seat, text = find(
        typed(), several_steps, settings=settings(PROPERTIES, database=None, phases=[Phase.generate])
    )
    steps = parse_turn(text, state, seat, catalog("choco"))
    assert parse_turn(to_text(steps, state, seat), state, seat, catalog("choco")) == steps
