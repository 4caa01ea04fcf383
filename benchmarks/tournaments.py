"""How long a 64-player tournament's round takes to pair and to draw (docs/tournaments.md, "Performance").

- **Pairing**: a Swiss field of 64 played to each round with seeded random results (a win, a loss, a draw,
  both absent), then the next round's pairing (`engine.swiss.pair_round` on the standings) timed; the
  figure is the slowest round's median. A bracket's next round is a few list operations, timed too.
- **Picture**: the standings of 64 players and the bracket of 64, drawn and encoded as PNG
  (`services/community/card_images/tournament.py`), in French; CPU time of the drawing thread too.

Figures are medians and the maximum in milliseconds over `--rounds` repetitions; the targets are 50 ms
for a pairing and 200 ms for a picture. On a loaded machine a wall time includes waiting for a core.

    python -m benchmarks.tournaments [--rounds 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import bracket, swiss
from services.community.card_images import tournament
from services.infra.messages import Text

FIELD = 64


def swiss_history(seed: int, rounds: int) -> list[swiss.Played]:
    rng = random.Random(seed)
    seeded = list(range(1, FIELD + 1))
    played: list[swiss.Played] = []
    for _ in range(rounds):
        ranked = [s.player for s in swiss.standings(seeded, played)]
        done = played
        pairing = swiss.pair_round(ranked, swiss.met_pairs(done), {t.first for t in done if t.second is None})
        for a, b in pairing.pairs:
            points = rng.choice(
                [(swiss.WIN, swiss.LOSS), (swiss.LOSS, swiss.WIN), (swiss.DRAW, swiss.DRAW), (0, 0)]
            )
            played.append(swiss.Played(a, b, points))
    return played


def next_pairing(played: list[swiss.Played]) -> Callable[[], object]:
    seeded = list(range(1, FIELD + 1))

    def pair() -> object:
        ranked = [s.player for s in swiss.standings(seeded, played)]
        had_bye = {t.first for t in played if t.second is None}
        return swiss.pair_round(ranked, swiss.met_pairs(played), had_bye)

    return pair


def next_bracket_round() -> Callable[[], object]:
    tables = [bracket.decide(t, t.first or 0) for t in bracket.opening(list(range(1, FIELD + 1)))]
    return lambda: bracket.following(FIELD, tables)


def standings_data() -> dict[str, Any]:
    rows = [
        [n, f"Joueur n° {n}", 12 - n // 6, 40 - n // 2, 6 - n // 11, n % 2, n // 11]
        for n in range(1, FIELD + 1)
    ]
    title = Text(
        "tournaments.heading", {"title": Text.raw("Tournoi Pillz duel du 12 janvier 2026"), "number": 12}
    )
    subtitle = Text("tournaments.picture.after_round", {"round": 6, "rounds": 6})
    return {"title": title.to_json(), "subtitle": subtitle.to_json(), "rows": rows}


def bracket_data() -> dict[str, Any]:
    tables: list[list[Any]] = []
    players = [f"Joueur n° {n}" for n in range(1, FIELD + 1)]
    size, round_ = FIELD, 1
    while size > 1:
        for table in range(size // 2):
            tables.append([round_, table, players[2 * table], players[2 * table + 1], 0])
        players = players[::2]
        size //= 2
        round_ += 1
    tables.append([round_ - 1, 1, "Joueur n° 3", "Joueur n° 4", 1])
    title = Text(
        "tournaments.heading", {"title": Text.raw("Tournoi Dinocard du 12 janvier 2026"), "number": 13}
    )
    subtitle = Text("tournaments.picture.bracket", {"count": FIELD})
    return {
        "title": title.to_json(),
        "subtitle": subtitle.to_json(),
        "size": FIELD,
        "rounds": 6,
        "tables": tables,
    }


def timed(work: Callable[[], object], rounds: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.thread_time()
        work()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.thread_time() - cpu) * 1000)
    return walls, cpus


def report(label: str, walls: list[float], cpus: list[float], target: float) -> None:
    median = statistics.median(walls)
    print(
        f"{label:<36} median {median:8.2f} ms  max {max(walls):8.2f} ms  cpu median {statistics.median(cpus):8.2f} ms"
        f"  target {target:.0f} ms {'ok' if median <= target else 'OVER'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    slowest: tuple[float, int] = (0.0, 0)
    for before in range(swiss.default_rounds(FIELD)):
        walls, cpus = timed(next_pairing(swiss_history(before + 1, before)), args.rounds)
        report(f"Swiss pairing of round {before + 1}, 64 players", walls, cpus, 50)
        slowest = max(slowest, (statistics.median(walls), before + 1))
    print(f"slowest Swiss pairing: round {slowest[1]}, median {slowest[0]:.2f} ms")
    report("bracket's next round of 64", *timed(next_bracket_round(), args.rounds), 50)
    standings, tree = standings_data(), bracket_data()
    tournament.png("standings", standings, "fr")  # fonts loaded before timing
    report(
        "standings picture, 64 players",
        *timed(lambda: tournament.png("standings", standings, "fr"), args.rounds),
        200,
    )
    report(
        "bracket picture, 64 players", *timed(lambda: tournament.png("bracket", tree, "fr"), args.rounds), 200
    )


if __name__ == "__main__":
    main()
