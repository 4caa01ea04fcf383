"""The single elimination format: the bracket, who goes on, the final places (docs/tournaments.md,
"Single elimination").

The bracket has the size of the smallest power of two that holds every entrant, and its slots follow
the standard seeding order (1 against the last seed, and seeds 1 and 2 meet in the final at the
earliest: for 8, 1-8, 4-5, 2-7, 3-6). The slots past the last entrant are byes, so the best seeds skip
the first round; as the size is under twice the entrants, two byes never meet and only the first round
has any. Each later table takes the winners of two tables of the round before; the last round also
plays the third place, between the two semi-finals' losers (from 4 entrants on), so that the podium has
three places. Final places: the champion, the finalist, the third place's winner and loser, then the
others by the round they lost in (later first), then by seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

THIRD_PLACE = 1  # the table number of the third place in the last round (the final is table 0)


def size_for(entrants: int) -> int:
    """The smallest power of two that holds `entrants` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_for(entrants: int) -> int:
    return size_for(entrants).bit_length() - 1


def slots(size: int) -> list[int]:
    """The seeds (1 first) in bracket order: neighbours meet in the first round."""
    order = [1, 2]
    while len(order) < size:
        order = [seed for top in order for seed in (top, 2 * len(order) + 1 - top)]
    return order


@dataclass(frozen=True)
class Table:
    round: int  # 1 first
    table: int  # 0 first; in the last round, 0 the final and THIRD_PLACE the third place
    first: int | None  # None: a bye
    second: int | None
    winner: int | None = None  # decided: the player who goes on (a bye's player at once)

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.second if self.winner == self.first else self.first


def opening(seeded: Sequence[int]) -> list[Table]:
    """The first round, from the entrants in seeding order; a bye's table is decided already."""
    if len(seeded) < 2 or len(set(seeded)) != len(seeded):
        raise ValueError("a bracket needs two different entrants at least")
    order = slots(size_for(len(seeded)))
    players = [seeded[seed - 1] if seed <= len(seeded) else None for seed in order]
    tables = []
    for index in range(0, len(players), 2):
        first, second = players[index], players[index + 1]
        alone = first if second is None else second if first is None else None
        tables.append(Table(1, index // 2, first, second, alone))
    return tables


def following(entrants: int, done: Sequence[Table]) -> list[Table]:
    """The round after `done` (every table of one round, decided): its winners two by two, and in the
    last round the third place between the semi-finals' losers."""
    if not done or any(not t.decided for t in done):
        raise ValueError("the round is not decided")
    round_ = done[0].round
    if round_ >= rounds_for(entrants):
        raise ValueError("the final was the last round")
    main = sorted(done, key=lambda t: t.table)
    tables = [
        Table(round_ + 1, index // 2, main[index].winner, main[index + 1].winner)
        for index in range(0, len(main), 2)
    ]
    if round_ + 1 == rounds_for(entrants) and len(main) == 2:
        tables.append(Table(round_ + 1, THIRD_PLACE, main[0].loser, main[1].loser))
    return tables


def decide(table: Table, winner: int) -> Table:
    if winner not in (table.first, table.second):
        raise ValueError(f"{winner} does not play at this table")
    return replace(table, winner=winner)


def placements(entrants: Sequence[int], tables: Sequence[Table]) -> list[int]:
    """Every entrant by final place, once the last round is decided."""
    last = rounds_for(len(entrants))
    final_round = [t for t in tables if t.round == last]
    if not final_round or any(not t.decided for t in final_round):
        raise ValueError("the last round is not decided")
    ordered: list[int] = []
    final = next(t for t in final_round if t.table == 0)
    third = next((t for t in final_round if t.table == THIRD_PLACE), None)
    for player in (final.winner, final.loser, *((third.winner, third.loser) if third else ())):
        if player is not None and player not in ordered:
            ordered.append(player)
    seed = {player: rank for rank, player in enumerate(entrants)}
    out_in: dict[int, int] = {}
    for table in tables:
        if table.loser is not None and table.loser not in ordered:
            out_in[table.loser] = max(out_in.get(table.loser, 0), table.round)
    ordered += sorted(out_in, key=lambda player: (-out_in[player], seed[player]))
    return ordered


__all__ = [
    "THIRD_PLACE",
    "Table",
    "decide",
    "following",
    "opening",
    "placements",
    "rounds_for",
    "size_for",
    "slots",
]
