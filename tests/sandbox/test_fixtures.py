"""The sandbox's ready-made situations (`given alice <name>`, sandbox/fixtures/<game>.py): one at least
for each game, each reached through the services and the ledger, and a channel named as Discord shows it
(`salon:#general`)."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

from sandbox.fixtures import fixtures
from sandbox.main import run_sandbox
from tests.support.registries import every_game


async def run(tmp_path: Path, script: str) -> tuple[int, str, Path]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    db = tmp_path / "db.sqlite3"
    lines: list[str] = []
    code = await run_sandbox(script=str(path), db_path=str(db), out=lines.append, seed=3)
    return code, "\n".join(lines).replace("\u202f", " ").replace("\xa0", " "), db


def test_every_game_has_a_ready_made_situation() -> None:
    named = {name.split("-")[0] for name in fixtures()}
    assert named >= {spec.key for spec in every_game().all_games()}


async def test_the_situations_of_the_four_card_games(tmp_path: Path) -> None:
    code, text, db = await run(
        tmp_path,
        "given alice choco-turn-5\nalice: /choco parties\n"
        "given bob dinocard-pack-level-5\nbob: /dino pack voir pack:Braise\n"
        "given carol immortals-army-level-3\ncarol: /immortels deck\n"
        "given dave pillz-every-leader\ndave: /pillz collection\n",
    )
    assert code == 0, text
    turn = re.search(
        r"Partie n° 1 contre L'Entraîneur \(bot\) \(#parties\) — tour (\d+) — \*\*à vous de jouer\*\*", text
    )
    assert turn is not None, text
    assert int(turn.group(1)) in (5, 6)  # the bot answers at once: her turns are every other one
    assert "Niveau: 5 — 0 / " in text
    assert "Compétences (5 points à dépenser)" in text
    assert "Défis du jour: 2 sur 2" in text  # open today, not tomorrow
    deck = text[text.index("> carol: /immortels deck") : text.index("> given dave")]
    assert deck.count(" niveau 3 ") == 8, deck
    assert "-- given dave: the starter deck and the 6 leaders: " in text
    assert text.count("**👑 ") == 6
    with closing(sqlite3.connect(db)) as conn:
        given = dict(
            conn.execute(
                "SELECT c.game, COUNT(*) FROM ledger l JOIN cards c ON c.id = l.card_id"
                " WHERE l.reason = 'sandbox.given' GROUP BY c.game"
            ).fetchall()
        )
    assert given == {"choco": 24, "pillz": 6}  # Dinocard's and Immortal's War's cards are their welcome's


async def test_a_channel_option_takes_the_channel_as_discord_shows_it(tmp_path: Path) -> None:
    code, text, _ = await run(
        tmp_path,
        "user admin1 admin\nadmin1: /configuration annonces salon:#general\n"
        "admin1: /configuration annonces salon:#nowhere\n",
    )
    assert code == 1
    assert "!! no channel #nowhere on the server (#general, #parties)" in text
    first = text[text.index("> admin1: /configuration annonces salon:#general") : text.index("#nowhere")]
    assert "[admin1 only]" in first
    assert "#general" in first
