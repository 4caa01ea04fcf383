"""What a round is made of and how each table is decided, from the tournament's rows and the engine's
formats (engine/swiss.py, engine/bracket.py, engine/seeding.py). No write here: the service's units
write what these return (docs/tournaments.md, "Rounds" and "Deadlines").

How a table is decided (half-points: a win 2, a draw 1, a loss 0):

| what happened | Swiss | single elimination |
|---|---|---|
| the match ended | its winner's points, a draw 1 each | its winner goes on; a draw: a coin flip (`draw_coin`) |
| one player ready by the deadline | that player wins (`absent`) | the same |
| neither ready | both lose, 0 each (`both_absent`) | a coin flip picks who goes on (`coin`) |
| a bye (odd field, or the bracket's empty slot) | 2 points (`bye`) | goes on (`bye`) |
| the opponent erased their data | — (no longer paired) | goes on (`walkover`) |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import bracket, seeding, swiss
from services.community.tournaments.store import Entry, TableRow, Tournament

SHARES = (50, 30, 20)  # the podium's percentages of the pot (docs/tournaments.md, "Entry fees")


@dataclass(frozen=True)
class Decision:
    points: tuple[int, int]
    winner: int | None  # the player who goes on (elimination) or wins; None: a draw, or both lost
    reason: str


def seeded_players(entries: Sequence[Entry]) -> list[int]:
    """Every entrant in seeding order (set at the start)."""
    ranked = sorted((e for e in entries if e.seed_rank is not None), key=lambda e: e.seed_rank or 0)
    return [e.player_id for e in ranked]


def played(rows: Sequence[TableRow]) -> list[swiss.Played]:
    """The decided tables, as the Swiss standings count them."""
    return [
        swiss.Played(row.first, row.second, (row.first_points or 0, row.second_points or 0))
        for row in rows
        if row.decided and row.first is not None
    ]


def standings(entries: Sequence[Entry], rows: Sequence[TableRow]) -> list[swiss.Standing]:
    """The Swiss standings; a player who left (erased their data) is ranked after every player still in."""
    ranked = swiss.standings(seeded_players(entries), played(rows))
    gone = {e.player_id for e in entries if not e.playing}
    return [row for row in ranked if row.player not in gone] + [row for row in ranked if row.player in gone]


def swiss_pairs(entries: Sequence[Entry], rows: Sequence[TableRow]) -> list[tuple[int, int | None]]:
    """The next Swiss round's tables: the pairs, best first, then the bye (second seat None)."""
    ranked = [row.player for row in standings(entries, rows) if _playing(entries, row.player)]
    done = played(rows)
    had_bye = {t.first for t in done if t.second is None}
    pairing = swiss.pair_round(ranked, swiss.met_pairs(done), had_bye)
    tables: list[tuple[int, int | None]] = list(pairing.pairs)
    if pairing.bye is not None:
        tables.append((pairing.bye, None))
    return tables


def _playing(entries: Sequence[Entry], player: int) -> bool:
    return any(e.player_id == player and e.playing for e in entries)


def bracket_tables(rows: Sequence[TableRow]) -> list[bracket.Table]:
    return [
        bracket.Table(row.round, row.table, row.first, row.second, row.winner if row.decided else None)
        for row in rows
    ]


def elimination_pairs(
    entries: Sequence[Entry], rows: Sequence[TableRow], round_: int
) -> list[tuple[int | None, int | None]]:
    """The bracket's tables of `round_` (the first from the seeding, then the winners two by two)."""
    seeded = seeded_players(entries)
    if round_ == 1:
        return [(t.first, t.second) for t in bracket.opening(seeded)]
    before = [t for t in bracket_tables(rows) if t.round == round_ - 1]
    return [(t.first, t.second) for t in bracket.following(len(seeded), before)]


def rounds_of(tournament: Tournament, entrants: int) -> int:
    if tournament.format == "elimination":
        return bracket.rounds_for(entrants)
    return tournament.rounds or swiss.default_rounds(entrants)


# --- deciding a table ----------------------------------------------------------------------------------------


def at_once(tournament: Tournament, row: TableRow, entries: Sequence[Entry]) -> Decision | None:
    """A table decided as the round opens: a bye, or (elimination) an opponent who left; else None."""
    first, second = row.first, row.second
    if first is None or second is None:
        alone = first if second is None else second
        return Decision((swiss.WIN, swiss.LOSS) if alone == first else (swiss.LOSS, swiss.WIN), alone, "bye")
    gone = {e.player_id for e in entries if not e.playing}
    if first in gone or second in gone:
        if first in gone and second in gone:
            return _coin(tournament, row, "coin")
        winner = second if first in gone else first
        return Decision(_points_of(row, winner), winner, "walkover")
    return None


def played_out(tournament: Tournament, row: TableRow, winner_seat: int | None) -> Decision:
    """The table of a match that ended: its winner, or a draw (elimination: a coin flip)."""
    if winner_seat is None:
        if tournament.format == "elimination":
            return _coin(tournament, row, "draw_coin")
        return Decision((swiss.DRAW, swiss.DRAW), None, "draw")
    winner = row.first if winner_seat == 0 else row.second
    return Decision(_points_of(row, winner), winner, "played")


def by_attendance(tournament: Tournament, row: TableRow, ready: tuple[bool, bool]) -> Decision:
    """The deadline fell before the match started: who was there wins; nobody there, both lose (Swiss)
    or a coin flip (elimination)."""
    if ready[0] != ready[1]:
        winner = row.first if ready[0] else row.second
        return Decision(_points_of(row, winner), winner, "absent")
    if tournament.format == "elimination":
        return _coin(tournament, row, "coin")
    return Decision((swiss.LOSS, swiss.LOSS), None, "both_absent")


def _points_of(row: TableRow, winner: int | None) -> tuple[int, int]:
    return (swiss.WIN, swiss.LOSS) if winner == row.first else (swiss.LOSS, swiss.WIN)


def _coin(tournament: Tournament, row: TableRow, reason: str) -> Decision:
    seat = seeding.coin(tournament.seed, row.round, row.table)
    winner = row.first if seat == 0 else row.second
    return Decision(_points_of(row, winner), winner, reason)


# --- the end -------------------------------------------------------------------------------------------------


def final_places(tournament: Tournament, entries: Sequence[Entry], rows: Sequence[TableRow]) -> list[int]:
    """Every entrant by final place, once the last round is decided."""
    if tournament.format == "swiss":
        return [row.player for row in standings(entries, rows)]
    seeded = seeded_players(entries)
    placed = bracket.placements(seeded, bracket_tables(rows))
    gone = {e.player_id for e in entries if not e.playing}
    return [p for p in placed if p not in gone] + [p for p in placed if p in gone]


def prizes(pot: int, podium: Sequence[int], payable: Sequence[bool]) -> list[int]:
    """Each podium place's prize: 50, 30 and 20 % of the pot rounded down, the remainder to the winner;
    the share of a place that cannot be paid (its player erased their data) goes to the best-placed
    player who can be; with none, nothing is paid."""
    shares = [pot * percent // 100 for percent in SHARES[: len(podium)]]
    if shares:
        shares[0] += pot - sum(shares)
    receiving = next((i for i, ok in enumerate(payable) if ok), None)
    paid = [share if payable[i] else 0 for i, share in enumerate(shares)]
    if receiving is not None:
        paid[receiving] += sum(share for i, share in enumerate(shares) if not payable[i])
    return paid
