"""A tournament's seeding and its coin flips, from a commit–reveal seed (engine/fair_draw.py).

The bot publishes `fair_draw.commitment(seed)` when the tournament is created and the seed when it
starts; everything drawn here is a function of that seed and of what the posts show, so anyone can
recompute it (docs/tournaments.md, "Seeding" and "Checking the draw"):

- **random seeding**: the entrants, as their ids written in decimal and sorted by registration, are
  shuffled by `fair_draw.draw(seed, entries, n)`; the first drawn is seed 1.
- **seeding by rating**: highest rating first; equal ratings keep the random order above between them.
- **a coin flip** (elimination: both players absent, or a draw): `fair_draw.uniform(seed,
  "coin:<round>:<table>", 2)`, 0 for the first seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import fair_draw


def random_order(seed: str, entrants: Sequence[int]) -> list[int]:
    """The entrants in seeding order (seed 1 first), shuffled by the published draw."""
    entries = [str(player) for player in entrants]
    return [entrants[position] for position in fair_draw.draw(seed, entries, len(entries))]


def seeding(seed: str, entrants: Sequence[int], ratings: Mapping[int, int] | None = None) -> list[int]:
    """Seeding order: by the draw, or by rating (highest first) with the draw between equal ratings."""
    drawn = random_order(seed, entrants)
    if ratings is None:
        return drawn
    place = {player: index for index, player in enumerate(drawn)}
    return sorted(drawn, key=lambda player: (-ratings.get(player, 0), place[player]))


def coin(seed: str, round_: int, table: int) -> int:
    """The seat a coin flip picks (0 or 1) for the match at `table` of `round_`."""
    return fair_draw.uniform(seed, f"coin:{round_}:{table}", 2)


__all__ = ["coin", "random_order", "seeding"]
