"""examples/hoss_arena.txt as a reader runs it (seed 4): two veterans register for the Arena, the ranking
is posted from 2 players, an attack won and an attack abandoned move the points and gold of the table,
the bot is down across the raffle's 20:00 draw and across Sunday midnight, and each of those runs once
at start-up: the draw and its post, the close with its payout and results, then a new week from zero."""

from __future__ import annotations

import re

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "hoss_arena.txt"


def after(lines: list[str], marker: str) -> list[str]:
    return lines[lines.index(marker) + 1 :]


async def test_the_arena_week_and_the_raffle_survive_restarts() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    lines = [line.replace("\u202f", " ").replace("\xa0", " ") for line in lines]  # French digit groups
    text = "\n".join(lines)
    assert code == 0, text
    # The attack won by alice and the attack bob abandoned, as the points table says.
    assert "@alice : 2 pts (+2), 50 or." in text
    assert "Défense de @bob : 0 pts (+0), 1 or." in text  # -1 point, but nobody goes below 0
    assert "@bob a abandonné le combat : il compte comme une défaite." in text
    assert "Défense de @alice : 3 pts (+1), 10 or." in text
    # The ranking post: one message, first shown after the first hourly ranking.
    first_ranking = next(i for i, line in enumerate(lines) if "Arène : classement de la semaine" in line)
    assert lines.index("> wait 1h") < first_ranking
    # Down across 20:00 Paris: the raffle is drawn once, at start-up.
    restart_draw = next(line for line in lines if line.startswith("-- restarted after 6h down"))
    raffle_results = [i for i, line in enumerate(lines) if "Résultats de la tombola" in line]
    assert len(raffle_results) == 1
    assert raffle_results[0] > lines.index(restart_draw)
    # Down across Sunday midnight: the season closes once, at start-up, and pays the table.
    restart_close = next(line for line in lines if line.startswith("-- restarted after 5h down"))
    assert re.fullmatch(
        r"-- restarted after 5h down \(2026-01-12 01:00 UTC\), \d+ job\(s\) ran at start-up", restart_close
    )
    results = [i for i, line in enumerate(lines) if "Arène : résultats de la semaine" in line]
    assert len(results) == 1
    assert results[0] > lines.index(restart_close)
    assert re.search(r"\*\*1\.\*\* @alice — 3 pts · 1 attaque.* — \*\*3 000 or\*\*", text)
    assert re.search(r"\*\*2\.\*\* @bob — 0 pts · 0 attaque.* — \*\*2 000 or\*\*", text)
    assert "Graine révélée : `" in text  # behind the results post's « Vérifier »
    # The closed season's draws recompute from its revealed seed; the open one keeps its seed.
    assert "✅ Saison du 5 janvier 2026 vérifiée" in text
    assert "[file: arene-2026-01-05.txt]" in text
    assert "La saison du 12 janvier 2026 n'est pas terminée" in text
    # Everyone unregistered: a new week from zero, with a new commitment.
    new_week = "\n".join(after(lines, "> alice: /hoss arène inscrire attaque:1 défense:2")[-12:])
    assert "semaine du 12 janvier 2026" in new_week
