"""Pack rules: 20 to 100 cards, at most 3 identical; bonus cards within the skill and the copy limit."""

from __future__ import annotations

from engine.dinocard.packs import PackProblem, bonus_problems, pack_problems

KNOWN = frozenset(f"c{i}" for i in range(40))


def pack(size: int) -> list[str]:
    return [f"c{i % 40}" for i in range(size)]


def test_20_to_100_cards_are_a_valid_pack() -> None:
    assert pack_problems(pack(20), KNOWN) == ()
    assert pack_problems(pack(100), KNOWN) == ()


def test_fewer_than_20_or_more_than_100_cards_are_refused() -> None:
    assert pack_problems(pack(19), KNOWN) == (PackProblem("too_small", count=19),)
    assert pack_problems(pack(101), KNOWN)[-1] == PackProblem("too_large", count=101)


def test_at_most_3_identical_cards() -> None:
    assert pack_problems(["c0"] * 3 + pack(40)[1:18], KNOWN) == ()
    assert pack_problems(["c0"] * 4 + pack(40)[1:17], KNOWN) == (PackProblem("too_many_copies", "c0", 4),)


def test_every_problem_is_listed_unknown_cards_first() -> None:
    problems = pack_problems(["zz"] + ["c1"] * 5, KNOWN)
    assert problems == (
        PackProblem("unknown_card", "zz"),
        PackProblem("too_many_copies", "c1", 5),
        PackProblem("too_small", count=6),
    )
    assert problems[1].describe() == "too_many_copies c1 5"


def test_bonus_cards_within_the_skill_and_the_copy_limit() -> None:
    base = ["c0", "c0", *pack(40)[1:19]]
    assert bonus_problems(base, ["c0"], 1, KNOWN) == ()
    assert bonus_problems(base, ["c1", "c2"], 1, KNOWN) == (PackProblem("too_many_bonus", count=2),)
    assert bonus_problems(base, ["c0", "c0"], 2, KNOWN) == (PackProblem("too_many_copies", "c0", 4),)
    assert bonus_problems(base, ["nope"], 1, KNOWN) == (PackProblem("unknown_card", "nope"),)
