"""The deck lab's cost: its batch against the engine's own loop, and other commands' latency while labs run.

1. Side by side, per game with a lab (HOSS, Dinocard, Pillz, Immortal's War), in one run: the engine's own
   loop playing `--battles` lab battles (`lab_battles`, the engine's battle and AI, nothing else), against
   the lab's batch of as many battles on its warm process pool (`LabPool.play`: the chunks, the pickling,
   the processes; then `report`: the statistics). The engine's loop runs twice: divided over the workers,
   as many bare processes as workers each playing its share at once (benchmarks/lab_bare.py: the engine's
   time with the battles divided over the workers, on the same cores at the same niceness), and in this
   process alone, its time divided by the workers (printed beside: two processes at once each run 4-6 %
   slower than one alone here, whatever they run). The lab must take at most 1.1 x the first. Also timed in
   the same run: a pure-Python loop (`python_loop`, this machine's speed of the day) and the HOSS reference
   battle of benchmarks/hoss_battles.py. The lab's time scaled by `REFERENCE_LOOP_MS` / today's loop (`at_reference`)
   says whether 1,000 battles fit in 1 s on 2 cores on the README's reference machine. Medians of `--runs`;
   within a run, the bare processes and the lab play the same seeds in turn `--batches` times (5), and the
   run's figure is the median of its batches: a Dinocard batch is about 115 ms a worker, and the bare
   processes alone timed once read 104 to 125 ms from one batch to the next on a quiet machine, so one
   batch per run could not tell 1.05 from 1.15 (docs/performance.md, "The lab's own workers").
   The CPU both take (this process's, and the workers' from /proc) is measured beside the wall clock: on
   a machine other processes load, the workers (at a lower priority) get less of the cores than the
   in-process loop, and only the CPU ratio says what the lab itself adds.
   The lab's CPU is split into the workers' (each worker's, whose difference is what one waited for the
   other at the end on a quiet machine) and this process's (the chunks, the pickling, the statistics).
2. The real bot on the emulator (benchmarks/command_latency.py's harness and paced users): `--labs`
   players each run `/hoss labo` at once (1,000 battles each, queued one after the other on the pool)
   while 50 users send /profile at `--rate` commands per second; the p99 of /profile must stay within
   25 ms. Each run starts a new bot (the pool starts with its first lab, as in production) and first
   measures the same load without any lab; `--runs` runs, the medians printed beside each other. Twice:
   the workers at their niceness alone (the default), then under SCHED_IDLE as well.

The reference machine is the one of the README's quiet HOSS reference battle, 0.72 ms, recorded with the
engine of commit fd923cb. Scaling by today's reference battle instead would cancel any gain of the HOSS
engine (the reference battle gets faster with it), so the scale is the pure-Python loop, whose figure on
that machine is calibrated: fd923cb's engine played the reference battle beside `python_loop`,
alternating, on this project's 2-core machine (5 December 2026, load average 0.8-1.5): loop 84.4 / 83.6 /
85.1 / 106.2 / 84.2 / 82.2 ms, reference battle 0.631 / 0.630 / 0.620 / 0.624 / 0.620 / 0.612 ms, that is
7.474 / 7.534 / 7.291 / 5.877 / 7.371 / 7.445 µs of battle per ms of loop, median 7.408: the machine
where the reference battle takes 0.72 ms runs the loop in 0.72 / 0.007408 = 97.2 ms. Run again the same
day at load average 6.3 (3 runs): ratios 7.186 / 6.937 / 7.450, median 7.186, 100.2 ms (3 % off). The
reference battle is still printed beside the loop.

    python -m benchmarks.lab [--battles 1000] [--runs 3] [--batches 5] [--labs 5] [--rate 100] [--seconds 5]
        [--games HOSS,Dinocard,Pillz,Immortals] [--part both|side|latency]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmarks import hoss_battles
from benchmarks.command_latency import TARGET_P99_MS, Figures, between_phases, profile_of, run_paced, thaw
from benchmarks.lab_bare import BareEngine, engine_loop
from emulator.world import User
from engine.dinocard import DinocardCatalog
from engine.hoss import CreatureCard, HossCatalog, ranked_opponent
from engine.immortals import TERRAINS, ImmortalsCatalog
from engine.pillz import PillzCatalog
from engine.protocol import PlayerSetup
from sandbox.harness import BotHarness
from services.community.lab.pool import NICENESS, LabPool, workers
from services.community.lab.service import fresh_seeds, report, split
from services.community.lab.spec import LabJob, Opponent
from services.dinocard import lab as dinocard_lab
from services.hoss import lab as hoss_lab
from services.immortals import lab as immortals_lab
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.messages import Text
from services.infra.players import ensure_player
from services.pillz import lab as pillz_lab
from store.connection import Connection

TARGET_RATIO = 1.1
REFERENCE_LOOP_MS = 97.2  # `python_loop` where the README's HOSS reference battle took 0.72 ms (docstring)
TARGET_SECONDS = 1.0  # 1,000 battles of every game on 2 cores, at the reference figures


def hoss_job() -> LabJob:
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    deck = replace(ranked_opponent(catalog, 4, 7), seat=0, player_id=1)
    ranks = tuple(Opponent(r, Text.raw(str(r)), Text.raw(str(r))) for r in range(1, 10))
    return LabJob(
        hoss_lab.play, catalog, deck, ranks, Text.raw("deck"), {}, "hoss.lab.rounds", "hoss.lab.presence"
    )


def dinocard_job() -> LabJob:
    catalog = load_catalog(DATA_DIR / "dinocard.json", DinocardCatalog)
    masters = catalog.masters
    pack = dinocard_lab.setup(0, 1, masters[2].pack, masters[2].skills)
    opponents = tuple(
        Opponent(dinocard_lab.setup(1, 0, m.pack, m.skills), Text.raw(m.id), Text.raw(m.id)) for m in masters
    )
    return LabJob(
        dinocard_lab.play,
        catalog,
        pack,
        opponents,
        Text.raw("pack"),
        {},
        "dinocard.lab.phases",
        "dinocard.lab.presence",
    )


def pillz_job() -> LabJob:
    catalog = load_catalog(DATA_DIR / "pillz.json", PillzCatalog)
    deck = tuple(sorted(c.id for c in catalog.cards if not c.leader)[:8])
    ai = (Opponent(pillz_lab.AI, Text.raw("ai"), Text.raw("ai")),)
    return LabJob(
        pillz_lab.play, catalog, deck, ai, Text.raw("deck"), {}, "pillz.lab.rounds", "pillz.lab.presence"
    )


def immortals_job() -> LabJob:
    catalog = load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog)
    units = tuple(c.id for c in catalog.cards[:8])
    spells = [s.id for s in catalog.spells if s.starter]
    deck = PlayerSetup(seat=0, player_id=1, deck=units, extra={"xp": [0] * len(units), "spells": spells})
    terrains = tuple(Opponent(t, Text.raw(t), Text.raw(t)) for t in TERRAINS)
    return LabJob(
        immortals_lab.play,
        catalog,
        deck,
        terrains,
        Text.raw("deck"),
        {},
        "immortals.lab.rounds",
        "immortals.lab.presence",
    )


def seeds_for(job: LabJob, battles: int) -> list[list[int]]:
    return [fresh_seeds(n) for n in split(battles, len(job.opponents))]


def workers_cpu(pool: LabPool) -> dict[int, float]:
    """CPU seconds each of the pool's worker processes has used, by pid (Linux's /proc; none elsewhere):
    the scheduler's nanoseconds (`schedstat`, a worker runs one thread), else the 10 ms ticks of `stat`."""
    used = {}
    for pid in pool.pids:
        with contextlib.suppress(OSError, ValueError):
            used[pid] = int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
            continue
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return used


@dataclass(frozen=True)
class Batch:
    wall: float
    workers: tuple[float, ...]  # each worker's CPU seconds in the batch, most first
    own: float  # this process's CPU seconds: the chunks, the pickling, the statistics

    @property
    def cpu(self) -> float:
        return sum(self.workers) + self.own


async def lab_batch(pool: LabPool, job: LabJob, seeds: Sequence[Sequence[int]]) -> Batch:
    """The lab's batch timed: the wall clock, the workers' CPU and this process's."""
    began, cpu, spent = time.perf_counter(), time.process_time(), workers_cpu(pool)
    played = await pool.play(job, seeds)
    report("bench", job, played, seeds)
    wall, own = time.perf_counter() - began, time.process_time() - cpu
    used = workers_cpu(pool)
    each = sorted((used[pid] - spent.get(pid, 0.0) for pid in used), reverse=True)
    return Batch(wall, tuple(each), own)


def python_loop() -> float:
    """CPU seconds of 2 million multiplications in a pure-Python loop: the speed of the day of this
    machine's core for interpreted code (CPU time, as the battles', so that waiting for a core counts in
    neither; on the quiet machine of the calibration, the same as the wall clock)."""
    began = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i * i
    return time.process_time() - began


def at_reference(value: float, loop_ms: float) -> float:
    """`value` (a time measured beside a `python_loop` of `loop_ms`) at the README's reference speed."""
    return value * REFERENCE_LOOP_MS / loop_ms


def reference_ms() -> float:
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    decks, cards = hoss_battles.reference(catalog)
    return hoss_battles.play(decks, cards, 300).median_ms


GAMES: dict[str, Callable[[], LabJob]] = {
    "HOSS": hoss_job,
    "Dinocard": dinocard_job,
    "Pillz": pillz_job,
    "Immortals": immortals_job,
}


def median_batch(batches: Sequence[Batch]) -> Batch:
    """A run's lab figures: the median of its batches, field by field."""
    count = max(len(b.workers) for b in batches)
    return Batch(
        statistics.median(b.wall for b in batches),
        tuple(
            statistics.median(b.workers[i] if i < len(b.workers) else 0.0 for b in batches)
            for i in range(count)
        ),
        statistics.median(b.own for b in batches),
    )


async def side_by_side(
    battles: int,
    runs: int,
    out: Callable[[str], None],
    games: Sequence[str] = tuple(GAMES),
    per_run: int = 5,
) -> None:
    size = workers()
    pool = LabPool(size)
    try:
        for name in games:
            job = GAMES[name]()
            bare = BareEngine(job, size)
            # warm: every worker spawned, imported, given a chunk
            await pool.play(job, seeds_for(job, battles // 10))
            bare.play(seeds_for(job, battles // 10))
            engine, engine_cpu, spread, spread_cpu, loop, ref = [], [], [], [], [], []
            batches: list[Batch] = []
            for _ in range(runs):
                seeds = seeds_for(job, battles)
                loop.append(python_loop())
                ref.append(reference_ms())
                wall, cpu = engine_loop(job, seeds)
                engine.append(wall / size)
                engine_cpu.append(cpu)
                walls, cpus, labs = [], [], []
                for _ in range(per_run):  # the bare processes and the lab in turn, on the same seeds
                    wall, cpu = bare.play(seeds)
                    walls.append(wall)
                    cpus.append(cpu)
                    labs.append(await lab_batch(pool, job, seeds))
                spread.append(statistics.median(walls))
                spread_cpu.append(statistics.median(cpus))
                batches.append(median_batch(labs))
            bare.close()
            e, la = statistics.median(engine), statistics.median(b.wall for b in batches)
            s, sc = statistics.median(spread), statistics.median(spread_cpu)
            ec, lc = statistics.median(engine_cpu), statistics.median(b.cpu for b in batches)
            own = statistics.median(b.own for b in batches)
            most = statistics.median(b.workers[0] for b in batches)
            least = statistics.median(b.workers[-1] for b in batches)
            loop_ms = statistics.median(loop) * 1000
            scaled = at_reference(la, loop_ms) * size / 2
            scaled_cpu = at_reference(lc, loop_ms) / 2  # the lab's CPU spread on 2 free cores
            out(
                f"{name:<9} {battles} battles, {size} workers, load average {os.getloadavg()[0]:.1f}: "
                f"engine {s * 1000:.0f} ms on {size} bare processes at once, lab {la * 1000:.0f} ms, "
                f"ratio {la / s:4.2f} (<= {TARGET_RATIO}: {'ok' if la / s <= TARGET_RATIO else 'ABOVE'}); "
                f"engine in one process {e * 1000:.0f} ms / worker, ratio {la / e:4.2f}; CPU: engine "
                f"{ec * 1000:.0f} ms in one process, {sc * 1000:.0f} ms on the bare processes, lab "
                f"{lc * 1000:.0f} ms, ratios {lc / sc:4.2f} and {lc / ec:4.2f}; the lab's fixed part "
                f"{(la - s) * 1000:.0f} ms by the wall clock, {(lc - sc) * 1000:.0f} ms of CPU (the busiest "
                f"worker {most * 1000:.0f} ms, the least busy {least * 1000:.0f} ms, this process "
                f"{own * 1000:.0f} ms); pure-Python loop {statistics.median(loop) * 1000:.0f} ms, reference "
                f"battle {statistics.median(ref):.2f} ms, lab battle {ec * 1000 / battles:.2f} ms of CPU "
                f"-> at the reference speed (loop {REFERENCE_LOOP_MS:g} ms) on 2 cores "
                f"(<= {TARGET_SECONDS:g} s): {scaled:.2f} s by "
                f"the wall clock ({'ok' if scaled <= TARGET_SECONDS else 'ABOVE'}), {scaled_cpu:.2f} s by "
                f"the CPU ({'ok' if scaled_cpu <= TARGET_SECONDS else 'ABOVE'})"
            )
    finally:
        await pool.aclose()


LINES = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
BUFFS = ["buff_soins", "buff_vitesse"]


async def deck_of(harness: BotHarness, user: User) -> None:
    """The Rang 1 of six lines and two buffs, minted through the ledger, saved as the active deck."""
    assert harness.bot is not None
    services = harness.bot.services
    decks = services.games["hoss"].decks
    now = services.clock.now()
    keys = [
        c.id for c in decks.catalog.cards if isinstance(c, CreatureCard) and c.line in LINES and c.rank == 1
    ]

    def unit(conn: Connection) -> None:
        ensure_player(conn, user.id, now, services.registry)
        attrs = {"rarity": "basique", "stars": 0, "holo": False}
        for card in [*keys, *BUFFS]:
            ledger.mint_card(conn, now, user.id, "hoss", card, ledger.Movement("bench.grant"), attrs)

    await services.db.write(unit)
    await decks.save(user.id, 1, "deck", LINES, BUFFS)
    await decks.set_active(user.id, 1)


@dataclass(frozen=True)
class UnderLabs:
    quiet: Figures  # the same load just before, without any lab
    busy: Figures  # while the labs run
    answered: int
    seconds: float  # from the labs' start to the last one's answer


async def latency_under_labs(
    labs: int, rate: float, seconds: float, out: Callable[[str], None], *, idle: bool
) -> UnderLabs:
    """One run on a new bot. `idle`: the workers under SCHED_IDLE as well as their niceness.

    The collector is bot.py's (`freeze_gc`: its thresholds), and what is alive before each phase is frozen
    (`between_phases`): otherwise a full collection walks the modules, the catalogs and the emulator's
    world (160,000 to 230,000 objects, 80 to 370 ms) and lands in about one 5-second phase in two."""
    with tempfile.TemporaryDirectory(prefix="bench-lab-") as folder:
        harness = BotHarness(Path(folder) / "bench.sqlite3", freeze_gc=True)
        await harness.start()
        try:
            assert harness.bot is not None
            lab = harness.bot.services.lab
            lab.pool = LabPool(idle=idle)
            users = [harness.user(f"joueur{i:03d}") for i in range(50)]
            for user in users:
                await harness.emu.run_command(user, "profile")
            testers = [harness.user(f"labo{i}") for i in range(labs)]
            for tester in testers:
                await deck_of(harness, tester)
            act = profile_of(harness)
            harness.emu.action_timeout = 300.0  # a lab waits its turn in the queue: seconds, not milliseconds
            await between_phases(harness)
            quiet = await run_paced(act, users, rate, seconds, random.Random(1), f"{rate:g}/s, no lab")
            out(quiet.line())
            await between_phases(harness)
            began = time.perf_counter()
            running = [asyncio.create_task(harness.emu.run_command(t, "hoss labo")) for t in testers]
            busy = await run_paced(act, users, rate, seconds, random.Random(2), f"{rate:g}/s, {labs} labs")
            await asyncio.gather(*running)
            took = time.perf_counter() - began
            await harness.settle()
            answered = sum(
                1 for t in testers for m in harness.emu.ephemeral_messages(t) if "Labo" in str(m.embeds)
            )
            out(busy.line())
            out(f"{answered} of {labs} labs answered, all done {took:.1f} s after the start")
            return UnderLabs(quiet.figures, busy.figures, answered, took)
        finally:
            await harness.stop()
            thaw()


def latency_medians(labs: int, rate: float, seconds: float, runs: int, out: Callable[[str], None]) -> None:
    """`runs` runs per kind of worker, each on a new bot; the medians of the no-lab and the labs' lines."""
    for idle in (False, True):
        kind = f"niceness {NICENESS}{' and SCHED_IDLE' if idle else ' alone'}"
        done = []
        for n in range(runs):
            out(f"workers at {kind}, run {n + 1} of {runs}")
            done.append(asyncio.run(latency_under_labs(labs, rate, seconds, out, idle=idle)))
            out(f"load average {os.getloadavg()[0]:.1f}")

        def med(figures: Sequence[Figures], field: str) -> float:
            return statistics.median(float(getattr(f, field)) for f in figures)

        quiet, busy = [d.quiet for d in done], [d.busy for d in done]
        p99 = med(busy, "p99_ms")
        out(
            f"workers at {kind}, medians of {runs}: no lab p50 {med(quiet, 'p50_ms'):.2f} / p99 "
            f"{med(quiet, 'p99_ms'):.2f} / max {med(quiet, 'max_ms'):.1f} ms; {labs} labs p50 "
            f"{med(busy, 'p50_ms'):.2f} / p99 {p99:.2f} / max {med(busy, 'max_ms'):.1f} ms "
            f"(p99 <= {TARGET_P99_MS:g}: {'ok' if p99 <= TARGET_P99_MS else 'ABOVE'}), "
            f"{med(busy, 'per_second'):.1f} commands/s achieved; p99 each run: no lab "
            f"{', '.join(f'{f.p99_ms:.1f}' for f in quiet)}, labs {', '.join(f'{f.p99_ms:.1f}' for f in busy)} ms; "
            f"labs answered {min(d.answered for d in done)}-{max(d.answered for d in done)} of {labs}, all done "
            f"{statistics.median(d.seconds for d in done):.1f} s after their start"
        )


def main(argv: Sequence[str] | None = None, out: Callable[[str], Any] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--batches",
        type=int,
        default=5,
        help="side by side: batches per run, bare and lab in turn (their median)",
    )
    parser.add_argument("--labs", type=int, default=5)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", default=",".join(GAMES), help="the side-by-side part's games")
    parser.add_argument("--part", choices=("both", "side", "latency"), default="both")
    options = parser.parse_args(argv)
    games = [g for g in options.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown games {unknown}: choose among {', '.join(GAMES)}")
    out(f"cores: {workers()}, load average {os.getloadavg()[0]:.1f}")
    if options.part in ("both", "side"):
        asyncio.run(side_by_side(options.battles, options.runs, out, games, max(1, options.batches)))
    if options.part in ("both", "latency"):
        latency_medians(options.labs, options.rate, options.seconds, options.runs, out)
        out(
            f"target: /profile p99 <= {TARGET_P99_MS:g} ms while the labs run; load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
