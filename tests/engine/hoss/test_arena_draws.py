"""The Arena's opponent draws, recomputed from a season's published record: the seed against its
commitment, each attack's defender against a fresh draw among its candidates, and the record's text."""

from __future__ import annotations

import pytest

from engine import fair_draw
from engine.hoss import DrawnAttack, SeasonRecord, drawn_opponent, format_season, parse_season, verify_season

SEED = "ab" * 32


def season(*attacks: tuple[int, int, tuple[int, ...]]) -> SeasonRecord:
    drawn = tuple(DrawnAttack(a, n, drawn_opponent(SEED, a, n, c), c) for a, n, c in attacks)
    return SeasonRecord(fair_draw.commitment(SEED), SEED, drawn)


def test_a_draw_is_the_documented_uniform_among_the_candidates() -> None:
    candidates = (5, 4, 2, 1)
    expected = candidates[fair_draw.uniform(SEED, "arena:3:1", 4)]
    assert drawn_opponent(SEED, 3, 1, candidates) == expected


def test_draws_spread_over_the_candidates() -> None:
    """400 attacks over 4 candidates: each drawn 100 ± 40 times (far beyond 4 standard deviations)."""
    counts = {c: 0 for c in (1, 2, 3, 4)}
    for number in range(1, 401):
        counts[drawn_opponent(SEED, 9, number, (1, 2, 3, 4))] += 1
    assert all(60 <= n <= 140 for n in counts.values()), counts


def test_an_honest_record_verifies() -> None:
    record = season((1, 1, (2, 3)), (2, 1, (1, 3)), (1, 2, (3,)))
    assert verify_season(record) == fair_draw.Verdict(True, "ok")


def test_another_seed_fails_on_the_commitment() -> None:
    record = season((1, 1, (2, 3)))
    forged = SeasonRecord(record.commitment, "cd" * 32, record.attacks)
    assert verify_season(forged) == fair_draw.Verdict(False, "commitment")


@pytest.mark.parametrize("change", ["defender", "candidates", "number"])
def test_a_changed_attack_fails_on_the_opponents(change: str) -> None:
    honest = season((1, 1, (2, 3, 4, 5, 6, 7)))
    (attack,) = honest.attacks
    others = [c for c in attack.candidates if c != attack.defender]
    # A changed attack no longer matches its own draw (each choice below was checked to draw someone else).
    forged = {
        "defender": DrawnAttack(1, 1, others[0], attack.candidates),
        "candidates": DrawnAttack(1, 1, attack.defender, (attack.defender, 99)),
        "number": DrawnAttack(1, 2, attack.defender, attack.candidates),
    }[change]
    if change != "defender":
        assert drawn_opponent(SEED, forged.attacker, forged.number, forged.candidates) != attack.defender
    verdict = verify_season(SeasonRecord(honest.commitment, SEED, (forged,)))
    assert verdict == fair_draw.Verdict(False, "opponents")


def test_a_defender_outside_its_candidates_fails() -> None:
    record = SeasonRecord(fair_draw.commitment(SEED), SEED, (DrawnAttack(1, 1, 42, (2, 3)),))
    assert verify_season(record) == fair_draw.Verdict(False, "opponents")


def test_the_record_text_round_trips_and_rejects_bad_lines() -> None:
    record = season((1, 1, (2, 3)), (2, 1, (1, 3)))
    text = format_season(record, comments=["HOSS Arena"])
    assert text.startswith("# HOSS Arena\ncommitment ")
    assert parse_season(text) == record
    with pytest.raises(fair_draw.FairDrawError):
        parse_season(text + "attack 1 x 2 3\n")
    with pytest.raises(fair_draw.FairDrawError):
        parse_season("seed " + SEED + "\n")
    with pytest.raises(fair_draw.FairDrawError):
        parse_season(text + "winner 3\n")
