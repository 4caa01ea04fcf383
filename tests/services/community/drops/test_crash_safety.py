"""SIGKILL a process opening, entering and drawing drops, again and again, then check every drop: paid
exactly once and said so, or void (or untaken) with nothing paid and said so — never paid twice, never
paid without its result, never left open.

`drop_crash_worker.py` opens drops one after the other (each behind an idempotency key), three players
enter each, the real scheduler draws them 0.3 s later and the real deliverer posts and edits them at the
emulator run here. Each life is killed at a random moment; the next one starts from a little before the
last acknowledged drop, as a client retrying would, and draws at start-up what fell due while it was
dead — or voids it, when that was more than `LATE` seconds after its window (docs/drops.md, "A drop and
a crash").
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter
from pathlib import Path

from emulator import DiscordEmulator
from tests.services.conftest import check_conservation
from tests.services.store.crash_lives import Run, Worker

WORKER = Path(__file__).with_name("drop_crash_worker.py")
KILLS = 5
TOTAL = 12  # drops
REPLAY = 2
LATE = 0.6  # seconds: a close later than this after its window voids the drop (production: 60)


async def test_sigkill_pays_each_drop_once_or_voids_it(tmp_path: Path) -> None:
    rng = random.Random(36)
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channel = emu.add_channel(guild, "parties")
    players = [emu.add_user(f"joueur{n}").id for n in range(3 * TOTAL)]
    db_path = tmp_path / "drops.sqlite3"
    run = Run()
    worker = await Worker.start(WORKER)
    try:
        async with emu:
            spec: dict[str, object] = {
                "db": str(db_path),
                "rest_base": emu.rest_base,
                "token": emu.bot_token,
                "guild": guild.id,
                "channel": channel.id,
                "players": players,
                "total": TOTAL,
                "late": LATE,
            }
            kills = 0
            for _ in range(KILLS):
                first_missing = min(set(range(TOTAL)) - run.acked, default=TOTAL)
                spec["start"] = spec["seed"] = max(first_missing - REPLAY, 0)
                kills += not await worker.live(spec, run, "random", rng)
                await asyncio.sleep(rng.choice((0.0, 2 * LATE)))  # down for a moment, or long enough to void
            spec["start"], spec["seed"] = 0, TOTAL
            assert await worker.live(spec, run, None, rng)
            await worker.finish()
            shown = {m.id: m.render() for m in emu.channel_messages(channel)}
            emu.assert_no_errors()
    finally:
        await worker.stop()

    conn = sqlite3.connect(db_path)
    try:
        check_conservation(conn)
        drops = conn.execute("SELECT id, status, winner_id, message_item FROM drops ORDER BY id").fetchall()
        paid = Counter(
            str(ref) for (ref,) in conn.execute("SELECT ref FROM ledger WHERE reason = 'drop_prize'")
        )
        winners = dict(
            conn.execute("SELECT ref, player_id FROM ledger WHERE reason = 'drop_prize'").fetchall()
        )
        posted = dict(conn.execute("SELECT id, sent_message_id FROM outbox").fetchall())
        edits = Counter(
            int(item) for (item,) in conn.execute("SELECT edit_of FROM outbox WHERE edit_of IS NOT NULL")
        )
        opened = {str(key) for (key,) in conn.execute("SELECT key FROM idempotency WHERE key LIKE 'drop-%'")}
    finally:
        conn.close()

    assert kills == KILLS
    assert run.acked == set(range(TOTAL))
    assert opened == {f"drop-{n}" for n in range(TOTAL)}
    assert len(drops) == TOTAL, "a drop was opened twice or lost"
    statuses = Counter(status for _, status, _, _ in drops)
    assert set(statuses) <= {"drawn", "empty", "void"}, statuses
    assert statuses["drawn"] > 0
    for drop_id, status, winner, item in drops:
        ref = f"drop:{drop_id}"
        if status == "drawn":
            assert paid[ref] == 1, f"drop {drop_id} paid {paid[ref]} times"
            assert winners[ref] == winner
        else:
            assert paid[ref] == 0, f"drop {drop_id} ({status}) paid"
        assert edits[item] == 1, f"drop {drop_id}: {edits[item]} results"
        message = shown[posted[item]]
        said = {"drawn": "Drop remporté", "empty": "repart", "void": "Drop annulé"}[status]
        assert said in message, (drop_id, status, message)
    assert len(shown) == TOTAL, "a drop was posted twice"
    print(dict(statuses))  # with -s: how many drops the kills voided
