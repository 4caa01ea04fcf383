"""The engines' shared building blocks: seeds derived from labels, the RNG state, outcomes and events."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.protocol import SPECTATOR, Event, Outcome


def test_derive_is_stable_and_separates_labels() -> None:
    from engine.rng import derive

    # Fixed value: a change here would reshuffle every stored game resumed after an upgrade.
    assert derive(1, "shuffle", 0) == 7293814380158914351
    assert derive(1, "a", 1) != derive(1, "a1") != derive(1, "a", "1")
    assert 0 <= derive(2**70, "x") < 2**63
    with pytest.raises(TypeError):
        derive(1, 1.5)  # type: ignore[arg-type]


def test_advance_draws_gives_the_draws_of_advance() -> None:
    """A step that only calls `random()` may take `advance_draws`: the same numbers and the same next
    state as `advance`, for the seeds a state holds (0 to 2**63 - 1)."""
    from engine.rng import RngState

    for seed in (0, 1, 7293814380158914351, 2**63 - 1):
        for counter in (0, 1, 41):
            state = RngState(seed=seed, counter=counter)
            rng, after = state.advance()
            draw, after_draws = state.advance_draws()
            assert [draw() for _ in range(700)] == [rng.random() for _ in range(700)]
            assert after_draws == after


def test_first_step_is_the_generator_advance_gives_first() -> None:
    """`first_step` replays a stream's first step: the generator `from_seed(...).advance()` returns, with
    labels or without."""
    from engine.rng import RngState

    for seed in (0, 7293814380158914351, 2**63 - 1):
        for labels in ((), ("immortals",), ("a", 3)):
            rng, _ = RngState.from_seed(seed, *labels).advance()
            assert RngState.first_step(seed, *labels).getstate() == rng.getstate()


def test_derive_hashes_the_json_of_its_inputs() -> None:
    """`derive` writes the JSON text itself; it must stay the exact text `json.dumps` writes, or every
    stored game's later draws would change."""
    import enum
    import json

    from engine.rng import derive

    class Seat(enum.IntEnum):
        NORTH = 3

    cases: list[tuple[int, tuple[str | int, ...]]] = [
        (0, ()),
        (-7, ("immortals",)),
        (2**70, ("x", -(2**65), 0)),
        (5, ('quote " and \\ backslash', "tab\tnew\nline", "été", "日本", "emoji 🃏", "\x00\x1f\x7f")),
        (Seat.NORTH, (Seat.NORTH, "")),
    ]
    for seed, labels in cases:
        text = json.dumps([seed, *labels], separators=(",", ":"), ensure_ascii=True).encode()
        expected = int.from_bytes(hashlib.sha256(text).digest()[:8], "big") & ((1 << 63) - 1)
        assert derive(seed, *labels) == expected, (seed, labels)
    with pytest.raises(TypeError, match="seed must be an int"):
        derive(True, "x")


def test_rng_state_advances_and_round_trips() -> None:
    from engine.rng import RngState

    start = RngState.from_seed(7, "toy")
    first, nxt = start.advance()
    again, _ = start.advance()
    assert first.random() == again.random()
    assert nxt.counter == 1
    assert nxt.seed == start.seed
    assert nxt.advance()[0].random() != start.advance()[0].random()
    assert RngState.model_validate_json(nxt.model_dump_json()) == nxt


def test_outcome_is_either_a_draw_or_has_winners() -> None:
    with pytest.raises(ValueError, match="not a draw needs at least one winner"):
        Outcome()
    with pytest.raises(ValueError, match="a draw has no winners"):
        Outcome(winners=(0,), draw=True)
    won = Outcome(winners=(1,), scores=(3, 9), reason="toy.outcome.points")
    assert Outcome.from_json(json.loads(json.dumps(won.to_json()))) == won


def test_event_visibility() -> None:
    public, private = Event("played"), Event("drew", {"card": "c1"}, visible_to=frozenset({1}))
    assert public.visible(0)
    assert public.visible(SPECTATOR)
    assert private.visible(1)
    assert not private.visible(0)
    assert not private.visible(SPECTATOR)
    assert Event.from_json(private.to_json()) == private
