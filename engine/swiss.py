"""The Swiss format: standings with their tie-break, and each round's pairing (docs/tournaments.md, "Swiss").

Points are counted in half-points, so that a draw needs no fraction: a win or a bye 2, a draw 1, a loss
0 (both players absent: both lose). The standings rank players by points, then **Buchholz** (the sum of
the points of every opponent met, a bye adding nothing), then the seeding rank.

Pairing is the **Monrad system** (score-ordered adjacent pairing) with backtracking against rematches:
players are ranked as in the standings; the best-ranked unpaired player meets the next one in that order
they have not met yet, and so on down; when the players left cannot all be paired without a rematch, the
search goes back one choice and tries the following opponent. With an odd count, the bye goes to the
lowest-ranked player who has not had one, or the next one up when the others cannot be paired without
a rematch around them. The order of priorities is: at most one bye per player, then no rematch, then the
bye to the lowest score, then pairs as close in the ranking as possible. Only when no rematch-free
pairing exists at all (or the search passes `SEARCH_BUDGET` steps, which a field of the sizes a server
runs never reaches) are the players paired in ranking order, rematches included.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 2, 1, 0  # half-points
SEARCH_BUDGET = 200_000  # backtracking steps for one pairing before it gives up on avoiding rematches


def default_rounds(players: int) -> int:
    """⌈log2 players⌉: enough rounds for one player to be alone with every win."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


@dataclass(frozen=True)
class Played:
    """One decided table of a round: `second` is None for a bye; `points` are half-points per seat."""

    first: int
    second: int | None
    points: tuple[int, int]


@dataclass(frozen=True)
class Standing:
    player: int
    points: int  # half-points
    buchholz: int  # half-points
    wins: int
    seed: int  # the seeding rank, 1 first

    @property
    def key(self) -> tuple[int, int, int]:
        return (-self.points, -self.buchholz, self.seed)


def standings(seeded: Sequence[int], played: Sequence[Played]) -> list[Standing]:
    """Every entrant of `seeded` (seeding order), ranked: points, Buchholz, seeding rank."""
    points = dict.fromkeys(seeded, 0)
    wins = dict.fromkeys(seeded, 0)
    opponents: dict[int, list[int]] = {player: [] for player in seeded}
    for table in played:
        first_points, second_points = table.points
        points[table.first] += first_points
        wins[table.first] += first_points == WIN
        if table.second is not None:
            points[table.second] += second_points
            wins[table.second] += second_points == WIN
            opponents[table.first].append(table.second)
            opponents[table.second].append(table.first)
    ranks = {player: rank for rank, player in enumerate(seeded, start=1)}
    rows = [
        Standing(
            player, points[player], sum(points[o] for o in opponents[player]), wins[player], ranks[player]
        )
        for player in seeded
    ]
    return sorted(rows, key=lambda row: row.key)


def met_pairs(played: Sequence[Played]) -> set[frozenset[int]]:
    """Every pair of players who already met."""
    return {frozenset((t.first, t.second)) for t in played if t.second is not None}


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[int, int], ...]  # (higher-ranked, lower-ranked), best table first
    bye: int | None
    rematches: int  # pairs that met before: 0 unless no rematch-free pairing was found


class _Exhausted(Exception):
    pass


def pair_round(ranked: Sequence[int], met: Collection[frozenset[int]], had_bye: Collection[int]) -> Pairing:
    """The next round's pairing of `ranked` (the players still in, best first; see the module's rules)."""
    players = list(ranked)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    counter = [0]
    if len(players) % 2 == 0:
        return _pair_all(players, None, met, counter)
    eligible = [p for p in reversed(players) if p not in had_bye] or list(reversed(players))
    for bye in eligible:
        rest = [p for p in players if p != bye]
        try:
            found = _search(rest, met, counter)
        except _Exhausted:
            break
        if found is not None:
            return Pairing(tuple(found), bye, 0)
    bye = eligible[0]
    return _fallback([p for p in players if p != bye], bye, met)


def _pair_all(
    players: list[int], bye: int | None, met: Collection[frozenset[int]], counter: list[int]
) -> Pairing:
    try:
        found = _search(players, met, counter)
    except _Exhausted:
        found = None
    if found is not None:
        return Pairing(tuple(found), bye, 0)
    return _fallback(players, bye, met)


def _fallback(players: list[int], bye: int | None, met: Collection[frozenset[int]]) -> Pairing:
    pairs = tuple((players[i], players[i + 1]) for i in range(0, len(players), 2))
    return Pairing(pairs, bye, sum(frozenset(p) in met for p in pairs))


def _search(
    players: list[int], met: Collection[frozenset[int]], counter: list[int]
) -> list[tuple[int, int]] | None:
    """Pairs of `players` with no rematch, each taking the closest opponent it may, or None."""
    allowed = {p: {q for q in players if q != p and frozenset((p, q)) not in met} for p in players}

    def feasible(left: list[int]) -> bool:
        pool = set(left)
        return all(allowed[p] & pool for p in left)

    def solve(left: list[int]) -> list[tuple[int, int]] | None:
        if not left:
            return []
        counter[0] += 1
        if counter[0] > SEARCH_BUDGET:
            raise _Exhausted
        first, rest = left[0], left[1:]
        for index, other in enumerate(rest):
            if other not in allowed[first]:
                continue
            others = rest[:index] + rest[index + 1 :]
            if not feasible(others):
                continue
            found = solve(others)
            if found is not None:
                return [(first, other), *found]
        return None

    return solve(players) if feasible(players) else None


__all__ = [
    "DRAW",
    "LOSS",
    "SEARCH_BUDGET",
    "WIN",
    "Pairing",
    "Played",
    "Standing",
    "default_rounds",
    "met_pairs",
    "pair_round",
    "standings",
]
