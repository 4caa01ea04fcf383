"""The first response of a player's first command of a game, which now carries the game's welcome: how long
after the command it reaches Discord, against the same command once the welcome was given.

Discord forgets an interaction whose first response comes more than 3 s after it (docs: "Receiving and
Responding"). The welcome rides on that first response (discord_app/welcome.py): folded into a private
answer, or sent as the response a public answer follows. The real bot runs against the in-repo emulator on
a fresh SQLite file; each user runs, one after the other:

- `/pillz collection` twice: the first answer carries the welcome at its top (and gives the starter deck),
  the second carries none;
- `/hoss classement` (a public board): the welcome is the private response, the board follows it.

The time measured is from the command being sent to the emulator receiving its first response callback
(the interaction's acknowledgement), on this process's one event loop (the emulator's work included, so
pessimistic). Prints the median, p99 and maximum in milliseconds per case.

    python -m benchmarks.welcome_first [--users 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from emulator.interactions import InteractionRecord
from sandbox.harness import BotHarness

LIMIT_MS = 3000.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(users: int) -> dict[str, list[float]]:
    acknowledged: dict[int, float] = {}
    original = InteractionRecord.acknowledge

    def timed(self: InteractionRecord, callback_type: int) -> None:
        acknowledged.setdefault(self.id, time.perf_counter())
        original(self, callback_type)

    InteractionRecord.acknowledge = timed  # type: ignore[method-assign]
    times: dict[str, list[float]] = {
        "first (welcome folded)": [],
        "later (no welcome)": [],
        "public board": [],
    }
    try:
        with tempfile.TemporaryDirectory() as scratch:
            harness = BotHarness(Path(scratch) / "bot.sqlite3")
            await harness.start()
            try:
                for index in range(users):
                    user = harness.user(f"player{index}")
                    for case, command in (
                        ("first (welcome folded)", "pillz collection"),
                        ("later (no welcome)", "pillz collection"),
                        ("public board", "hoss classement"),
                    ):
                        began = time.perf_counter()
                        result = await harness.emu.run_command(user, command)
                        times[case].append((acknowledged[result.interaction.id] - began) * 1000)
                    await harness.settle()
            finally:
                await harness.stop()
    finally:
        InteractionRecord.acknowledge = original  # type: ignore[method-assign]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=200)
    args = parser.parse_args()
    times = asyncio.run(measure(args.users))
    print(f"{args.users} users; time to the first response, ms (Discord's limit: {LIMIT_MS:.0f})")
    for case, values in times.items():
        median, p99, worst = statistics.median(values), percentile(values, 0.99), max(values)
        print(f"  {case:<24} median {median:6.2f}  p99 {p99:6.2f}  max {worst:6.2f}")
        if worst >= LIMIT_MS:
            raise SystemExit(f"{case}: a first response took {worst:.0f} ms")


if __name__ == "__main__":
    main()
