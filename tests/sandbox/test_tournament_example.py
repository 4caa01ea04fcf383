"""examples/tournament.txt as a reader runs it (seed 5): a Swiss of 64 Pillz duel players, six absent
throughout, from the registration to the podium and the winner's title on /profile — every line succeeds,
each round closes with the absent players' matches decided by attendance, and nobody pays or is paid
twice (the ledger explains every balance)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tests.sandbox.examples import same_worker, transcript
from tests.services.conftest import check_conservation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tournament.txt"


@pytest.mark.slow
@same_worker(EXAMPLE)
async def test_the_tournament_example_runs_to_its_podium() -> None:
    run = await transcript(EXAMPLE)
    text, db = run.text, run.db
    assert run.code == 0, text[-3000:]
    for number in range(1, 7):
        assert f"Ronde {number} sur 6 terminée" in text
    assert re.search(r"bat @p(59|6\d), absent", text)  # an absent player's match decided at the deadline
    assert "tous deux absents, perdent tous les deux" in text
    podium = text[text.index("est terminé\u202f!") :]
    winner = re.search(r"🥇 @(p\d\d)", podium)
    assert winner is not None
    assert winner.group(1) not in {f"p{n}" for n in range(59, 65)}
    assert "🥇 Vainqueur — Tournoi Pillz duel du 5 janvier 2026" in podium  # the winner's /profile
    with sqlite3.connect(db) as conn:
        check_conservation(conn)
        tables = conn.execute("SELECT COUNT(*), COUNT(DISTINCT match_id) FROM tournament_tables").fetchone()
        assert tables == (6 * 32, 6 * 32)  # 32 tables a round, each its own match
        places = conn.execute("SELECT COUNT(DISTINCT place) FROM tournament_entries").fetchone()
        assert places == (64,)
