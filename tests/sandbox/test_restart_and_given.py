"""`restart` and `given` in sandbox scripts: a deadline passed while the bot was down runs once at
start-up, the new process keeps Discord's messages, and named starting situations go through the ledger."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sandbox.main import run_sandbox

SETUP = "user admin1 admin\nadmin1: /configuration annonces salon:general\n"


async def run(tmp_path: Path, script: str) -> tuple[int, list[str], Path]:
    path = tmp_path / "script.txt"
    path.write_text(SETUP + script, encoding="utf-8")
    db = tmp_path / "db.sqlite3"
    lines: list[str] = []
    code = await run_sandbox(script=str(path), db_path=str(db), out=lines.append, seed=11)
    return code, lines, db


async def test_a_draw_due_while_the_bot_was_down_runs_once_at_start_up(tmp_path: Path) -> None:
    code, lines, _ = await run(
        tmp_path,
        "alice: /hoss tombola acheter\nrestart after 10h\nrestart after 1h\nalice: /hoss tombola voir\n",
    )
    assert code == 0, lines
    restarts = [line for line in lines if line.startswith("-- restarted after")]
    assert restarts == [
        "-- restarted after 10h down (2026-01-05 22:00 UTC), 1 job(s) ran at start-up",
        "-- restarted after 1h down (2026-01-05 23:00 UTC), 0 job(s) ran at start-up",
    ]
    results = [line for line in lines if "Résultats de la tombola" in line]
    assert len(results) == 1
    assert lines.index(results[0]) > lines.index(restarts[0])
    window = "\n".join(lines[lines.index("> alice: /hoss tombola voir") :])
    assert "Derniers gagnants (5 janvier 2026): @alice" in window


async def test_each_process_draws_its_own_seeds(tmp_path: Path) -> None:
    """A restarted process seeded like the first would publish the same raffle commitment again."""
    code, lines, db = await run(
        tmp_path, "alice: /hoss tombola acheter\nrestart after 10h\nalice: /hoss tombola acheter\n"
    )
    assert code == 0, lines
    with sqlite3.connect(db) as conn:
        commitments = [row[0] for row in conn.execute("SELECT commitment FROM hoss_raffles ORDER BY day")]
    assert len(commitments) == 2
    assert commitments[0] != commitments[1]


async def test_given_goes_through_the_ledger_and_unknown_names_fail(tmp_path: Path) -> None:
    code, lines, db = await run(tmp_path, "given bob hoss-arena-ready\ngiven bob nothing-like-this\n")
    assert code == 1
    assert "-- given bob: Rang 5 unlocked; decks « Attaque » (slot 1) and « Défense » (slot 2) saved" in lines
    assert any(line.startswith("!! unknown fixture 'nothing-like-this'") for line in lines)
    with sqlite3.connect(db) as conn:
        minted = conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE reason = 'sandbox.given' AND card_id IS NOT NULL"
        ).fetchone()[0]
        owned = conn.execute("SELECT COUNT(*) FROM cards WHERE game = 'hoss'").fetchone()[0]
        slots = [row[0] for row in conn.execute("SELECT slot FROM hoss_decks ORDER BY slot")]
    assert minted == owned == 12 * 3 + 4
    assert slots == [1, 2]
