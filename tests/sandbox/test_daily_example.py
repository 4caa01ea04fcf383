"""examples/daily.txt as a reader runs it: every daily at once, a second try that pays nothing, the
timers with relative times, the morning reminder DM for the player who turned reminders on only, the
streak's +10 % on the second day, and a missed day that starts the streak again."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "daily.txt"


async def test_the_daily_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    lines = [line.replace("\u202f", " ").replace("\xa0", " ") for line in lines]  # French digit groups
    text = "\n".join(lines)
    assert code == 0, text
    assert "**HOSS TCG** : vous recevez 50 or (série de 1 jour). Solde : 350 or." in text
    assert text.count("déjà reçu aujourd'hui") == 5
    assert "**Ticket de tombola** : disponible, ventes closes 2026-01-05 18:59 UTC" in text
    dms = [i for i, line in enumerate(lines) if line.startswith("[DM ")]
    assert [lines[i] for i in dms] == [
        "[DM alice] Vos récompenses du jour sont prêtes, `/quotidien` pour les recevoir :"
    ] * 2
    first_dm = lines[dms[0] : dms[0] + 5]
    assert "    **HOSS TCG** : 55 or (série de 2 jours)" in first_dm
    assert lines.index("> wait 20h") < dms[0] < lines.index("> alice: /quotidien jeu:hoss")
    assert "[alice only] **HOSS TCG** : vous recevez 55 or (série de 2 jours). Solde : 405 or." in lines
    assert "[bob only] **HOSS TCG** : vous recevez 50 or (série de 1 jour). Solde : 400 or." in lines
