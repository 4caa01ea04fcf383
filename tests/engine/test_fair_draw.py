"""The commit–reveal draw: a pure function of the published seed and entry list, checkable by anyone."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import replace

import pytest

from engine.fair_draw import (
    FairDrawError,
    Published,
    check_published,
    commitment,
    draw,
    entries_digest,
    format_published,
    parse_published,
    uniform,
    verify,
)

SEED = "3f" * 32
TICKETS = [f"{n}:{1000 + n}" for n in range(1, 31)]


def test_the_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize("bad", ["", "3f" * 31, "3F" * 32, "zz" * 32, "3f" * 33])
def test_a_malformed_seed_is_refused(bad: str) -> None:
    with pytest.raises(FairDrawError):
        commitment(bad)


def test_the_draw_is_a_pure_function_of_seed_and_list() -> None:
    assert draw(SEED, TICKETS, 3) == draw(SEED, list(TICKETS), 3)
    winners = draw(SEED, TICKETS, 30)
    assert sorted(winners) == list(range(30))  # a full draw is a permutation: winners are distinct


def test_a_known_vector_pins_the_algorithm() -> None:
    """Re-implementations check themselves against this; changing the algorithm breaks every past draw."""
    digest = entries_digest(TICKETS)
    first = int.from_bytes(hashlib.sha256(bytes.fromhex(SEED) + f"draw:{digest}:0:0".encode()).digest())
    assert draw(SEED, TICKETS, 1) == [first % 30]


def test_verification_accepts_the_true_draw_and_refuses_any_change() -> None:
    digest = entries_digest(TICKETS)
    winners = draw(SEED, TICKETS, 2)
    assert verify(SEED, commitment(SEED), TICKETS, digest, winners).ok
    other_seed = "40" * 32
    assert verify(other_seed, commitment(SEED), TICKETS, digest, winners).reason == "commitment"
    changed = [*TICKETS[:-1], "30:9999"]
    assert verify(SEED, commitment(SEED), changed, digest, winners).reason == "digest"
    assert draw(SEED, changed, 2) != winners  # this seed's draw moves with the list (see the next test)
    assert verify(SEED, commitment(SEED), changed, entries_digest(changed), winners).reason == "winners"
    assert verify(SEED, commitment(SEED), TICKETS, digest, list(reversed(winners))).reason == "winners"


def test_a_changed_list_changes_the_draw_across_many_seeds() -> None:
    changed = [*TICKETS[:-1], "30:9999"]
    seeds = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(200)]
    same = sum(draw(s, TICKETS, 1) == draw(s, changed, 1) for s in seeds)
    assert same < 20  # independent draws agree 1 time in 30: about 7 of 200


def test_draw_bounds() -> None:
    assert draw(SEED, [], 0) == []
    with pytest.raises(FairDrawError):
        draw(SEED, TICKETS, 31)
    with pytest.raises(FairDrawError):
        uniform(SEED, "x", 0)
    with pytest.raises(FairDrawError):
        entries_digest(["a\nb"])


def test_every_ticket_is_equally_likely_to_win() -> None:
    """Chi-square over 6,000 seeds, 12 tickets, 1 winner: the 0.1 % critical value for 11 df is 31.26."""
    tickets = [str(n) for n in range(12)]
    counts = Counter(
        draw(hashlib.sha256(f"seed{i}".encode()).hexdigest(), tickets, 1)[0] for i in range(6_000)
    )
    expected = 6_000 / 12
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(12))
    assert chi2 < 31.26


def test_uniform_has_no_modulo_bias_on_an_awkward_bound() -> None:
    bound = 3
    counts = Counter(uniform(SEED, f"u{i}", bound) for i in range(9_000))
    assert all(math.isclose(counts[k], 3_000, rel_tol=0.08) for k in range(bound))


def _published() -> Published:
    winners = draw(SEED, TICKETS, 2)
    return Published(
        commitment=commitment(SEED),
        seed=SEED,
        digest=entries_digest(TICKETS),
        winners=tuple(TICKETS[i] for i in winners),
        entries=tuple(TICKETS),
    )


def test_the_published_record_reads_back_and_checks() -> None:
    record = _published()
    text = format_published(record, comments=["HOSS raffle 2026-01-05"])
    assert text.startswith("# HOSS raffle 2026-01-05\n")
    assert parse_published(text) == record
    assert check_published(record).ok


def test_a_published_record_with_an_unknown_winner_or_line_is_refused() -> None:
    record = _published()
    assert check_published(replace(record, winners=("99:1",))).reason == "winners"
    with pytest.raises(FairDrawError, match="line 1"):
        parse_published("bogus 1\n")
    with pytest.raises(FairDrawError, match="missing seed"):
        parse_published(f"commitment {commitment(SEED)}\ndigest {entries_digest([])}\n")
