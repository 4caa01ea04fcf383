"""How a table is decided and how the pot is shared (services/community/tournaments/rounds.py), clause by
clause of docs/tournaments.md."""

from __future__ import annotations

from datetime import UTC, date, datetime

from engine import seeding
from services.community.tournaments import rounds
from services.community.tournaments.store import Entry, Format, TableRow, Tournament

NOW = datetime(2026, 1, 12, 19, tzinfo=UTC)
SEED = "3c" * 32


def tournament(format: Format = "swiss") -> Tournament:
    return Tournament(
        1, 5, 6, "pillz", format, "random", 8, 3, 24, 0, None, 0, "running", 1, None, None, SEED, "c", 9, None, 0,
        NOW, NOW, NOW, None, date(2026, 1, 12),
    )  # fmt: skip


def table(first: int | None = 1, second: int | None = 2, round_: int = 1, number: int = 0) -> TableRow:
    return TableRow(round_, number, first, second, 7, "playing", None, None, None, None)


def entry(player: int, rank: int, status: str = "in") -> Entry:
    return Entry(player, f"p{player}", NOW, 0, rank, status, None, None)  # type: ignore[arg-type]


def test_a_played_match_gives_its_winner_two_half_points() -> None:
    decision = rounds.played_out(tournament(), table(), 1)
    assert (decision.points, decision.winner, decision.reason) == ((0, 2), 2, "played")


def test_a_draw_is_one_half_point_each_in_swiss_and_a_coin_flip_in_elimination() -> None:
    assert rounds.played_out(tournament(), table(), None).points == (1, 1)
    flipped = rounds.played_out(tournament("elimination"), table(round_=2, number=3), None)
    expected = 1 if seeding.coin(SEED, 2, 3) == 0 else 2
    assert (flipped.winner, flipped.reason) == (expected, "draw_coin")


def test_at_the_deadline_the_player_who_was_there_wins() -> None:
    decision = rounds.by_attendance(tournament(), table(), (False, True))
    assert (decision.points, decision.winner, decision.reason) == ((0, 2), 2, "absent")


def test_nobody_there_both_lose_in_swiss_and_a_coin_decides_in_elimination() -> None:
    assert rounds.by_attendance(tournament(), table(), (False, False)).points == (0, 0)
    flipped = rounds.by_attendance(tournament("elimination"), table(number=1), (False, False))
    assert flipped.winner == (1 if seeding.coin(SEED, 1, 1) == 0 else 2)
    assert flipped.reason == "coin"


def test_a_bye_is_a_win_and_a_player_who_left_loses_by_walkover() -> None:
    entries = [entry(1, 1), entry(2, 2, "withdrawn")]
    bye = rounds.at_once(tournament(), table(second=None), entries)
    assert bye is not None
    assert (bye.points, bye.winner, bye.reason) == ((2, 0), 1, "bye")
    walkover = rounds.at_once(tournament("elimination"), table(), entries)
    assert walkover is not None
    assert (walkover.winner, walkover.reason) == (1, "walkover")
    assert rounds.at_once(tournament(), table(), [entry(1, 1), entry(2, 2)]) is None


def test_the_pot_is_split_fifty_thirty_twenty_the_remainder_to_the_winner() -> None:
    assert rounds.prizes(700, [1, 2, 3], [True, True, True]) == [350, 210, 140]
    assert rounds.prizes(101, [1, 2, 3], [True, True, True]) == [51, 30, 20]
    assert rounds.prizes(7, [1, 2, 3], [True, True, True]) == [4, 2, 1]
    assert sum(rounds.prizes(99_999, [1, 2, 3], [True, True, True])) == 99_999


def test_a_place_that_cannot_be_paid_goes_to_the_best_placed_player_who_can() -> None:
    assert rounds.prizes(100, [1, -4, 3], [True, False, True]) == [80, 0, 20]
    assert rounds.prizes(100, [-1, 2, 3], [False, True, True]) == [0, 80, 20]
    assert rounds.prizes(100, [-1, -2, -3], [False, False, False]) == [0, 0, 0]


def test_a_player_who_left_is_ranked_after_every_player_still_in() -> None:
    entries = [entry(1, 1, "withdrawn"), entry(2, 2), entry(3, 3)]
    decided = TableRow(1, 0, 1, 2, 7, "decided", 2, 0, 1, "played")
    # 1 beat 2 before leaving: 2 (Buchholz 2) and 3 (0) come before it all the same
    assert [s.player for s in rounds.standings(entries, [decided])] == [2, 3, 1]
