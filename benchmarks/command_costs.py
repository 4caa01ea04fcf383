"""Every main command's own cost beside a bare discord.py bot's answering a reply of the same shape (issue 39).

For each load of benchmarks/cost_loads.py (one main command of a game: a booster, a collection page, a
sale, a Pillz move...), three bots take turns, each in a process of its own as benchmarks/bot_alone.py
runs them (`Fleet`: the emulator and the scripted user here, the bot there, its CPU read from
/proc/<pid>/task/*/schedstat):
- bare: benchmarks/bare_process.py's `/ping` bot, sent one `/ping` per interaction of the command;
- matched: the same process running `MatchedBot` (benchmarks/bare_bots.py) on the real bot's very requests
  for that command (same content, embeds, attachments, components), captured once per load from a real
  bot and checked request for request at the start of each of its measurements: no database, no
  service, no rendering, so "real / matched" is the bot's own work for that command;
- real: bot.py through emulator/launch.py, on a fresh SQLite file the load filled before it started.

A measurement is the three bot processes of a load, all started: the load's state is made before the real
bot starts (this process writes it through the services, on the bot's database file) and through the
emulator (untimed); then each bot's user (or the load's few users) sends `WARM` untimed commands and
`--commands` measured ones, the three bots taking turns command by command (bare, matched, real, bare...),
so that a slower moment of this shared machine falls on the three alike. Only the measured commands' own
time counts: a bot's CPU is read before each and after it and its follow-ups are over (its emulator
quiet), so what a load does between two of them (a duel made, a battle ended) is left out. Medians of
`--runs`.

The database trips (write transactions, reads) and, with `--profile LOAD`, a cProfile of the bot's event
loop thread and one of SQLite's writer thread come from the capture: the real bot run in this process on a thread of its own
(benchmarks/bot_thread.py), `TRIPS` commands after the one captured.

    python -m benchmarks.command_costs [--loads booster,collection,...] [--runs 3] [--commands 20]
        [--profile LOAD [--profile-out PREFIX]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import os
import pickle
import pstats
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

from benchmarks import cost_duels, cost_games, cost_loads
from benchmarks.bare_bots import Replay, check_pong, check_replayed
from benchmarks.bot_alone import BARE, Bot, Fleet, fleet_on
from benchmarks.bot_thread import ThreadedHarness
from benchmarks.command_latency import thaw
from benchmarks.cost_loads import WARM, Context, Load, Recorder, matched_act
from benchmarks.databases import load_average, target
from core.clock import ManualClock, SystemClock
from core.settings import Settings
from emulator import DiscordEmulator
from emulator.world import Channel, User
from services.infra.container import Services, build_services
from store import db as store_db
from store import sqlite_engine

T = TypeVar("T")

# the table's rows, in the order
ORDER = (
    "booster",
    "booster10",
    "collection",
    "sale",
    "fusion",
    "ranked_start",
    "battle_click",
    "pillz",
    "immortals",
    "dinocard_launch",
    "dinocard_next",
    "choco_play",
    "choco_hand",
    "trade_confirm",
    "daily",
    "card",
)
_ALL = {
    load.name: load
    for load in (*cost_loads.LOADS, *cost_duels.LOADS, *cost_games.LOADS, *cost_games.DINOCARD)
}
LOADS = {name: _ALL[name] for name in ORDER if name in _ALL}
TRIPS = 5  # commands whose database trips are counted (and profiled) in the capture
USERS = 4  # users in each bot's emulator; a load uses its first `Load.users`


@dataclass(frozen=True)
class Options:
    loads: list[str]
    runs: int = 3
    commands: int = 20
    profile: str | None = None
    profile_out: str | None = None  # a path prefix: the profiles are also saved, for pstats' callers/callees


@dataclass
class Row:
    """One load's figures: CPU per command of each bot's process (ms, one per run), the real bot's trips."""

    load: Load
    bare: list[float] = field(default_factory=list)
    matched: list[float] = field(default_factory=list)
    real: list[float] = field(default_factory=list)
    writes: float = 0.0
    reads: float = 0.0
    interactions: int = 1

    def ratio(self) -> float:
        """The median of the runs' own ratios: a run measures the real and the matched bots command by
        command in turn (`_alternated`), so each run's ratio is a pair measured under the same load."""
        return statistics.median(
            r / m if m else float("inf") for r, m in zip(self.real, self.matched, strict=True)
        )

    def line(self) -> str:
        real, matched = statistics.median(self.real), statistics.median(self.matched)
        bare = statistics.median(self.bare)
        ratio = self.ratio()
        flag = " **" if ratio > 2 else ""
        return (
            f"| {self.load.title} | {real:.2f} | {matched:.2f} | {ratio:.2f}×{flag} | {bare:.2f} "
            f"| {self.reads:.1f} | {self.writes:.1f} |"
        )


HEADER = (
    "| command | real bot, ms CPU/cmd | matched bare bot | real / matched | bare /ping bot | reads/cmd "
    "| writes/cmd |\n|---|---:|---:|---:|---:|---:|---:|"
)


@contextlib.asynccontextmanager
async def services_on(url: str) -> AsyncIterator[Services]:
    """This process's own services on the bot's database: the load's state written before the bot starts,
    and what the load reads during a measurement (whose turn it is), never through the bot."""
    settings = Settings(_env_file=None, database_url=url, shard_count=None, shard_ids=None)
    services = await build_services(settings, SystemClock())
    try:
        yield services
    finally:
        await services.close()


def _real_bot(load: Load, holder: Context) -> Bot:
    async def prepare(url: str, users: list[User]) -> None:
        async with services_on(url) as services:
            players = [u.id for u in users[: users_of(load, holder.count)]]
            holder.given = await load.grant(services, players, WARM + holder.count)

    return Bot("emulator.launch", "", f"bot.py {load.title}", "", lambda user, reply: None, prepare)


@dataclass
class Subject:
    """One bot process measured in turn with the two others (`_alternated`): its fleet, its command, what
    the command needs first (untimed), and the CPU nanoseconds each of its threads spent on the measured
    commands."""

    fleet: Fleet
    act: Callable[[int], Awaitable[None]]
    before: Callable[[int], Awaitable[None]] | None = None
    spent: dict[int, int] = field(default_factory=dict)

    async def step(self, index: int, *, measured: bool) -> None:
        """One command: `before` it (untimed), then the process's CPU read around it and its follow-ups (the
        emulator quiet)."""
        emu = self.fleet.emu
        if self.before is not None:
            await self.before(index)
            await emu.settle()
        pid = self.fleet.processes[0].pid
        start = thread_cpus(pid)
        await self.act(index)
        await emu.settle()
        if measured:
            for tid, ns in thread_cpus(pid).items():
                self.spent[tid] = self.spent.get(tid, 0) + ns - start.get(tid, 0)

    def per_command(self, commands: int) -> float:
        """The process's CPU (ms) per measured command."""
        return sum(self.spent.values()) / 1e6 / commands

    def threads(self, commands: int) -> dict[str, float]:
        return per_thread(self.fleet.processes[0].pid, self.spent, commands)


async def _alternated(subjects: Sequence[Subject], commands: int) -> None:
    """`WARM` then `commands` commands of each subject, taking turns command by command: a slower minute of
    this shared machine falls on the three bots alike, instead of on whichever ran then (a bot's own
    20 commands read 1.5 to 2.8 times the matched bot's in three runs back to back, each bot's block run
    after the other's)."""
    for index in range(WARM + commands):
        for subject in subjects:
            await subject.step(index, measured=index >= WARM)
    for subject in subjects:
        subject.fleet.emu.assert_no_errors()


def per_thread(pid: int, spent: dict[int, int], commands: int) -> dict[str, float]:
    """Each thread's ms per command, named `loop` (the main thread, the event loop's) or by its rank among
    the process's threads in creation order (`thread 1` is the first started: SQLite's writer in bot.py)."""
    others = sorted(tid for tid in spent if tid != pid)
    named = {tid: f"thread {rank}" for rank, tid in enumerate(others, 1)} | {pid: "loop"}
    return {named[tid]: ns / 1e6 / commands for tid, ns in sorted(spent.items())}


@contextlib.asynccontextmanager
async def real_subject(load: Load, commands: int, url: str) -> AsyncIterator[Subject]:
    """bot.py on `url`, the load's state made before it started, its users known."""
    context = Context(count=commands)
    count = users_of(load, commands)
    async with fleet_on(url, 1, max(USERS, count), _real_bot(load, context)) as (fleet, users, _):
        fleet.emu.bare_deferred_updates = False  # as the harness has it: a deferred click waits for its edit
        await _ready(fleet)
        for user in users[:count]:  # each player is known, as after a day of play
            await fleet.emu.run_command(user, "profile")
        async with services_on(url) as services:
            context.bind(fleet.emu, fleet.emu, users[:count], services)
            before = load.before

            async def prepare(index: int) -> None:
                if before is not None:
                    await before(context, index)

            yield Subject(fleet, lambda i: load.act(context, i), prepare)


@contextlib.asynccontextmanager
async def bare_subject(replay: Replay, *, matched: bool) -> AsyncIterator[Subject]:
    """The bare bot: the matched one on `replay`, or `/ping`'s, once per interaction. The public message
    the command starts from (a duel's) is put back as it was before each of the matched bot's commands,
    by the emulator (untimed), as the real bot's load does with a new duel."""
    folder = tempfile.TemporaryDirectory(prefix="bench-costs-")
    with folder as name:
        bot = BARE
        if matched:
            path = Path(name) / "replay.pickle"
            path.write_bytes(pickle.dumps(replay))
            bot = replace(BARE, name="matched", env=(("MATCHED_REPLAY", str(path)),))
        async with fleet_on(None, 1, USERS, bot) as (fleet, users, _):
            fleet.emu.bare_deferred_updates = False
            await _ready(fleet)
            user = users[0]
            emu = fleet.emu
            if not matched:
                times = len(replay.exchanges)

                async def ping(index: int) -> None:
                    for _ in range(times):
                        check_pong(user, await emu.run_command(user, "ping"))

                yield Subject(fleet, ping)
                return
            act = matched_act(emu, replay)
            shown = replay.shown
            # the matched bot's own copy, which its commands edit, posted once ready where the user acts
            channel = None if shown is None else await _posted(emu)

            async def show(index: int) -> None:
                if shown is not None and channel is not None:
                    emu.create_message(channel, emu.world.bot, dict(shown))

            await show(0)
            await check_replayed(FleetBench(fleet), lambda u: act(u, 0), user, replay)
            yield Subject(fleet, lambda i: act(user, i), show)


async def _posted(emu: DiscordEmulator) -> Channel:
    for _ in range(200):
        for message in emu.messages:
            if not message.ephemeral:
                return message.channel
        await asyncio.sleep(0.05)
    raise SystemExit("the matched bot did not post its copy of the public message")


READY = ("logged in as", "objects frozen")  # what bot.py and the bare bots log once ready


async def _ready(fleet: Fleet) -> None:
    """Wait for the bot's `on_ready`: it freezes what start-up built (a full collection), which must not
    fall in a measured command; and a bot stopped before it crashes in discord.py's `_delay_ready`."""
    for _ in range(400):
        if any(mark in fleet.log_text() for mark in READY):
            return
        await asyncio.sleep(0.05)
    raise SystemExit(f"the bot never said it was ready:\n{fleet.log_text()}")


class FleetBench:
    """A bare bot's fleet as `check_replayed` sees a bot: its emulator; its failures are in its log."""

    def __init__(self, fleet: Fleet) -> None:
        self.emu = fleet.emu
        self.unexpected_errors: list[BaseException] = []

    async def settle(self) -> None:
        await self.emu.settle()


def thread_cpus(pid: int) -> dict[int, int]:
    """CPU nanoseconds of each live thread of a process (/proc/<pid>/task/*/schedstat), by thread id: the
    clock ticks of /proc/<pid>/stat (10 ms) are coarser than one command."""
    cpus: dict[int, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):  # a thread may end while we look
            cpus[int(task.name)] = int((task / "schedstat").read_text().split()[0])
    return cpus


def users_of(load: Load, commands: int) -> int:
    """The load's users: its own number, or (0) one per command."""
    return load.users or WARM + commands + TRIPS + 1


async def capture(
    load: Load, url: str, profile: bool, out: Callable[[str], None], profile_out: str | None = None
) -> tuple[Replay, float, float]:
    """The real bot's requests for one command (after `WARM`), then its trips per command over `TRIPS`
    more, in this process, the bot on a thread of its own."""
    context = Context(count=1 + TRIPS)
    with tempfile.TemporaryDirectory(prefix="bench-costs-") as directory:
        harness = ThreadedHarness(
            Path(directory) / "unused.sqlite3",
            freeze_gc=True,
            database_url=url,
            # bot.py's clock: what it queues for later (a battle's rounds, shown 5 s apart) comes as there
            clock=cast(ManualClock, SystemClock()),
        )
        users = [harness.user(f"joueur{i:03d}") for i in range(users_of(load, 0))]
        async with services_on(url) as services:
            context.given = await load.grant(services, [u.id for u in users], WARM + context.count)
        await harness.start()
        try:
            for user in users:
                await harness.emu.run_command(user, "profile")
            async with services_on(url) as services:
                context.bind(harness.emu, harness.emu, users, services)
                for index in range(WARM):
                    await _untimed_act(harness, context, load, index)
                recorder = Recorder(harness.emu)
                context.ui = recorder
                if load.before is not None:
                    await load.before(context, WARM)
                await harness.settle()
                start = len(harness.emu.requests)
                await load.act(context, WARM)
                await harness.settle()
                replay = recorder.replay(harness.emu.requests[start:], harness.emu.messages)
                context.ui = harness.emu
                assert harness.bot is not None
                db = harness.bot.services.db
                profiler = cProfile.Profile(time.thread_time)  # CPU, not the loop's waits
                writer = _WriterProfile()
                writes = reads = 0
                for index in range(WARM + 1, WARM + 1 + TRIPS):
                    if load.before is not None:
                        await load.before(context, index)
                    await harness.settle()
                    batches, read = db.batches, db.reads
                    if profile:
                        await harness.on_bot(_enable(profiler))
                    with writer.on(profile):
                        await load.act(context, index)
                        await harness.settle(deliver=False)  # as the measured bot: its own deliverer's passes
                    if profile:
                        await harness.on_bot(_disable(profiler))
                    writes, reads = writes + db.batches - batches, reads + db.reads - read
        finally:
            await harness.stop()
            thaw()
    if profile:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(20)
        out(
            f"cProfile of the bot's event loop thread, {TRIPS} commands of {load.name}, its CPU time, "
            "top 20 by cumulative time:"
        )
        out(text.getvalue())
        out(f"cProfile of SQLite's writer thread (its batches only), the same {TRIPS} commands:")
        out(writer.report())
        if profile_out is not None:
            profiler.dump_stats(f"{profile_out}-loop.prof")
            writer.profiler.dump_stats(f"{profile_out}-writer.prof")
            out(f"saved: {profile_out}-loop.prof and {profile_out}-writer.prof")
    return replay, writes / TRIPS, reads / TRIPS


class _WriterProfile:
    """A cProfile of the writer thread's batches: store.db's `run_batch` wrapped while `on`, so the
    profiler is enabled in the thread that runs them (cProfile profiles the thread that enables it)."""

    def __init__(self) -> None:
        self.profiler = cProfile.Profile(time.thread_time)

    @contextlib.contextmanager
    def on(self, active: bool) -> Iterator[None]:
        if not active:
            yield
            return
        original = sqlite_engine.run_batch  # store.db's own name for it is the one replaced

        def profiled(conn: Any, units: Any) -> Any:
            self.profiler.enable()
            try:
                return original(conn, units)
            finally:
                self.profiler.disable()

        vars(store_db)["run_batch"] = profiled
        try:
            yield
        finally:
            vars(store_db)["run_batch"] = original

    def report(self) -> str:
        text = io.StringIO()
        stats = pstats.Stats(self.profiler, stream=text)
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(20)  # the unit's Python spread thin shows here
        return text.getvalue()


async def _enable(profiler: cProfile.Profile) -> None:
    profiler.enable()


async def _disable(profiler: cProfile.Profile) -> None:
    profiler.disable()


async def _untimed_act(harness: ThreadedHarness, context: Context, load: Load, index: int) -> None:
    if load.before is not None:
        await load.before(context, index)
    await load.act(context, index)
    await harness.settle()


async def main(options: Options, out: Callable[[str], None] = print) -> list[Row]:
    out(
        "each bot in its own process (bot.py, the matched bare bot, the bare /ping bot), taking turns command "
        "by command"
    )
    out(f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; load average at start: {load_average()}")
    loads = [LOADS[name] for name in options.loads]
    rows: dict[str, Row] = {}
    replays: dict[str, Replay] = {}
    with target("sqlite") as where:
        for load in loads:
            async with where.fresh() as url:
                replay, writes, reads = await capture(
                    load, url, options.profile == load.name, out, options.profile_out
                )
            replays[load.name] = replay
            rows[load.name] = Row(load, writes=writes, reads=reads, interactions=len(replay.exchanges))
        for run in range(1, options.runs + 1):
            for load in loads:
                row, replay = rows[load.name], replays[load.name]
                bare, matched, real, threads = await _once(
                    partial(_measured, load, replay, options.commands, where), out
                )
                row.bare.append(bare.per_command(options.commands))
                row.matched.append(matched.per_command(options.commands))
                row.real.append(real.per_command(options.commands))
                out(
                    f"run {run} {load.name}: bare {row.bare[-1]:.2f}, matched {row.matched[-1]:.2f}, "
                    f"real {row.real[-1]:.2f} ms CPU per command (per thread: real {_shares(threads)}; "
                    f"matched {_shares(matched.threads(options.commands))})"
                )
    out("")
    out(
        f"CPU per command of each bot's process, medians of {options.runs} run(s) of {options.commands} commands"
        " (real / matched: the median of the runs' own ratios):"
    )
    out(HEADER)
    for load in loads:
        out(rows[load.name].line())
    above = [rows[load.name].load.title for load in loads if rows[load.name].ratio() > 2]
    out(f"above 2× the matched bot: {', '.join(above) if above else 'none'}")
    out(f"load average at end: {load_average()}")
    out("verification: every reply was checked, the matched bot's first against the real one's; no error: OK")
    return [rows[load.name] for load in loads]


async def _measured(
    load: Load, replay: Replay, commands: int, where: Any
) -> tuple[Subject, Subject, Subject, dict[str, float]]:
    """The three bots of a load, each in its process, all started, then measured taking turns command by
    command (`_alternated`): bare, matched, real."""
    async with contextlib.AsyncExitStack() as stack:
        url = await stack.enter_async_context(where.fresh())
        real = await stack.enter_async_context(real_subject(load, commands, url))
        matched = await stack.enter_async_context(bare_subject(replay, matched=True))
        bare = await stack.enter_async_context(bare_subject(replay, matched=False))
        await _alternated((bare, matched, real), commands)
        return bare, matched, real, real.threads(commands)


async def _once(measure: Callable[[], Awaitable[T]], out: Callable[[str], None]) -> T:
    """A measurement, made again once if it failed: its error printed whole (a bot process stopped in the
    middle reports only its own log), so that a failure is seen, and one neighbour's burst on this shared
    machine does not end a quarter of an hour's run. A second failure ends it."""
    try:
        return await measure()
    except (Exception, SystemExit) as error:
        out(f"A MEASUREMENT FAILED, made again once: {''.join(traceback.format_exception(error))}")
        return await measure()


def _shares(threads: dict[str, float]) -> str:
    return ", ".join(f"{name} {ms:.2f}" for name, ms in threads.items() if ms >= 0.01)


def _parse() -> Options:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--loads", default=",".join(LOADS), help=f"comma-separated, among {', '.join(LOADS)}")
    parser.add_argument("--runs", type=int, default=3, choices=range(1, 100), metavar="N")
    parser.add_argument("--commands", type=int, default=20, help="measured commands per bot and run")
    parser.add_argument("--profile", choices=sorted(LOADS), help="print a cProfile top 20 of this load")
    parser.add_argument(
        "--profile-out",
        metavar="PREFIX",
        help="with --profile: also save PREFIX-loop.prof and PREFIX-writer.prof",
    )
    args = parser.parse_args()
    loads = [part for part in args.loads.split(",") if part]
    if not loads or any(load not in LOADS for load in loads):
        parser.error(f"--loads takes names among {', '.join(LOADS)}")
    if args.commands < 2:
        parser.error("--commands takes at least 2")
    if args.profile_out is not None and args.profile is None:
        parser.error("--profile-out goes with --profile")
    return Options(loads, args.runs, args.commands, args.profile, args.profile_out)


if __name__ == "__main__":
    asyncio.run(main(_parse()))
