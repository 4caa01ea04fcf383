"""End-to-end latency of a slash command, as a user sees it: one user alone, many at saturation, many paced.

The real bot (`CardBot`) runs against the in-repo Discord emulator (`sandbox.harness.BotHarness`) on a
fresh database: a SQLite file, or with `--database postgresql` a database on a durable PostgreSQL server
of the benchmark's own (benchmarks/databases.py). Each measured command is one `emu.run_command(user,
"profile")`: from the emulator sending INTERACTION_CREATE over the gateway to it holding the bot's
complete reply (and, as `run_command` does before returning, the loop having let the bot read the
response), so the figure covers the gateway hop, discord.py's parsing, the cog, the database round trips,
the REST callback and the emulator's own bookkeeping.

ONE PROCESS, ONE EVENT LOOP: the scripted users, the emulator (REST + gateway, i.e. Discord's side) and the
bot all share this process and its asyncio loop, so their CPU adds up on one core (SQLite runs in the
bot's database threads). The figures are therefore pessimistic for the bot: in production Discord's side
runs elsewhere. Latencies and capacities are those of this machine (`os.cpu_count()` is printed).

Per run, on one harness:
1. warm-up: every user runs /profile once (creates the player);
2. sequential: one user alone runs /profile `--baseline` times back to back (uncontended latency);
3. closed loop (saturation): all `--users` at once, each sending /profile `--rounds` times one after the
   other with no think time: throughput and latency when the bot is kept fully busy;
4. paced (offered load): all `--users` at once for `--seconds` per rate, each sending /profile every
   `users / rate` seconds on average (intervals jittered uniformly in [0.5, 1.5] x the mean, random phase),
   for `--rate` and every rate of `--sweep`. A user never has two commands in flight: when its previous
   reply comes late, the next command goes at once and its latency counts from when it was due (no
   coordinated omission). Reports p50/p99 per rate and the highest rate whose p99 stays within 25 ms.

CPU figures are process CPU time (every thread: bot, emulator, users, SQLite) per command. Every reply is
checked (ephemeral, one embed titled with the user's name) and the run fails if the emulator or the bot
recorded an error. Between phases (untimed) the emulator's records are dropped and garbage is collected,
so no phase pays for another's. Medians over `--runs` runs are reported.

    python -m benchmarks.command_latency [--database sqlite|postgresql|URL] [--users 50] [--rounds 20]
        [--runs 3] [--baseline 200] [--rate 200] [--sweep 100,200,300,400,500] [--seconds 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from benchmarks.databases import Target, load_average, target
from discord_app.bot import GC_THRESHOLDS
from emulator import DiscordEmulator, InteractionResult
from emulator.world import User
from sandbox.harness import BotHarness
from store.backend import sqlite_path

COMMAND = "profile"
TARGET_P99_MS = 25.0
JITTER = (0.5, 1.5)  # paced intervals are the mean interval times a uniform draw in this range


@dataclass(frozen=True)
class Figures:
    label: str
    commands: int
    seconds: float
    cpu_seconds: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    # CPU of the threads other than the one that ran the phase (the users and the emulator): with the bot
    # on a thread of its own (benchmarks.side_by_side), the bot's own CPU and its database threads'.
    others_cpu_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.commands / self.seconds

    @property
    def cpu_ms(self) -> float:
        """Process CPU time per command (bot + emulator + scripted users + SQLite threads)."""
        return self.cpu_seconds * 1000 / self.commands

    @property
    def others_cpu_ms(self) -> float:
        """CPU time per command of the threads other than the phase's own (see `others_cpu_seconds`)."""
        return self.others_cpu_seconds * 1000 / self.commands

    def line(self) -> str:
        return (
            f"{self.label:<36} {self.commands:>5} cmds {self.seconds:6.2f} s {self.per_second:7.1f} cmd/s  "
            f"p50 {self.p50_ms:7.2f}  p90 {self.p90_ms:7.2f}  p99 {self.p99_ms:7.2f}  max {self.max_ms:7.2f} ms"
            f"  cpu {self.cpu_ms:5.2f} ms/cmd"
        )


@dataclass(frozen=True)
class Paced:
    rate: float  # offered, commands per second across all users
    figures: Figures  # latency from the (jittered) due time when the user was held up, else from sending
    behind: int  # commands that went out late because the user's previous reply had not arrived yet

    @property
    def meets_target(self) -> bool:
        return self.figures.p99_ms <= TARGET_P99_MS

    def line(self) -> str:
        f = self.figures
        verdict = "ok" if self.meets_target else "ABOVE"
        return (
            f"{f.label:<36} {f.commands:>5} cmds {f.per_second:7.1f} cmd/s achieved  "
            f"p50 {f.p50_ms:7.2f}  p90 {f.p90_ms:7.2f}  p99 {f.p99_ms:7.2f}  max {f.max_ms:7.2f} ms  "
            f"cpu {f.cpu_ms:5.2f} ms/cmd  behind {self.behind:>4}  p99<={TARGET_P99_MS:.0f}: {verdict}"
        )


@dataclass(frozen=True)
class CpuMark:
    """Process CPU (every thread) and this thread's, read together at the start of a phase."""

    process: float
    here: float

    @staticmethod
    def now() -> CpuMark:
        return CpuMark(time.process_time(), time.thread_time())


def _figures(label: str, latencies: list[float], seconds: float, since: CpuMark) -> Figures:
    ms = sorted(latency * 1000 for latency in latencies)
    cuts = statistics.quantiles(ms, n=100, method="inclusive")
    end = CpuMark.now()
    process, here = end.process - since.process, end.here - since.here
    return Figures(label, len(ms), seconds, process, cuts[49], cuts[89], cuts[98], ms[-1], process - here)


# Answered commands the emulator keeps during a phase (`DiscordEmulator.keep_answers`): a follow-up comes
# milliseconds after its answer; what is kept beyond is walked by every collection of the shared process.
ANSWERS_KEPT = 200


class Bench(Protocol):
    """A bot on an emulator, as the phases see it: the real bot's `BotHarness`, or a bare bot's."""

    emu: DiscordEmulator

    @property
    def unexpected_errors(self) -> list[BaseException]: ...

    async def settle(self) -> None: ...


async def between_phases(harness: Bench, *, keep_records: bool = False) -> None:
    """Drain the bot, check for errors, then drop the emulator's records and collect garbage, untimed.

    The emulator keeps every message and request it saw (production Discord keeps them elsewhere), and a
    phase should not pay for collecting the previous phase's (or run's) garbage: either would make
    Python's full collections, which stop the shared loop for tens of milliseconds or more, land on
    whichever phase comes next. `keep_records` keeps them for a load that goes on clicking messages
    posted before (a duel's public message).

    What is left alive is then frozen (`gc.freeze()`), as bot.py's process freezes what its start-up built:
    a full collection during the phase walks only what the phase made. Without it, the modules, the
    catalogs and the emulator's world of this benchmark's process were walked by each one (a bare
    bot's phase met pauses of 112 ms that its own work did not cause). `thaw` undoes it after the run.
    """
    await harness.settle()
    harness.emu.assert_no_errors()
    if harness.unexpected_errors:
        raise SystemExit(f"THE BOT FAILED: {harness.unexpected_errors!r}")
    if not keep_records:
        harness.emu.clear_records()
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def collector_as_bot_py() -> Iterator[None]:
    """A bare bot measured with the collector's thresholds bot.py's bot sets once ready
    (`discord_app.bot.GC_THRESHOLDS`; the real bot sets them itself): the comparison is of the bots' code,
    not of their process's settings."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def thaw() -> None:
    """After a measurement's bot stopped: what `between_phases` froze can be collected again."""
    gc.unfreeze()
    gc.collect()


def check_profile(user: User, reply: InteractionResult) -> None:
    """A real answer, not an error message: the private profile embed of this very user."""
    embeds = reply.embeds
    title = str(embeds[0].get("title") or "") if embeds else ""
    if not reply.ephemeral or len(embeds) != 1 or user.name not in title:
        raise SystemExit(f"UNEXPECTED REPLY to {user.name}'s /{COMMAND}: {reply.render()!r}")


# One measured command of `user`: sends it, waits for the complete reply, checks it (raises if wrong);
# returns the seconds it spent on bookkeeping that is not the command (left out of its latency), or None.
Act = Callable[[User], Awaitable[float | None]]


def profile_of(harness: BotHarness) -> Act:
    async def act(user: User) -> None:
        check_profile(user, await harness.emu.run_command(user, COMMAND))
        return None

    return act


async def _timed(act: Act, user: User, latencies: list[float]) -> None:
    began = time.perf_counter()
    untimed = await act(user)
    latencies.append(time.perf_counter() - began - (untimed or 0.0))


async def run_sequential(act: Act, user: User, count: int, label: str) -> Figures:
    latencies: list[float] = []
    cpu, began = CpuMark.now(), time.perf_counter()
    for _ in range(count):
        await _timed(act, user, latencies)
    return _figures(label, latencies, time.perf_counter() - began, cpu)


async def run_closed_loop(act: Act, users: list[User], rounds: int, label: str) -> Figures:
    latencies: list[float] = []

    async def player(user: User) -> None:
        for _ in range(rounds):
            await _timed(act, user, latencies)

    cpu, began = CpuMark.now(), time.perf_counter()
    await asyncio.gather(*(player(user) for user in users))
    return _figures(label, latencies, time.perf_counter() - began, cpu)


async def run_paced(
    act: Act, users: list[User], rate: float, seconds: float, rng: random.Random, label: str
) -> Paced:
    loop = asyncio.get_running_loop()
    mean_interval = len(users) / rate
    latencies: list[float] = []
    behind = 0
    start = loop.time() + 0.005
    end = start + seconds
    last_done = start

    async def player(user: User) -> None:
        nonlocal behind, last_done
        due = start + rng.uniform(0, mean_interval)
        while due < end:
            now = loop.time()
            if now < due:
                await asyncio.sleep(due - now)
                began = loop.time()
            else:  # held up by its own previous command: the wait is part of what this user experiences
                began = due
                behind += 1
            untimed = await act(user)
            done = loop.time()
            latencies.append(done - began - (untimed or 0.0))
            last_done = max(last_done, done)
            due += mean_interval * rng.uniform(*JITTER)

    cpu = CpuMark.now()
    await asyncio.gather(*(player(user) for user in users))
    return Paced(rate, _figures(label, latencies, last_done - start, cpu), behind)


@dataclass(frozen=True)
class Options:
    users: int
    rounds: int
    runs: int
    baseline: int
    rates: list[float]
    seconds: float
    seed: int
    database: str = "sqlite"


@dataclass(frozen=True)
class Run:
    alone: Figures
    closed: Figures
    paced: list[Paced]


async def run_once(run: int, options: Options, where: Target, out: Callable[[str], None]) -> Run:
    async with where.fresh() as url:
        path = sqlite_path(url)
        harness = (
            BotHarness(path) if path is not None else BotHarness(Path("unused.sqlite3"), database_url=url)
        )
        await harness.start()
        try:
            players = [harness.user(f"joueur{i:03d}") for i in range(options.users)]
            for user in players:  # warm-up: the first /profile creates the player and its wallets
                await harness.emu.run_command(user, COMMAND)
            harness.emu.keep_answers = ANSWERS_KEPT  # older answered /profile leave nothing behind
            await between_phases(harness)

            act = profile_of(harness)
            alone = await run_sequential(act, players[0], options.baseline, f"1 user, sequential #{run}")
            out(alone.line())
            await between_phases(harness)
            label = f"{options.users} users x {options.rounds}, closed loop #{run}"
            closed = await run_closed_loop(act, players, options.rounds, label)
            out(closed.line())
            await between_phases(harness)
            paced: list[Paced] = []
            rng = random.Random(options.seed * 1000 + run)
            for rate in options.rates:
                label = f"{options.users} users paced {rate:g}/s #{run}"
                paced.append(await run_paced(act, players, rate, options.seconds, rng, label))
                out(paced[-1].line())
                await between_phases(harness)
        finally:
            await harness.stop()
    thaw()  # this run's bot and emulator, before the next run measures anything
    return Run(alone, closed, paced)


def _median(label: str, runs: list[Figures]) -> Figures:
    def med(values: list[float]) -> float:
        return statistics.median(values)

    return Figures(
        f"{label} (median)",
        round(med([r.commands for r in runs])),
        med([r.seconds for r in runs]),
        med([r.cpu_seconds for r in runs]),
        med([r.p50_ms for r in runs]),
        med([r.p90_ms for r in runs]),
        med([r.p99_ms for r in runs]),
        med([r.max_ms for r in runs]),
    )


def _max_rate(paced: list[Paced]) -> float | None:
    """The highest rate such that it and every lower rate tried kept p99 within the target."""
    best = None
    for result in sorted(paced, key=lambda p: p.rate):
        if not result.meets_target:
            break
        best = result.rate
    return best


async def main(options: Options, out: Callable[[str], None] = print) -> None:
    with target(options.database) as where:
        out(f"/{COMMAND} end to end through the Discord emulator (run_command duration), real bot")
        out(
            f"one process, one event loop: scripted users + emulator (Discord's side) + bot; "
            f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; {_json_library()}; {where.description}"
        )
        out(f"load average at start: {load_average()}")
        runs = []
        for run in range(1, options.runs + 1):
            runs.append(await run_once(run, options, where, out))
            out("")
    alone = _median("1 user, sequential", [r.alone for r in runs])
    closed = _median(f"{options.users} users x {options.rounds}, closed loop", [r.closed for r in runs])
    out(f"medians of {options.runs} run(s):")
    out(alone.line())
    out(closed.line())
    paced: list[Paced] = []
    for index, rate in enumerate(options.rates):
        figures = _median(f"{options.users} users paced {rate:g}/s", [r.paced[index].figures for r in runs])
        behind = round(statistics.median(r.paced[index].behind for r in runs))
        paced.append(Paced(rate, figures, behind))
        out(paced[-1].line())
    best = _max_rate(paced)
    tried = ", ".join(f"{p.rate:g}" for p in paced)
    answer = f"{best:g} commands/s" if best is not None else "none of the rates tried"
    out(f"highest offered rate with p99 <= {TARGET_P99_MS:.0f} ms (tried {tried}/s): {answer}")
    out(f"load average at end: {load_average()}")
    out("verification: every reply was the user's own ephemeral profile; no emulator or bot error: OK")


def _json_library() -> str:
    import discord.utils

    return "discord.py JSON: orjson" if discord.utils.HAS_ORJSON else "discord.py JSON: stdlib json"


def _rates(text: str) -> list[float]:
    try:
        rates = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of rates: {text!r}") from None
    if rates and min(rates) <= 0:
        raise argparse.ArgumentTypeError("rates must be positive")
    return rates


def load_arguments(description: str | None) -> argparse.ArgumentParser:
    """The options every command-latency benchmark shares (this one and benchmarks/bot_alone.py)."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (default), postgresql (a durable server of its own) or a URL",
    )
    parser.add_argument("--users", type=int, default=50, help="simulated users acting at once")
    parser.add_argument("--rounds", type=int, default=20, help="closed loop: commands per user, back to back")
    parser.add_argument(
        "--runs", type=int, default=3, choices=range(1, 100), metavar="N", help="runs (medians reported)"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="paced: duration of each rate")
    parser.add_argument("--seed", type=int, default=1, help="paced: seed of the jitter")
    return parser


def _parse() -> Options:
    parser = load_arguments(__doc__)
    parser.add_argument(
        "--baseline", type=int, default=200, help="commands the single user sends in the sequential baseline"
    )
    parser.add_argument(
        "--rate", type=float, default=200.0, help="paced: offered commands/s across all users (default 200)"
    )
    parser.add_argument(
        "--sweep",
        type=_rates,
        default=[100.0, 200.0, 300.0, 400.0, 500.0],
        help="paced: more offered rates to try, comma-separated (default 100,200,300,400,500; '' for none)",
    )
    args = parser.parse_args()
    if args.users < 1 or args.rounds < 1 or args.baseline < 2 or args.users * args.rounds < 2:
        parser.error("need at least one user, one round and two commands per measurement")
    if args.rate <= 0 or args.seconds <= 0:
        parser.error("--rate and --seconds must be positive")
    if args.seconds * args.rate < 2:
        parser.error("each paced rate needs at least two commands: raise --seconds or --rate")
    rates = sorted({args.rate, *args.sweep})
    if args.seconds * rates[0] < 2:
        parser.error("each paced rate needs at least two commands: raise --seconds")
    return Options(
        args.users, args.rounds, args.runs, args.baseline, rates, args.seconds, args.seed, args.database
    )


if __name__ == "__main__":
    asyncio.run(main(_parse()))
