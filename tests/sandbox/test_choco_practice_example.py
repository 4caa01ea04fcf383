"""examples/choco_practice.txt as a reader runs it (seed 8): a friendly game marked « amicale » that counts
for nothing, then a practice game whose bot answers each declaration at once (issue 17)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from sandbox.main import run_sandbox

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "choco_practice.txt"


async def test_the_choco_practice_example_runs(tmp_path: Path) -> None:
    lines: list[str] = []
    db = tmp_path / "db.sqlite3"
    code = await run_sandbox(script=str(EXAMPLE), db_path=str(db), out=lines.append, seed=8)
    text = "\n".join(lines)
    assert code == 0, text
    assert "vous propose une partie **amicale** de Chocobataille" in text
    assert "[thread: Chocobataille amicale n° 1]" in text
    assert "Partie amicale n° 1 — Ligue de Bronze — tour 2" in text
    assert "hRP (0 joueur)" in text  # the friendly game's end is on no leaderboard
    assert "[thread: Chocobataille entraînement n° 2]" in text
    # each declaration in the practice game is followed, in the same breath, by the bot's turn and the call
    practice = text[text.index("> carol: /choco entraînement") :]
    turn = practice[practice.index('attaque F1 > AF1"') : practice.index("> carol: /choco parties")]
    assert "L'Entraîneur (bot) joue son tour." in turn
    assert "L'Entraîneur (bot), à vous de jouer" not in text  # the bot is not called like a player
    assert "@carol, à vous de jouer (tour 3)" in turn
    assert "L'Entraîneur (bot) remporte la partie." in practice
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM choco_results").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'choco.reward'").fetchone() == (0,)
