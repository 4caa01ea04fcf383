"""The bot's own capacity: the real `bot.py` alone in its process, the users and Discord's side in another.

benchmarks/command_latency.py runs the simulated users, the emulator and the bot in one event loop, so its
saturation figure is that loop's, not the bot's. Here `bot.py` runs as it runs in production, in a process
of its own (started through emulator/launch.py, which only points discord.py at the emulator), and this
process holds the emulator (REST + gateway) and the scripted users. The loads and the figures are
command_latency's (`/profile` from the interaction sent to the complete reply; 1 user sequential, 50 users
paced at each rate, the closed loop), plus each side's CPU: the bot process's from /proc/<pid>/stat (every
thread: the event loop, the database's threads), this process's from `time.process_time()`. A side whose
CPU is near one core (100 %) during a phase is that phase's bottleneck: the bot's event loop is one thread,
and so is this process's. Each phase also prints the share of the machine's CPU time the host took during
it (steal, benchmarks/host.py): when both processes' shares fall at once, that is where it went.

`--processes N` starts N bot processes on one database, each with `SHARD_COUNT=N` and `SHARD_IDS=i` (its
share of the guilds, `(guild_id >> 22) % N`), and the emulator holds one guild per shard with the users
spread over them, so each process answers its share. N > 1 needs PostgreSQL (SQLite is one process's
database) and a bot that knows the SHARD_COUNT/SHARD_IDS settings.

`--bare` starts, instead of `bot.py`, the bare discord.py bot of benchmarks/side_by_side.py (`BareBot`,
through benchmarks/bare_process.py: no database, no services, `gc.freeze()` once ready as bot.py) in its
own process, and the users send `/ping`, each reply checked to be an ephemeral "pong": the same phases and
figures then say what discord.py alone costs per command, and how many commands/s a bot that does nothing
reaches in a process of its own, beside the real bot's. It runs one process and no database.

`--load collection` has bot.py's users send `/hoss collection` instead of `/profile`: each owns the 24
copies of benchmarks/side_by_side.py's collection load, written to the database before the bot starts, and
each reply must be the user's own page of 24. `--compare` measures, in each run, the bare bot and then
bot.py (bare, real, bare, real...: a noisy neighbour weighs on both alike) and prints the ratios of their
medians: bot.py's CPU per command over the bare bot's in each phase, both p99, and the closed loop's
commands/s (the saturation ratio; when the users' side fills its core first, as the bare bot's closed loop
does on 2 cores, that ratio is an upper bound of the bots' own).

    python -m benchmarks.bot_alone [--database sqlite|postgresql|URL] [--processes 1] [--bare] [--users 50]
        [--rounds 20] [--runs 3] [--baseline 200] [--rates 100,200,300,400,500] [--seconds 5]
        [--load profile|collection] [--compare]
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import signal
import statistics
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bare_bots import check_pong
from benchmarks.command_latency import (
    ANSWERS_KEPT,
    COMMAND,
    TARGET_P99_MS,
    Figures,
    check_profile,
    load_arguments,
    run_closed_loop,
    run_paced,
    run_sequential,
    thaw,
)
from benchmarks.databases import Target, load_average, target
from benchmarks.host import CpuTimes, describe_steal, median_steal, steal_share
from benchmarks.side_by_side import COLLECTION_SIZE, check_collection, grant_unit
from core.clock import SystemClock
from core.settings import Settings
from emulator import DiscordEmulator, InteractionResult
from emulator.world import Channel, Guild, User
from services.infra.container import build_services

ROOT = Path(__file__).resolve().parents[1]
GUILD = "Club des cartes"
TICKS = os.sysconf("SC_CLK_TCK")
START_TIMEOUT_S = 120.0


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) a live process has used: fields 14 and 15 of its stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and its children (PostgreSQL: the postmaster and each connection's backend)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):  # a process may end while we look
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(entry.name) == root or int(fields[1]) == root:
                total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


async def grant_copies(url: str, players: list[User]) -> None:
    """Before the bot starts: the players and their 24 copies, written by this process (untimed), so that
    the bot's first look at a collection is a measured one's."""
    settings = Settings(_env_file=None, database_url=url, shard_count=None, shard_ids=None)
    services = await build_services(settings, SystemClock())
    try:
        await services.db.write(grant_unit(services, [user.id for user in players], "collection"))
    finally:
        await services.close()


@dataclass(frozen=True)
class Bot:
    """Which bot the processes run, the command the users send it and the check of each reply."""

    module: str  # run as `python -m module`
    command: str
    name: str  # in the report's header
    reply: str  # what every reply was, in the report's last line
    check: Callable[[User, InteractionResult], None]
    # what the database needs before the bot starts (its URL, the users), or nothing
    prepare: Callable[[str, list[User]], Awaitable[None]] | None = None
    env: tuple[tuple[str, str], ...] = ()  # more of the process's environment


REAL = Bot(
    "emulator.launch", COMMAND, f"bot.py /{COMMAND}", "the user's own ephemeral profile", check_profile
)
COLLECTION = Bot(
    "emulator.launch",
    "hoss collection",
    "bot.py /hoss collection",
    f"the user's own ephemeral page of {COLLECTION_SIZE} copies",
    check_collection,
    grant_copies,
)
BARE = Bot("benchmarks.bare_process", "ping", "bare discord.py /ping", 'an ephemeral "pong"', check_pong)
LOADS = {"profile": REAL, "collection": COLLECTION}


@dataclass(frozen=True)
class Phase:
    figures: Figures  # latencies; its cpu_seconds are this process's (users + emulator)
    bot_cpu_seconds: float  # every bot process together
    rate: float | None = None  # offered commands/s of a paced phase
    server_cpu_seconds: float | None = None  # PostgreSQL's processes, when the server is the benchmark's own
    steal: float | None = None  # the share of the machine's CPU time its host took during the phase

    @property
    def bot_cpu_ms(self) -> float:
        return self.bot_cpu_seconds * 1000 / self.figures.commands

    @property
    def bot_load(self) -> float:
        """The bot processes' CPU as a share of one core over the phase."""
        return self.bot_cpu_seconds / self.figures.seconds

    @property
    def users_load(self) -> float:
        return self.figures.cpu_seconds / self.figures.seconds

    def line(self) -> str:
        f = self.figures
        verdict = (
            ""
            if self.rate is None
            else f"  p99<={TARGET_P99_MS:.0f}: {'ok' if f.p99_ms <= TARGET_P99_MS else 'ABOVE'}"
        )
        server = ""
        if self.server_cpu_seconds is not None:
            server = f"  postgresql cpu {self.server_cpu_seconds * 1000 / f.commands:5.2f} ms/cmd"
            server += f" ({self.server_cpu_seconds / f.seconds:4.0%})"
        return (
            f"{f.label:<40} {f.commands:>5} cmds {f.per_second:7.1f} cmd/s  p50 {f.p50_ms:7.2f}  "
            f"p99 {f.p99_ms:7.2f} ms  bot cpu {self.bot_cpu_ms:5.2f} ms/cmd ({self.bot_load:4.0%} of a core)  "
            f"users+emulator cpu {f.cpu_ms:5.2f} ms/cmd ({self.users_load:4.0%}){server}  "
            f"{describe_steal(self.steal)}{verdict}"
        )


def shard_guilds(emu: DiscordEmulator, processes: int) -> list[Guild]:
    """One guild per shard: guilds are named until every shard `(id >> 22) % processes` has one."""
    found: dict[int, Guild] = {}
    for number in range(1, 1000):
        if len(found) == processes:
            return [found[shard] for shard in range(processes)]
        name = GUILD if processes == 1 else f"{GUILD} {number}"
        guild = emu.add_guild(name, locale="fr")
        found.setdefault((guild.id >> 22) % processes, guild)
    raise RuntimeError(f"no guild names found for {processes} shards")


class Fleet:
    """The bot processes on one emulator: started, watched, stopped with SIGTERM as a service manager does."""

    def __init__(
        self, emu: DiscordEmulator, url: str | None, guilds: list[Guild], folder: Path, bot: Bot = REAL
    ) -> None:
        self.emu, self.url, self.guilds, self.folder, self.bot = emu, url, guilds, folder, bot
        processes = self.count = len(guilds)
        self.processes: list[asyncio.subprocess.Process] = []
        self.logs = [folder / f"bot-{i}.log" for i in range(processes)]

    def _env(self, shard: int) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": self.emu.bot_token,
            # The bot syncs its commands to this guild at start-up (global sync is an owner's command).
            "DEV_GUILD_ID": str(self.guilds[shard].id),
            "EMULATOR_REST_BASE": self.emu.rest_base,
            "EMULATOR_GATEWAY": str(self.emu.gateway_url),
        }
        if self.url is not None:  # the bare bot has no database
            env["DATABASE_URL"] = self.url
        env |= dict(self.bot.env)
        if self.count > 1:
            env |= {"SHARD_COUNT": str(self.count), "SHARD_IDS": str(shard)}
        return env

    async def start(self) -> None:
        for shard, log in enumerate(self.logs):
            with log.open("wb") as output:  # the child keeps its own descriptor
                self.processes.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        self.bot.module,
                        cwd=self.folder,  # no .env there: only the settings above count
                        env=self._env(shard),
                        stdout=output,
                        stderr=output,
                    )
                )
        if self.count == 1:
            ready = self.emu.wait_ready(timeout=START_TIMEOUT_S)
        else:  # one gateway session per shard (the emulator's sharding)
            ready = self.emu.wait_ready(timeout=START_TIMEOUT_S, sessions=self.count)
        waiting = asyncio.ensure_future(ready)
        exits = [asyncio.ensure_future(p.wait()) for p in self.processes]
        done, _ = await asyncio.wait({waiting, *exits}, return_when=asyncio.FIRST_COMPLETED)
        for task in exits:
            task.cancel()
        if waiting not in done:
            waiting.cancel()
            raise SystemExit(f"a bot process stopped during start-up:\n{self.log_text()}")
        waiting.result()

    def cpu(self) -> float:
        return sum(self.cpu_each())

    def cpu_each(self) -> list[float]:
        return [process_cpu(p.pid) for p in self.processes]

    def log_text(self) -> str:
        return "\n".join(log.read_text(errors="replace") for log in self.logs if log.exists())

    async def stop(self) -> None:
        """SIGTERM, as `docker stop` sends; each must exit cleanly (code 0, no traceback in its log)."""
        for process in self.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        codes = []
        for process in self.processes:
            try:
                codes.append(await asyncio.wait_for(process.wait(), timeout=30))
            except TimeoutError:
                process.kill()
                codes.append(await process.wait())
        text = self.log_text()
        if any(codes) or "Traceback" in text or " ERROR " in text:
            raise SystemExit(f"A BOT PROCESS FAILED (exit codes {codes}):\n{text}")


@contextlib.asynccontextmanager
async def fleet_on(
    url: str | None, processes: int, users: int, bot: Bot = REAL
) -> AsyncIterator[tuple[Fleet, list[User], dict[int, Channel]]]:
    emu = DiscordEmulator(app_name="Cartes & Duels")
    guilds = shard_guilds(emu, processes)
    channels = [emu.add_channel(guild, "parties") for guild in guilds]
    players = [emu.add_user(f"joueur{i:03d}", locale="fr") for i in range(users)]
    channel_of = {user.id: channels[i % processes] for i, user in enumerate(players)}
    if bot.prepare is not None:
        assert url is not None
        await bot.prepare(url, players)
    await emu.start()
    with tempfile.TemporaryDirectory(prefix="bench-alone-") as folder:
        fleet = Fleet(emu, url, guilds, Path(folder), bot)
        try:
            await fleet.start()
            yield fleet, players, channel_of
        finally:
            try:
                await fleet.stop()
            finally:
                await emu.stop()


async def between_phases(emu: DiscordEmulator) -> None:
    """As command_latency's: wait for quiet, fail on an emulator error, drop the records, collect garbage,
    and freeze what is left (the emulator's world, the modules): a full collection of this process during
    a phase then walks only what the phase made. Unfrozen, one such collection stopped the users and the
    emulator for tens of milliseconds, a p99 of 48 to 182 ms at paced rates for the bare bot and bot.py
    alike, whatever their own work (`thaw` after the run)."""
    await emu.settle()
    emu.assert_no_errors()
    emu.clear_records()
    gc.collect()
    gc.freeze()


async def measured(
    fleet: Fleet, server: int | None, phase: Awaitable[Figures], rate: float | None = None
) -> Phase:
    def server_cpu() -> float | None:
        return None if server is None else tree_cpu(server)

    before, server_before, machine_before = fleet.cpu(), server_cpu(), CpuTimes.now()
    figures = await phase
    bot, server_after = fleet.cpu() - before, server_cpu()
    spent = None if server_before is None or server_after is None else server_after - server_before
    return Phase(figures, bot, rate, spent, steal_share(machine_before, CpuTimes.now()))


@dataclass(frozen=True)
class Options:
    database: str
    processes: int
    users: int
    rounds: int
    runs: int
    baseline: int
    rates: list[float]
    seconds: float
    seed: int
    bare: bool = False
    load: str = "profile"  # a key of LOADS: what bot.py's users send
    compare: bool = False  # each run measures the bare bot, then bot.py

    @property
    def bots(self) -> list[Bot]:
        """The bots each run measures, in turn."""
        if self.compare:
            return [BARE, LOADS[self.load]]
        return [BARE if self.bare else LOADS[self.load]]


async def run_once(
    run: int, options: Options, bot: Bot, where: Target, out: Callable[[str], None]
) -> list[Phase]:
    database = contextlib.nullcontext(None) if bot is BARE else where.fresh()
    async with (
        database as url,
        fleet_on(url, options.processes, options.users, bot) as (fleet, players, channel_of),
    ):
        emu = fleet.emu

        async def act(user: User) -> None:
            bot.check(user, await emu.run_command(user, bot.command, channel=channel_of[user.id]))

        for user in players:  # warm-up: a first command creates the player and its wallets
            await act(user)
        emu.keep_answers = ANSWERS_KEPT  # older answered commands leave nothing in the emulator
        await between_phases(emu)
        started = fleet.cpu_each()
        server = where.server_pid
        alone = run_sequential(act, players[0], options.baseline, f"1 user, sequential #{run}")
        phases = [await measured(fleet, server, alone)]
        out(phases[-1].line())
        await between_phases(emu)
        rng = random.Random(options.seed * 1000 + run)
        for rate in options.rates:
            label = f"{options.users} users paced {rate:g}/s #{run}"

            async def paced(rate: float = rate, label: str = label) -> Figures:
                return (await run_paced(act, players, rate, options.seconds, rng, label)).figures

            phases.append(await measured(fleet, server, paced(), rate))
            out(phases[-1].line())
            await between_phases(emu)
        label = f"{options.users} users x {options.rounds}, closed loop #{run}"
        phases.append(await measured(fleet, server, run_closed_loop(act, players, options.rounds, label)))
        out(phases[-1].line())
        await between_phases(emu)
        thaw()
        if fleet.count > 1:  # each process answered its own shard's users
            spent = [
                f"{after - before:.2f} s" for before, after in zip(started, fleet.cpu_each(), strict=True)
            ]
            out(f"CPU of each bot process over the measured phases: {', '.join(spent)}")
    return phases


def _median(runs: list[Phase]) -> Phase:
    def med(values: list[float]) -> float:
        return statistics.median(values)

    figures = [p.figures for p in runs]
    label = runs[0].figures.label.rsplit(" #", 1)[0] + " (median)"
    return Phase(
        Figures(
            label,
            round(med([f.commands for f in figures])),
            med([f.seconds for f in figures]),
            med([f.cpu_seconds for f in figures]),
            med([f.p50_ms for f in figures]),
            med([f.p90_ms for f in figures]),
            med([f.p99_ms for f in figures]),
            med([f.max_ms for f in figures]),
        ),
        med([p.bot_cpu_seconds for p in runs]),
        runs[0].rate,
        None if runs[0].server_cpu_seconds is None else med([p.server_cpu_seconds or 0.0 for p in runs]),
        median_steal([p.steal for p in runs]),
    )


# From this share of its core on, the users' side is what stops the closed loop, not the bot.
USERS_BOUND = 0.9


def capacity(closed: Phase, processes: int) -> str:
    """What the closed loop says of the bot's own ceiling. When the users' side held its core (the case on
    2 cores: it costs more per command than the bot), the commands/s measured are the users' ceiling, and
    the bot's is estimated from its CPU per command: one core per process over that CPU. An estimate, not
    a measurement: it assumes the CPU per command stays the same up to a full core."""
    line = (
        f"closed loop: {closed.figures.per_second:.0f} commands/s with the bot at {closed.bot_load:.0%} of a "
        f"core and the users' side at {closed.users_load:.0%}"
    )
    if closed.users_load < USERS_BOUND:
        return f"{line}: the bot's own ceiling"
    if closed.bot_cpu_seconds <= 0:  # a phase shorter than the clock ticks /proc counts in
        return f"{line}: the users' side's ceiling; the bot's CPU was too little to read"
    per_core = 1000 / closed.bot_cpu_ms * processes
    return (
        f"{line}: the users' side's ceiling; from its {closed.bot_cpu_ms:.2f} ms of CPU per command, the bot "
        f"would answer about {per_core:,.0f} commands/s with a core per process (an estimate, not measured)"
    )


def ratios(bare: list[Phase], real: list[Phase]) -> list[str]:
    """Per phase, bot.py over the bare bot: its CPU per command, p99, and commands/s (the closed loop's is
    the saturation ratio)."""
    lines = []
    for b, r in zip(bare, real, strict=True):
        label = r.figures.label.rsplit(" (median)", 1)[0]
        lines.append(
            f"{label:<40} bot cpu/cmd {r.bot_cpu_ms / b.bot_cpu_ms:5.2f}x  p99 {b.figures.p99_ms:6.2f} -> "
            f"{r.figures.p99_ms:6.2f} ms  cmd/s {r.figures.per_second / b.figures.per_second:5.2f}x"
        )
    return lines


async def main(options: Options, out: Callable[[str], None] = print) -> list[Phase]:
    """Prints the runs' figures and their medians; returns the medians (with `compare`, bot.py's)."""
    if options.bare and (options.processes > 1 or options.database != "sqlite"):
        raise SystemExit("--bare runs one process and no database: leave out --processes and --database")
    if options.compare and options.processes > 1:
        raise SystemExit("--compare also runs the bare bot, which is one process: leave out --processes")
    bots = options.bots
    with target(options.database) as where:
        if options.processes > 1 and where.engine == "sqlite":
            raise SystemExit("--processes above 1 needs PostgreSQL: a SQLite file belongs to one process")
        names = " then ".join(bot.name for bot in bots)
        out(f"{names} end to end; the bot alone in {options.processes} process(es), users + emulator here")
        database = "no database" if bots == [BARE] else where.description
        out(f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; {database}")
        out(f"load average at start: {load_average()}")
        runs: dict[Bot, list[list[Phase]]] = {bot: [] for bot in bots}
        for run in range(1, options.runs + 1):
            for bot in bots:  # taking turns: a noisy neighbour weighs on each alike
                if len(bots) > 1:
                    out(f"{bot.name}:")
                runs[bot].append(await run_once(run, options, bot, where, out))
            out("")
    medians = {}
    for bot in bots:
        out(f"{bot.name}, medians of {options.runs} run(s):")
        medians[bot] = [_median([r[i] for r in runs[bot]]) for i in range(len(runs[bot][0]))]
        for phase in medians[bot]:
            out(phase.line())
        best = None
        for phase in medians[bot]:
            if phase.rate is not None:
                if phase.figures.p99_ms > TARGET_P99_MS:
                    break
                best = phase.rate
        answer = f"{best:g} commands/s" if best is not None else "none of the rates tried"
        out(f"highest offered rate with p99 <= {TARGET_P99_MS:.0f} ms: {answer}")
        out(capacity(medians[bot][-1], options.processes))
    if options.compare:
        out(f"{bots[1].name} / {bots[0].name}, from the medians:")
        for line in ratios(medians[bots[0]], medians[bots[1]]):
            out(line)
    out(f"load average at end: {load_average()}")
    replies = " and ".join(bot.reply for bot in bots)
    out(f"verification: every reply was {replies}; no emulator error; bots exited cleanly: OK")
    return medians[bots[-1]]


def _parse() -> Options:
    parser = load_arguments(__doc__)
    parser.add_argument("--processes", type=int, default=1, help="bot processes, one shard each (default 1)")
    parser.add_argument(
        "--bare",
        action="store_true",
        help="run the bare discord.py /ping bot instead of bot.py (no database)",
    )
    parser.add_argument(
        "--load",
        choices=sorted(LOADS),
        default="profile",
        help=f"what bot.py's users send: /profile, or /hoss collection of {COLLECTION_SIZE} copies",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="each run measures the bare bot, then bot.py, and the ratios are printed",
    )
    parser.add_argument("--baseline", type=int, default=200, help="commands of the single user in sequence")
    parser.add_argument(
        "--rates",
        default="100,200,300,400,500",
        help="paced: offered commands/s across all users, comma-separated (default 100,200,300,400,500)",
    )
    args = parser.parse_args()
    try:
        rates = sorted({float(part) for part in args.rates.split(",") if part.strip()})
    except ValueError:
        parser.error(f"--rates is not a comma-separated list of numbers: {args.rates!r}")
    if args.processes < 1 or args.users < args.processes or args.baseline < 2 or args.users * args.rounds < 2:
        parser.error("need a process, a user per process, two commands per measurement")
    if rates and (rates[0] <= 0 or rates[0] * args.seconds < 2):
        parser.error("each paced rate must be positive and give at least two commands in --seconds")
    if args.processes > 1 and not {"shard_count", "shard_ids"} <= Settings.model_fields.keys():
        parser.error("--processes above 1 needs the SHARD_COUNT and SHARD_IDS settings, which this bot lacks")
    return Options(
        args.database,
        args.processes,
        args.users,
        args.rounds,
        args.runs,
        args.baseline,
        rates,
        args.seconds,
        args.seed,
        args.bare,
        args.load,
        args.compare,
    )


if __name__ == "__main__":
    asyncio.run(main(_parse()))
