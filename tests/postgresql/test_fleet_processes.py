"""Two bot processes (real OS processes: tests/postgresql/fleet_worker.py) against one PostgreSQL database.

Each player gets 50 HOSS operations at once, spread over both processes: 20 purchases with money for
about half of them, 10 cards each sold by two clicks (one per process, different keys), 5 fusions each
sent by both processes with the same key. Meanwhile a storm of 200 reward jobs falls due at once, each
posting in one of 20 channels of the Discord emulator through the outbox. Then: no operation happened
twice, no balance went below zero, the ledger explains every balance, each job fired once, each post
reached Discord once. The second test SIGKILLs one process in the middle of its sends: the survivor
takes over its claimed posts when its heartbeat goes silent (not when the 5-minute claims run out), and
nothing acknowledged is lost. The third: a post queued by another process is sent by an idle deliverer
at once (NOTIFY), not after its 10-minute idle sleep. Times are wall-clock seconds (both processes run
`SystemClock`), measured here.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from core.clock import ManualClock, SystemClock
from emulator import DiscordEmulator
from engine.hoss.catalog import HossCatalog
from services.infra import scheduler
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.heartbeat import DEAD_AFTER
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import CLAIM, Outbox, enqueue
from store.connection import Connection
from store.db import Database
from tests.fixtures.postgres import Cluster
from tests.postgresql.fleet_worker import KIND
from tests.services.conftest import check_conservation, open_postgres
from tests.services.hoss.conftest import mint, new_player, rank1_ids
from tests.services.store.crash_lives import Worker

WORKER = Path(__file__).with_name("fleet_worker.py")
PLAYERS = (1, 2)
CHANNELS = 20
JOBS = 200
BEAT = 1.0  # seconds between two heartbeats of a worker: a disconnected peer is dead after DEAD_AFTER silent ones
SILENCE = 60.0  # seconds without a line from a worker after which the test fails instead of hanging
GOLD = 1_050  # ten boosters of 100, fifty left over


def wall() -> float:
    """Seconds since the epoch: the processes' clocks are this machine's (`SystemClock`)."""
    return SystemClock().now().timestamp()


@dataclass
class Life:
    """What one process said, with the times that matter in epoch seconds (the processes share the machine's
    clock): a beat's and a takeover's when the process's beat started (what it wrote and judged by)."""

    worker: Worker
    acks: dict[str, str] = field(default_factory=dict)
    windows: int = 0
    last_beat: float | None = None
    killed_at: float | None = None
    takeovers: list[tuple[float, int]] = field(default_factory=list)
    done_at: float | None = None
    status: int | None = None

    async def follow(self, kill_at_window: int | None = None) -> None:
        while True:
            line = await self.worker.line(SILENCE)
            now = wall()
            if line.startswith("exit "):
                self.status = int(line.split()[1])
                return
            if line.startswith("ack "):
                _, label, outcome = line.split()
                self.acks[label] = outcome
            elif line.startswith("beat "):
                self.last_beat = float(line.split()[1])
            elif line == "window":
                self.windows += 1
                if kill_at_window is not None and self.windows >= kill_at_window and self.killed_at is None:
                    self.worker.kill_life()
                    self.killed_at = now
            elif line.startswith("takeover "):
                _, items, at = line.split()
                self.takeovers.append((float(at), int(items)))
            elif line == "done":
                self.done_at = now


@dataclass
class Setup:
    ops: list[list[list[Any]]]  # per process: [label, kind, player, card(s), key]
    for_sale: dict[int, list[int]]
    pairs: dict[int, list[list[int]]]


async def prepare(db: Database, catalog: HossCatalog, registry: GameRegistry) -> Setup:
    clock = ManualClock(SystemClock().now())  # the setup's instant: the jobs are due for the workers' clocks
    ops: list[list[list[Any]]] = [[], []]  # [label, kind, player, card(s), key]
    for_sale: dict[int, list[int]] = {}
    pairs: dict[int, list[list[int]]] = {}
    for p in PLAYERS:
        await new_player(db, clock, p, gold=GOLD, registry=registry)
        for floor in rank1_ids(catalog)[:6]:  # the floor a sale may not go below
            await mint(db, clock, p, floor)
        for_sale[p] = [await mint(db, clock, p, "orc_guerrier_1", "argent") for _ in range(10)]
        pairs[p] = [[await mint(db, clock, p, "sq_mage_1") for _ in range(2)] for _ in range(5)]
        for i in range(20):
            ops[i % 2].append([f"p{p}-buy-{i}", "buy", p, None, f"p{p}-buy-{i}"])
        for i, card in enumerate(for_sale[p]):
            for click in (0, 1):
                ops[click].append([f"p{p}-sell-{i}-{click}", "sell", p, card, f"p{p}-sell-{i}-{click}"])
        for i, pair in enumerate(pairs[p]):
            for process in (0, 1):
                ops[process].append([f"p{p}-fuse-{i}-{process}", "fuse", p, pair, f"p{p}-fuse-{i}"])
    assert [sum(op[2] == p for side in ops for op in side) for p in PLAYERS] == [50, 50]
    due = clock.now() - timedelta(seconds=1)

    def storm(conn: Connection) -> None:
        for n in range(JOBS):
            scheduler.schedule(conn, due, KIND, due, {"n": n, "player": PLAYERS[n % 2]})

    await db.write(storm)
    return Setup(ops, for_sale, pairs)


async def start(count: int) -> list[Worker]:
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        for _ in range(count)
    ]
    return [Worker(process) for process in processes]


async def send(worker: Worker, spec: dict[str, Any]) -> None:
    assert worker.process.stdin is not None
    worker.process.stdin.write(json.dumps(spec).encode() + b"\n")
    await worker.process.stdin.drain()


async def stop(workers: list[Worker]) -> None:
    for worker in workers:
        if worker.process.returncode is None:
            assert worker.process.stdin is not None
            worker.process.stdin.close()
            try:
                await asyncio.wait_for(worker.process.wait(), 10)
            except TimeoutError:
                worker.kill_life()
                await asyncio.sleep(0.2)
                worker.process.kill()
                await worker.process.wait()


def posted(emu: DiscordEmulator, channels: list[Any]) -> Counter[str]:
    return Counter(m.content for channel in channels for m in emu.channel_messages(channel))


async def run_fleet(url: str, registry: GameRegistry, *, kill_at_window: int | None) -> dict[str, Any]:
    """Both processes on the storm and the operations; with `kill_at_window`, the first one is SIGKILLed
    between its `kill_at_window`-th post and that post's mark_sent. Returns what happened."""
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    db = await open_postgres(url)
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channels = [emu.add_channel(guild, f"salon-{n}") for n in range(CHANNELS)]
    workers = await start(2)
    try:
        setup = await prepare(db, catalog, registry=registry)
        lives = [Life(worker) for worker in workers]
        async with emu:
            go_at = wall() + 5.0  # both processes imported and ready: the storm and operations start together
            for n, worker in enumerate(workers):
                spec = {
                    "url": url,
                    "rest_base": emu.rest_base,
                    "token": emu.bot_token,
                    "channels": [channel.id for channel in channels],
                    "ops": setup.ops[n],
                    "go_at": go_at,
                    "beat": BEAT,
                    "until_sent": JOBS,
                    "nonce": True,
                    "window_pause": 0.02 if n == 0 else 0,
                }
                await send(worker, spec)
            await asyncio.gather(lives[0].follow(kill_at_window), lives[1].follow())
            counts = posted(emu, channels)
            emu.assert_no_errors()
        await stop(workers)
        await db.read(check_conservation)
        figures = await db.read(lambda conn: effects(conn, setup))
    finally:
        await stop(workers)
        await db.close()
    assert counts == Counter({f"job-{n}": 1 for n in range(JOBS)}), "a post was lost or sent twice"
    figures.update(lives=lives, setup=setup)
    return figures


def effects(conn: Connection, setup: Setup) -> dict[str, Any]:
    """Each job fired once with its effect once; what each player's operations left."""
    jobs = Counter(row[0] for row in conn.execute("SELECT state FROM jobs WHERE kind = ?", (KIND,)))
    assert jobs == Counter(done=JOBS), jobs
    rewards = Counter(row[0] for row in conn.execute("SELECT ref FROM ledger WHERE reason = ?", (KIND,)))
    assert rewards == Counter({f"job-{n}": 1 for n in range(JOBS)}), "a job's effect was lost or repeated"
    states = Counter(row[0] for row in conn.execute("SELECT state FROM outbox"))
    assert states == Counter(sent=JOBS), states
    negative = conn.execute("SELECT COUNT(*) FROM wallets WHERE balance < 0").fetchone()[0]
    assert negative == 0
    figures: dict[str, Any] = {}
    for p in PLAYERS:
        bought = Counter(
            row[0] for row in conn.execute("SELECT purchase_key FROM hoss_openings WHERE player_id = ?", (p,))
        )
        assert all(n == 1 for n in bought.values()), bought  # one booster per purchase key, never two
        sold = conn.execute(
            f"SELECT COUNT(*) FROM cards WHERE id IN ({','.join('?' * 10)}) AND owner_id IS NULL",
            setup.for_sale[p],
        ).fetchone()[0]
        fused = conn.execute(
            "SELECT COUNT(*) FROM idempotency WHERE key LIKE ?", (f"hoss:fusion:{p}:p{p}-fuse-%",)
        ).fetchone()[0]
        sacrificed = conn.execute(
            "SELECT COUNT(*) FROM cards WHERE card_key = 'sq_mage_1' AND owner_id IS NULL AND id IN"
            f" ({','.join('?' * 10)})",
            [card for pair in setup.pairs[p] for card in pair],
        ).fetchone()[0]
        gold = conn.execute(
            "SELECT balance FROM wallets WHERE player_id = ? AND currency = 'hoss_gold'", (p,)
        ).fetchone()[0]
        assert sacrificed == fused  # one card of each fused pair gone, once
        assert gold == GOLD - len(bought) * 100 + sold * 20, (p, gold, len(bought), sold)
        figures[f"p{p}"] = {"bought": len(bought), "bought_keys": set(bought), "sold": sold, "fused": fused}
    return figures


async def test_two_processes_share_the_storm_and_the_operations(
    pg_cluster: Cluster, registry: GameRegistry
) -> None:
    url = pg_cluster.create()
    try:
        started = time.monotonic()
        figures = await run_fleet(url, kill_at_window=None, registry=registry)
        took = time.monotonic() - started
    finally:
        pg_cluster.drop(url)
    lives: list[Life] = figures["lives"]
    assert [life.status for life in lives] == [0, 0]
    acks = {**lives[0].acks, **lives[1].acks}
    assert len(acks) == 100  # every operation answered
    assert not [outcome for outcome in acks.values() if outcome.startswith("refused:error.generic")]
    for p in PLAYERS:
        mine = {label: outcome for label, outcome in acks.items() if label.startswith(f"p{p}-")}
        bought = [label for label, outcome in mine.items() if "-buy-" in label and outcome == "ok"]
        sold = [label for label, outcome in mine.items() if "-sell-" in label and outcome == "ok"]
        fusions = Counter(outcome for label, outcome in mine.items() if "-fuse-" in label)
        assert 10 <= len(bought) <= 12, mine  # the money decides, not the process
        assert figures[f"p{p}"]["bought"] == len(bought)
        assert len(sold) == figures[f"p{p}"]["sold"] == 10  # each card once, out of its two clicks
        assert fusions == Counter(ok=5, replayed=5), fusions  # the same key from both processes: once
        assert figures[f"p{p}"]["fused"] == 5
    # Nobody was taken for dead: a process slowed down by the storm beats late, but stays connected.
    assert [life.takeovers for life in lives] == [[], []]
    assert sum(life.windows for life in lives) == JOBS  # and so no post was sent by both processes
    print({"seconds": round(took, 1), "windows": [life.windows for life in lives]})


async def test_the_survivor_takes_over_a_killed_process(pg_cluster: Cluster, registry: GameRegistry) -> None:
    url = pg_cluster.create()
    try:
        figures = await run_fleet(url, kill_at_window=5, registry=registry)
    finally:
        pg_cluster.drop(url)
    dead, survivor = figures["lives"]
    assert dead.killed_at is not None
    assert dead.status == 9  # SIGKILL
    assert survivor.status == 0
    assert survivor.takeovers, "the survivor never took the dead process's claims over"
    taken_at, items = survivor.takeovers[0]
    assert items >= 1  # at least the post it was sending when it died
    assert dead.last_beat is not None
    silent = taken_at - dead.last_beat
    took = taken_at - dead.killed_at
    assert survivor.done_at is not None
    drained = survivor.done_at - dead.killed_at
    # Taken over at the survivor's first beat that finds the dead process silent for DEAD_AFTER beats and its
    # connection gone: within a few seconds of the kill, not when the 5-minute claims would have run out.
    # (Under this load a beat may start late, so the dead process's last one can be older than its death
    # by more than a period.)
    assert silent > DEAD_AFTER * BEAT, silent
    assert took < DEAD_AFTER * BEAT + BEAT + 1.0, took
    assert drained < CLAIM.total_seconds() / 10, drained
    acks = {**dead.acks, **survivor.acks}
    for p in PLAYERS:  # nothing acknowledged is lost
        acked = {
            label for label, outcome in acks.items() if label.startswith(f"p{p}-buy-") and outcome == "ok"
        }
        assert acked <= figures[f"p{p}"]["bought_keys"]
    print(
        {
            "silent_s": round(silent, 2),
            "after_kill_s": round(took, 2),
            "items": items,
            "drained_s": round(drained, 2),
        }
    )


async def test_an_idle_deliverer_sends_what_another_process_queued_at_once(
    pg_cluster: Cluster, registry: GameRegistry
) -> None:
    """The worker's deliverer has nothing to do and sleeps for its 10-minute idle recheck; a post queued
    here (another process) reaches Discord through it within a second: the commit's NOTIFY woke it."""
    url = pg_cluster.create()
    db = await open_postgres(url)
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channel = emu.add_channel(guild, "parties")
    [worker] = await start(1)
    life = Life(worker)
    try:
        async with emu:
            spec = {
                "url": url,
                "rest_base": emu.rest_base,
                "token": emu.bot_token,
                "channels": [channel.id],
                "ops": [],
                "go_at": 0,
                "beat": 60,
                "until_sent": 1,
                "nonce": True,
                "window_pause": 0,
            }
            await send(worker, spec)
            line = await worker.line(SILENCE)
            while line.startswith("beat "):  # its first beat may commit before it says it is ready
                line = await worker.line(SILENCE)
            assert line == "ready"
            await asyncio.sleep(1.0)  # its first pass found nothing: it sleeps
            now = SystemClock().now()
            spec_text = MessageSpec(content=Text.raw("hello"))
            queued = time.monotonic()
            await db.write(
                lambda conn: enqueue(conn, now, Target("channel", channel.id, guild_id=None), spec_text)
            )
            while time.monotonic() - queued < 10:
                if emu.channel_messages(channel):
                    break
                await asyncio.sleep(0.005)
            took = time.monotonic() - queued
            await life.follow()
            emu.assert_no_errors()
        assert [m.content for m in emu.channel_messages(channel)] == ["hello"]
        assert life.status == 0
        assert await Outbox(db, SystemClock(), registry).next_due_at() is None
    finally:
        await stop([worker])
        await db.close()
        pg_cluster.drop(url)
    assert took < 1.0, took
    print({"notify_to_discord_s": round(took, 3)})
