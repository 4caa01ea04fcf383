"""How fast an Immortal's War duel resolves, and how long the AI takes to decide.

Real catalog (data/immortals.json), decks and spells from the engine's `sample_setup`, pinned to one core.

- Fights: the four fights of a duel, each the full 20 turns (two units that wound each other rarely:
  4 Attack against 8 Defense, 60 HP), through `rules.fight`, the loop the engine runs: the dice-bound cost.
- Whole duel through the engine: `new_game` (decks checked, units and spells drawn) then the eight
  `apply` calls of the four rounds (fixed choices: units in drawing order, each with a spell when one is
  left), the states' copies and the events included.
- AI: the wall time of each `ai.choose` over whole duels where the AI plays both seats.

Each figure is measured over `--duels` duels (seeds 0..n-1), `--runs` times; the medians of the runs are
reported. Targets: a whole duel (4 fights x 20 turns) <= 0.3 ms median; the AI's decision <= 20 ms p99.

Measured (`--duels 2000 --runs 3`, one core of a shared 2-core machine, load average about 2, three
runs each, alternately; details in docs/immortals/rules-notes.md, "Benchmarks"):

    before: fights 31.8 us; whole duel 450 us (438-475); AI median 0.24 ms, p99 1.4-9.1 ms
    after:  fights 31.8 us; whole duel 274 us (253-402); AI median 0.16 ms, p99 1.1-1.2 ms

    python -m benchmarks.immortals_duel [--duels 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine.immortals import ENGINE, Choose, ImmortalsCatalog, ImmortalsState
from engine.immortals.ai import choose
from engine.immortals.rules import Numbers, fight
from engine.immortals.state import ROUNDS, TURNS
from services.infra.catalogs import DATA_DIR, load_catalog

# A unit that rarely wounds its twin (4 Attack against 8 Defense) and has 60 HP: every fight lasts 20 turns.
FULL_LENGTH = Numbers(
    attack=4,
    defense=8,
    hp=60,
    armor=0,
    regen=0,
    power=4,
    healed=0,
    terrain_mod=0,
    spell_acted=False,
    initiative_spell=False,
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def fights(duels: int) -> list[float]:
    """Microseconds per duel's four full-length fights."""
    times = []
    for seed in range(duels):
        rng = random.Random(seed)
        started = time.perf_counter()
        for _ in range(ROUNDS):
            _, trace = fight(rng, (FULL_LENGTH, FULL_LENGTH), 0)
        times.append((time.perf_counter() - started) * 1e6)
        assert len(trace) == TURNS
    return times


def whole_duels(catalog: ImmortalsCatalog, duels: int) -> tuple[list[float], list[float]]:
    """Microseconds per duel through the engine (`new_game` and the eight `apply` calls), wall and CPU
    time: on a shared machine the CPU time shows the cost without the waits for a core."""
    setups = [ENGINE.sample_setup(random.Random(seed), catalog) for seed in range(duels)]
    wall, cpu = [], []
    for seed, setup in enumerate(setups):
        started, started_cpu = time.perf_counter(), time.process_time()
        state = ENGINE.new_game(setup.players, seed, setup.options)
        while not state.finished:
            for seat in ENGINE.current_players(state):
                state, _ = ENGINE.apply(state, seat, _fixed(state, seat))
        wall.append((time.perf_counter() - started) * 1e6)
        cpu.append((time.process_time() - started_cpu) * 1e6)
    return wall, cpu


def _fixed(state: ImmortalsState, seat: int) -> Choose:
    """The round's unit in drawing order and the spell of the same rank, when there is one."""
    rank = state.round - 1
    spell = f"s{seat}-{rank}" if rank < len(state.spells[seat]) else None
    return Choose(unit=f"u{seat}-{rank}", spell=spell)


def decisions(catalog: ImmortalsCatalog, duels: int) -> list[float]:
    """Milliseconds per AI decision, the AI playing both seats."""
    times = []
    for seed in range(duels):
        setup = ENGINE.sample_setup(random.Random(seed), catalog)
        state = ENGINE.new_game(setup.players, seed, setup.options)
        rng = random.Random(seed)
        while not state.finished:
            for seat in ENGINE.current_players(state):
                started = time.perf_counter()
                action = choose(state, seat, rng)
                times.append((time.perf_counter() - started) * 1000)
                state, _ = ENGINE.apply(state, seat, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duels", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    catalog = load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog)
    fight_medians, duel_medians, cpu_medians, ai_medians, ai_p99s = [], [], [], [], []
    for _ in range(args.runs):
        fight_medians.append(statistics.median(fights(args.duels)))
        wall, cpu = whole_duels(catalog, args.duels)
        duel_medians.append(statistics.median(wall))
        cpu_medians.append(statistics.median(cpu))
        ai = decisions(catalog, max(1, args.duels // 4))
        ai_medians.append(statistics.median(ai))
        ai_p99s.append(percentile(ai, 0.99))
    print(f"four full-length fights (80 turns): median {statistics.median(fight_medians):.1f} us per duel")
    print(
        f"whole duel through the engine:      median {statistics.median(duel_medians):.1f} us wall, "
        f"{statistics.median(cpu_medians):.1f} us CPU (target <= 300 us)"
    )
    print(f"load average during the run:        {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        f"AI decision:                        median {statistics.median(ai_medians):.2f} ms, "
        f"p99 {statistics.median(ai_p99s):.2f} ms (target p99 <= 20 ms)"
    )


if __name__ == "__main__":
    main()
