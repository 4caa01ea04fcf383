"""« La tombola »: one winner per full 5,000 gold in the pot (at least one), the pot shared equally."""

from __future__ import annotations

import pytest

from engine.hoss.raffle import GOLD_PER_WINNER, TICKET_PRICE, split


@pytest.mark.parametrize(
    ("tickets", "winners", "share", "carried"),
    [
        (1, 1, 100, 0),
        (30, 1, 3_000, 0),  # « avec 30 joueurs, un gagnant remporte 3 000 or »
        (49, 1, 4_900, 0),
        (50, 1, 5_000, 0),
        (51, 1, 5_100, 0),
        (99, 1, 9_900, 0),
        (100, 2, 5_000, 0),
        (151, 3, 5_033, 1),  # 15,100 / 3: one gold carried to the next draw
        (1_000, 20, 5_000, 0),  # « avec 1 000 joueurs, 20 gagnants remportent 5 000 or chacun »
        (100_000, 2_000, 5_000, 0),
    ],
)
def test_the_pot_is_split_by_the_rulebook(tickets: int, winners: int, share: int, carried: int) -> None:
    result = split(tickets)
    assert result.pot == tickets * TICKET_PRICE
    assert (result.winners, result.share, result.carried) == (winners, share, carried)
    assert result.paid + result.carried == result.pot


def test_a_day_without_tickets_has_no_winner_and_keeps_what_was_carried() -> None:
    result = split(0, carried_in=2)
    assert (result.winners, result.share, result.paid, result.carried) == (0, 0, 0, 2)


def test_carried_gold_joins_the_pot_but_never_makes_more_winners_than_tickets() -> None:
    assert split(30, carried_in=1).pot == 3_001
    assert split(30, carried_in=1).share == 3_001
    assert split(1, carried_in=2 * GOLD_PER_WINNER).winners == 1  # one ticket, one winner at most


@pytest.mark.parametrize("tickets", range(0, 2_000, 7))
def test_no_gold_is_created_or_lost_and_shares_are_equal(tickets: int) -> None:
    for carried in (0, 1, 2, 4_999):
        result = split(tickets, carried)
        assert result.paid + result.carried == result.pot
        if result.winners:
            assert result.carried < result.winners  # less than one gold per winner stays
            assert result.winners == min(tickets, max(1, result.pot // GOLD_PER_WINNER))


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        split(-1)
