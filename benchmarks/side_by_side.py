"""The bot's own cost per command, side by side with two bare discord.py bots, in one run (issue 19).

The bare bot answers `/ping` with an ephemeral "pong": no database, no translation, no service; the
goal compares the real bot with it. The matched bot (benchmarks/bare_bots.py) has none of these either,
but answers each load with the real bot's very requests (the same content, embeds, views, files, through
the same discord.py calls), captured once per load from a real bot before the runs and checked request
for request at the start of each of its measurements: "real / matched" is the bot's own work (database,
services, rendering, checks), "matched / bare" what discord.py costs to send that payload. The three and
the real bot (`CardBot`, `freeze_gc` on as `bot.py` runs it) take turns on the same machine, through the
same emulator and the same loads (benchmarks/command_latency.py's phases): bare, matched, real, bare...
for each load, so that a noisy neighbour weighs on all alike. A fresh emulator, bot and database file
per measurement.

Loads (the real bot's side; the bare bot's side sends `/ping` the same number of times, the matched
bot's the same commands and clicks):
- `profile`: `/profile` of a player who already exists;
- `collection`: `/hoss collection` of a player owning 24 copies (one page of 24, sorted by rarity);
- `booster`: `/hoss booster` (one booster bought, its first card face down, paid from a large balance);
- `pillz`: a Pillz move, as a player makes it: "Jouer" on the duel's public message, 0 pillz chosen in the
  character's select, then "Jouer (0 pillz)"; three interactions, so the bare side sends three
  `/ping` per move. Two users per duel (50 users = 25 duels at once); the duels are made before each
  phase (untimed), and whose turn it is is read from the service (left out of the latency, its CPU in).

Each bot runs on an event loop and thread of its own (benchmarks/bot_thread.py), the scripted users and
the emulator on the main one: "cpu" is the whole process's CPU per command, "bot_cpu" that of every thread
but the main one (the bot's loop and its SQLite threads), the bot's own share, which the goal compares.
`--one-loop` runs each bot on the main loop as before (one thread: `bot_cpu` is then only SQLite's).

Phases per measurement: 1 user sequential (`--baseline` commands), 50 users paced at each rate of
`--rates` for `--seconds` each, then the closed loop (each user sends its next command as soon as the
last returns, `--rounds` each: saturation). Printed: p50, p99, CPU per command, commands/s at saturation,
the real bot's database trips per command (write transactions, reads) in the sequential phase, and the
ratios real/bare, real/matched and matched/bare. Medians of `--runs` runs.

    python -m benchmarks.side_by_side [--loads profile,collection,booster,pillz] [--runs 3]
        [--users 50] [--rounds 20] [--baseline 200] [--rates 100,200,300] [--seconds 5] [--one-loop]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.bare_bots import (
    BareHarness,
    Replay,
    check_replayed,
    expect,
    matched_of,
    ping_of,
    post_publics,
)
from benchmarks.bot_thread import ThreadedHarness
from benchmarks.command_latency import (
    ANSWERS_KEPT,
    TARGET_P99_MS,
    Act,
    Bench,
    Figures,
    between_phases,
    collector_as_bot_py,
    profile_of,
    run_closed_loop,
    run_paced,
    run_sequential,
    thaw,
)
from emulator import InteractionResult
from emulator.records import RecordedMessage, walk_components
from emulator.world import User
from sandbox.harness import BotHarness
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.container import Services
from services.infra.players import ensure_player
from store.connection import Connection

LOADS = ("profile", "collection", "booster", "pillz")
COMMANDS = {"profile": "profile", "collection": "hoss collection", "booster": "hoss booster"}
COLLECTION_SIZE = 24
BOOSTER_GOLD = 100_000_000
PILLZ_MOVES_PER_DUEL = 8  # at most: 4 rounds, a lead and an answer each
GRANT = ledger.Movement("benchmark.grant")


# --- the real bot's loads --------------------------------------------------------------------------------


def grant_unit(services: Services, players: list[int], load: str) -> Callable[[Connection], None]:
    """The write unit of what a load needs before it starts: the players, their 24 copies or their gold."""
    now = services.clock.now()
    cards = sorted(services.games["hoss"].collection.cards)[:COLLECTION_SIZE]

    def unit(conn: Connection) -> None:
        for player in players:
            ensure_player(conn, player, now, services.registry)
            if load == "collection":
                for card in cards:
                    attrs = {"rarity": "basique", "stars": 0, "holo": False}
                    ledger.mint_card(conn, now, player, "hoss", card, GRANT, attrs)
            elif load == "booster":
                ledger.credit(conn, now, player, GOLD, BOOSTER_GOLD, GRANT)

    return unit


async def _grant(harness: ThreadedHarness, users: list[User], load: str) -> None:
    """`grant_unit` on the bot's own database (untimed)."""
    assert harness.bot is not None
    services = harness.bot.services
    await harness.on_bot(services.db.write(grant_unit(services, [user.id for user in users], load)))


def bet_of(controls: RecordedMessage, place: int) -> str:
    """The custom_id of the select of the character at `place` in a Pillz duel's private controls."""
    ids = [str(c.get("custom_id")) for c in walk_components(controls.components)]
    return next(i for i in ids if i.startswith("pillz:bet:") and i.endswith(f":{place}"))


def check_collection(user: User, reply: InteractionResult) -> None:
    """The user's own page: ephemeral, its title counting the 24 copies granted."""
    title = str(reply.embeds[0].get("title") or "") if reply.embeds else ""
    expect(reply.ephemeral and f"({COLLECTION_SIZE} " in title, f"{user.name}'s /hoss collection", reply)


def collection_of(harness: BotHarness) -> Act:
    async def act(user: User) -> None:
        check_collection(user, await harness.emu.run_command(user, "hoss collection"))
        return None

    return act


def booster_of(harness: BotHarness) -> Act:
    async def act(user: User) -> None:
        reply = await harness.emu.run_command(user, "hoss booster")
        message = reply.message
        expect(reply.ephemeral and message is not None and bool(message.components), "/hoss booster", reply)
        return None

    return act


@dataclass
class Duels:
    """The duels each pair will play, made before a phase; the first live one is played."""

    harness: ThreadedHarness
    partner: dict[int, User] = field(default_factory=dict)
    queue: dict[int, list[tuple[int, RecordedMessage]]] = field(default_factory=dict)

    async def make(self, users: list[User], moves_per_pair: int) -> None:
        """Pair the users (the first of each pair drives it), and make enough duels for the moves."""
        emu = self.harness.emu
        for first, second in zip(users[::2], users[1::2], strict=False):
            self.partner[first.id], self.partner[second.id] = second, first
            self.queue[first.id] = []
            for _ in range(math.ceil(moves_per_pair / 4) + 1):  # a duel lasts 4 to 8 moves
                made = await emu.run_command(first, "pillz défi", {"joueur": second})
                # a player's first Pillz command answers with the game's welcome, privately, first: the
                # challenge follows it
                await self.harness.settle()
                challenge = next((m for m in made.messages if not m.ephemeral), None)
                expect(challenge is not None, "/pillz défi", made)
                assert challenge is not None
                await emu.click(second, "Accepter", message=challenge)
        await self.harness.settle()
        services = self.harness.bot.services.games["pillz"] if self.harness.bot else None
        assert services is not None
        for first_id in self.queue:
            for duel in sorted(await self.harness.on_bot(services.duels.live(first_id)), key=lambda d: d.id):
                custom_id = f"pillz:open:{duel.id}"
                found = [
                    m
                    for m in emu.messages
                    if not m.ephemeral and any(c.get("custom_id") == custom_id for c in m.all_components())
                ]
                self.queue[first_id].append((duel.id, found[-1]))

    def act(self) -> Act:
        async def move(driver: User) -> float:
            """One move of the pair `driver` leads: whoever's turn it is in their current duel."""
            began = time.perf_counter()
            assert self.harness.bot is not None
            duels = self.harness.bot.services.games["pillz"].duels
            while True:
                if not self.queue[driver.id]:
                    raise SystemExit("the pair ran out of duels: make more before the phase")
                duel_id, public = self.queue[driver.id][0]
                duel = await self.harness.on_bot(duels.get(duel_id))
                if duel.status == "live":
                    break
                self.queue[driver.id].pop(0)
            seat = duel.to_act()[0]
            player = duel.seats[seat]
            user = driver if player == driver.id else self.partner[driver.id]
            assert duel.state is not None
            place = next(i for i, f in enumerate(duel.state.hands[seat]) if not f.used)
            untimed = time.perf_counter() - began
            emu = self.harness.emu
            controls = await emu.click(user, custom_id=f"pillz:open:{duel_id}", message=public)
            expect(controls.message is not None and controls.ephemeral, "Jouer", controls)
            assert controls.message is not None
            # the select of the character at `place` (the first unused: the first select), 0 pillz
            picked = await emu.select(
                user, values=["0"], custom_id=bet_of(controls.message, place), message=controls.message
            )
            expect(picked.message is not None, "the character's select", picked)
            assert picked.message is not None
            played = await emu.click(user, "Jouer (0 pillz)", message=picked.message)
            expect(played.message is not None and "0 pillz" in played.content, "Jouer (0 pillz)", played)
            return untimed

        return move


# --- one measurement -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    loads: list[str]
    runs: int
    users: int
    rounds: int
    baseline: int
    rates: list[float]
    seconds: float
    seed: int
    one_loop: bool = False  # each bot on the users' and emulator's loop, as before (no `bot_cpu`)


@dataclass(frozen=True)
class Measure:
    alone: Figures
    paced: list[Figures]
    closed: Figures
    writes_per_cmd: float | None = None  # the real bot's trips to SQLite in the sequential phase
    reads_per_cmd: float | None = None


Prepare = Callable[[list[User], int], Awaitable[Act]]


async def _phases(
    bench: Bench, users: list[User], prepare: Prepare, options: Options, label: str, run: int, *, pairs: bool
) -> tuple[list[Figures], tuple[float, float] | None]:
    """Sequential, paced at each rate, closed loop; `prepare(users, commands per driver)` sets each up.
    With `pairs` (Pillz), the first user of each pair drives it, and the duels' public messages are
    kept across phases (they are clicked)."""
    keep = pairs
    drivers = users[::2] if keep else users
    rng = random.Random(options.seed * 1000 + run)
    figures: list[Figures] = []
    trips = None

    act = await prepare(users[:2] if keep else users[:1], options.baseline)
    # a command answered once and never clicked leaves nothing in the emulator (its `forget`): 1,200
    # pages a phase kept there made one collection pause of 55 to 65 ms in the process shared with the bot
    bench.emu.keep_answers = None if keep else ANSWERS_KEPT
    await between_phases(bench, keep_records=keep)
    db = bench.bot.services.db if isinstance(bench, BotHarness) and bench.bot is not None else None
    batches, reads = (db.batches, db.reads) if db is not None else (0, 0)
    figures.append(await run_sequential(act, users[0], options.baseline, f"{label}: 1 user, sequential"))
    if db is not None:
        trips = ((db.batches - batches) / options.baseline, (db.reads - reads) / options.baseline)
    await between_phases(bench, keep_records=keep)
    for rate in options.rates:
        per_driver = math.ceil(rate * options.seconds * 1.6 / len(drivers)) + 2
        act = await prepare(users, per_driver)
        await between_phases(bench, keep_records=keep)
        paced = await run_paced(act, drivers, rate, options.seconds, rng, f"{label}: paced {rate:g}/s")
        figures.append(paced.figures)
        await between_phases(bench, keep_records=keep)
    act = await prepare(users, options.rounds)
    await between_phases(bench, keep_records=keep)
    closed = f"{label}: {len(drivers)} at once, closed loop"
    figures.append(await run_closed_loop(act, drivers, options.rounds, closed))
    await between_phases(bench, keep_records=keep)
    bench.emu.keep_answers = None
    return figures, trips


async def measure_bare(load: str, options: Options, run: int) -> Measure:
    bare = BareHarness(own_thread=not options.one_loop)
    await bare.start()
    try:
        users = [bare.user(f"joueur{i:03d}") for i in range(options.users)]
        times = 3 if load == "pillz" else 1

        async def prepare(chosen: list[User], per_user: int) -> Act:
            return ping_of(bare, times)

        label = f"bare /ping x{times} ({load})"
        with collector_as_bot_py():
            figures, _ = await _phases(bare, users, prepare, options, label, run, pairs=load == "pillz")
    finally:
        await bare.stop()
        thaw()
    return Measure(figures[0], figures[1:-1], figures[-1])


async def measure_matched(load: str, replay: Replay, options: Options, run: int) -> Measure:
    matched = BareHarness(own_thread=not options.one_loop, replay=replay)
    await matched.start()
    try:
        users = [matched.user(f"joueur{i:03d}") for i in range(options.users)]
        publics = await post_publics(matched, users[::2]) if load == "pillz" else {}
        act = matched_of(matched, load, publics)
        await check_replayed(matched, act, users[0], replay)

        async def prepare(chosen: list[User], per_user: int) -> Act:
            return act

        label = f"matched {load}"
        with collector_as_bot_py():
            figures, _ = await _phases(matched, users, prepare, options, label, run, pairs=load == "pillz")
    finally:
        await matched.stop()
        thaw()
    return Measure(figures[0], figures[1:-1], figures[-1])


async def capture(load: str, options: Options) -> Replay:
    """The real bot's requests for its second command of the load (the first may carry a game's welcome),
    from a real bot set up as `measure_real` sets it up, untimed."""
    with tempfile.TemporaryDirectory(prefix="bench-side-") as directory:
        harness = ThreadedHarness(Path(directory) / "bot.sqlite3", freeze_gc=True)
        harness.own_thread = not options.one_loop
        await harness.start()
        try:
            users = [harness.user(f"joueur{i:03d}") for i in range(2)]
            await _grant(harness, users, load)
            for user in users:
                await harness.emu.run_command(user, "profile")
            if load == "pillz":
                duels = Duels(harness)
                await duels.make(users, 4)
                act = duels.act()
            else:
                act = {"profile": profile_of, "collection": collection_of, "booster": booster_of}[load](
                    harness
                )
            await act(users[0])
            await harness.settle()
            start = len(harness.emu.requests)
            await act(users[0])
            await harness.settle()
            replay = Replay.of(harness.emu.requests[start:], harness.emu.messages)
        finally:
            await harness.stop()
            thaw()
    if load != "pillz":
        return replay.command(COMMANDS[load])
    assert replay.public is not None
    opener = next(c for c in walk_components(replay.public["components"]) if c["type"] == 2)
    return replay.chain(str(opener["custom_id"]))


async def measure_real(load: str, options: Options, run: int) -> Measure:
    with tempfile.TemporaryDirectory(prefix="bench-side-") as directory:
        harness = ThreadedHarness(Path(directory) / "bot.sqlite3", freeze_gc=True)
        harness.own_thread = not options.one_loop
        await harness.start()
        try:
            users = [harness.user(f"joueur{i:03d}") for i in range(options.users)]
            await _grant(harness, users, load)
            for user in users:  # the first command of each: the player is known, as after a day of play
                await harness.emu.run_command(user, "profile")
            duels = Duels(harness)

            async def prepare(chosen: list[User], per_user: int) -> Act:
                if load == "pillz":
                    await duels.make(chosen, per_user)
                    return duels.act()
                makers = {"profile": profile_of, "collection": collection_of, "booster": booster_of}
                return makers[load](harness)

            label = f"real {load}"
            figures, trips = await _phases(
                harness, users, prepare, options, label, run, pairs=load == "pillz"
            )
        finally:
            await harness.stop()
            thaw()
    writes, reads = trips if trips is not None else (None, None)
    return Measure(figures[0], figures[1:-1], figures[-1], writes, reads)


# --- report ----------------------------------------------------------------------------------------------


def _med(values: list[float]) -> float:
    return statistics.median(values)


def _summary(label: str, measures: list[Measure], options: Options) -> dict[str, float]:
    """The medians one line of the table shows."""
    row: dict[str, float] = {
        "alone_p50": _med([m.alone.p50_ms for m in measures]),
        "alone_p99": _med([m.alone.p99_ms for m in measures]),
        "alone_cpu": _med([m.alone.cpu_ms for m in measures]),
        "alone_bot_cpu": _med([m.alone.others_cpu_ms for m in measures]),
        "closed_rate": _med([m.closed.per_second for m in measures]),
        "closed_p99": _med([m.closed.p99_ms for m in measures]),
        "closed_cpu": _med([m.closed.cpu_ms for m in measures]),
        "closed_bot_cpu": _med([m.closed.others_cpu_ms for m in measures]),
    }
    for index, rate in enumerate(options.rates):
        row[f"p50@{rate:g}"] = _med([m.paced[index].p50_ms for m in measures])
        row[f"p99@{rate:g}"] = _med([m.paced[index].p99_ms for m in measures])
        row[f"cpu@{rate:g}"] = _med([m.paced[index].cpu_ms for m in measures])
        row[f"bot_cpu@{rate:g}"] = _med([m.paced[index].others_cpu_ms for m in measures])
    return row


def report(
    load: str,
    bare: list[Measure],
    matched: list[Measure],
    real: list[Measure],
    options: Options,
    out: Callable[[str], None],
) -> None:
    b, m, r = (
        _summary("bare", bare, options),
        _summary("matched", matched, options),
        _summary("real", real, options),
    )
    out(
        f"== {load} (medians of {len(real)} run(s); bare = /ping x{3 if load == 'pillz' else 1}; "
        "matched = the real bot's replies, sent by a bot without database or services)"
    )
    out(
        f"{'measure':<20} {'bare':>9} {'matched':>9} {'real':>9} {'real/bare':>9} {'real/match':>10} {'match/bare':>10}"
    )

    def ratio(x: float, y: float) -> float:
        return x / y if y else float("nan")

    for key in r:
        out(
            f"{key:<20} {b[key]:9.2f} {m[key]:9.2f} {r[key]:9.2f} {ratio(r[key], b[key]):9.2f} "
            f"{ratio(r[key], m[key]):10.2f} {ratio(m[key], b[key]):10.2f}"
        )
    writes = [x.writes_per_cmd for x in real if x.writes_per_cmd is not None]
    reads = [x.reads_per_cmd for x in real if x.reads_per_cmd is not None]
    if writes and reads:
        out(
            f"real bot's SQLite trips per command (sequential): {_med(writes):.2f} writes, {_med(reads):.2f} reads"
        )
    worst = max(options.rates)
    out(
        f"goal: the bot's cpu <= 1.5x bare: {r['alone_bot_cpu'] / b['alone_bot_cpu']:.2f}x alone, "
        f"{r[f'bot_cpu@{worst:g}'] / b[f'bot_cpu@{worst:g}']:.2f}x at {worst:g}/s "
        f"(the whole process's: {r['alone_cpu'] / b['alone_cpu']:.2f}x, "
        f"{r[f'cpu@{worst:g}'] / b[f'cpu@{worst:g}']:.2f}x); "
        f"p99 <= {TARGET_P99_MS:.0f} ms at {worst:g}/s: {r[f'p99@{worst:g}']:.2f} ms; "
        f"saturation >= 0.8x bare: {r['closed_rate'] / b['closed_rate']:.2f}x"
    )
    out(
        f"against the matched bot (not the goal; the bot's own logic): bot cpu "
        f"{ratio(r['alone_bot_cpu'], m['alone_bot_cpu']):.2f}x alone, "
        f"{ratio(r[f'bot_cpu@{worst:g}'], m[f'bot_cpu@{worst:g}']):.2f}x at {worst:g}/s; "
        f"saturation {ratio(r['closed_rate'], m['closed_rate']):.2f}x"
    )
    out("")


async def main(options: Options, out: Callable[[str], None] = print) -> None:
    out(
        "bare discord.py bot, matched bare bot and the real bot, interleaved, through the Discord emulator "
        "(one process each time)"
    )
    out(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f} at start"
    )
    replays = {load: await capture(load, options) for load in options.loads}
    results: dict[str, tuple[list[Measure], list[Measure], list[Measure]]] = {
        load: ([], [], []) for load in options.loads
    }
    for run in range(1, options.runs + 1):
        for load in options.loads:
            bare, matched, real = results[load]
            bare.append(await measure_bare(load, options, run))
            matched.append(await measure_matched(load, replays[load], options, run))
            real.append(await measure_real(load, options, run))
            for name, m in (("bare", bare[-1]), ("matched", matched[-1]), ("real", real[-1])):
                for figures in (m.alone, *m.paced, m.closed):
                    bot = f"  bot {figures.others_cpu_ms:5.2f} ms/cmd"
                    out(f"run {run} {load} {name}: {figures.line()}{bot}")
    out(f"load average {os.getloadavg()[0]:.1f} at the end")
    out("")
    for load in options.loads:
        report(load, *results[load], options, out)
    out(
        "verification: every reply was checked (the matched bot's first against the real one's); no error: OK"
    )


def _parse() -> Options:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--loads", default=",".join(LOADS), help=f"comma-separated, among {', '.join(LOADS)}")
    parser.add_argument("--runs", type=int, default=3, choices=range(1, 100), metavar="N")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20, help="closed loop: commands per user")
    parser.add_argument("--baseline", type=int, default=200, help="sequential: commands of the one user")
    parser.add_argument("--rates", default="100,200,300", help="paced: offered commands/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=5.0, help="paced: duration of each rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--one-loop", action="store_true", help="each bot on the users' and emulator's loop (no bot_cpu)"
    )
    args = parser.parse_args()
    loads = [part for part in args.loads.split(",") if part]
    if not loads or any(load not in LOADS for load in loads):
        parser.error(f"--loads takes names among {', '.join(LOADS)}")
    rates = sorted(float(part) for part in args.rates.split(",") if part)
    if args.users < 2 or args.users % 2 or args.rounds < 2 or args.baseline < 2 or not rates:
        parser.error("need an even number of users (Pillz plays in pairs), two rounds, two commands, a rate")
    return Options(
        loads,
        args.runs,
        args.users,
        args.rounds,
        args.baseline,
        rates,
        args.seconds,
        args.seed,
        args.one_loop,
    )


if __name__ == "__main__":
    asyncio.run(main(_parse()))
