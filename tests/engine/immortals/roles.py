"""The AI's strength in each role of a duel, the engaging seat and the counter, measured over seeded deals.

Each deal (decks and spells from `sample_setup` on the real catalog, seeds 0 to n-1) is played twice, a
player (the AI, or the random policy itself for the baseline) in each seat against the uniformly random
policy. Who engages follows from the deal alone (the drawn units' total Attack), so every deal gives one
duel where the player engages and one where it counters: n duels in each role. Then the AI plays itself
on each deal, and the engaging seat's results are counted.

    python -m tests.engine.immortals.roles [--deals 2000]

prints the rates of both players in both roles and the self-play split (docs/immortals/rules-notes.md,
"The AI", has the figures).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from engine.immortals.ai import choose, random_policy
from engine.immortals.state import Choose, ImmortalsState
from tests.engine.immortals.helpers import ENGINE, catalog

Policy = Callable[[ImmortalsState, int, random.Random], Choose]


def duel(seed: int, policies: tuple[Policy, Policy]) -> ImmortalsState:
    """The deal of `seed` played to its end, each seat by its policy with its own seeded stream."""
    setup = ENGINE.sample_setup(random.Random(seed), catalog())
    s = ENGINE.new_game(setup.players, seed, setup.options)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    while not s.finished:
        for seat in ENGINE.current_players(s):
            s, _ = ENGINE.apply(s, seat, policies[seat](s, seat, rngs[seat]))
    return s


@dataclass(frozen=True)
class Role:
    """The AI's wins against the random policy in one role, over `duels` duels (draws are not wins)."""

    wins: int
    duels: int

    @property
    def rate(self) -> float:
        return self.wins / self.duels


PLAYERS: dict[str, Policy] = {"ai": choose, "random": random_policy}


def by_role(player: str, seeds: range) -> dict[str, Role]:
    """The wins of `player` ("ai" or "random", a name so that a worker process can be handed it) against
    the random policy as the engaging seat and as the counter, each deal played from both seats."""
    mine = PLAYERS[player]
    wins = Counter[str]()
    duels = Counter[str]()
    for seed in seeds:
        for seat, policies in ((0, (mine, random_policy)), (1, (random_policy, mine))):
            s = duel(seed, policies)
            role = "engager" if s.engager == seat else "counter"
            duels[role] += 1
            wins[role] += s.winner == seat
    return {role: Role(wins[role], duels[role]) for role in ("engager", "counter")}


def self_play(seeds: range) -> Counter[str]:
    """The AI against itself: how many duels the engaging seat won, the counter won, or were drawn."""
    results = Counter[str]()
    for seed in seeds:
        s = duel(seed, (choose, choose))
        results["draw" if s.winner is None else "engager" if s.winner == s.engager else "counter"] += 1
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=2000)
    deals = range(parser.parse_args().deals)
    for player in PLAYERS:
        for role, found in by_role(player, deals).items():
            print(f"{player} as the {role} against random: {found.wins}/{found.duels} = {found.rate:.1%}")
    split = self_play(deals)
    total = sum(split.values())
    print("AI against itself: " + ", ".join(f"{k} {split[k]} ({split[k] / total:.1%})" for k in split))


if __name__ == "__main__":
    main()
