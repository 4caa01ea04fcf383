"""examples/drops.txt as a reader runs it (seed 1): drops turned on, three players active, a drop of the
card bob wished for names him, three clicks enter (a double click once), the result edits the drop,
« Vérifier » reveals the seed privately, and the Monday recap lists the week's drop with its picture."""

from __future__ import annotations

from pathlib import Path

from tests.sandbox.examples import same_worker, transcript

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "drops.txt"


@same_worker(EXAMPLE)
async def test_the_drops_example_runs() -> None:
    run = await transcript(EXAMPLE)
    text = run.text
    assert run.code == 0, text
    assert "[#parties] Sur la liste de souhaits de\u00a0: @bob\n    | ** Un drop apparaît\u202f! **" in text
    assert "**Perchta** (Bronze 2, Chocobataille)" in text
    assert text.count("Vous participez au tirage") == 3
    assert "[bob only] Vous participez déjà à ce tirage" in text
    assert "remporte **Perchta** (Bronze 2, Chocobataille), tiré au sort parmi 3 participants." in text
    assert "[alice only] ✅ Tirage vérifié" in text
    assert "[file: drop-1.txt]" in text
    recap = text[text.index("> wait 7d") :]
    assert "La semaine du serveur, du 5 janvier 2026 au 11 janvier 2026" in recap
    assert "Les drops: 1 drop, dont 1 remporté par 1 joueur." in recap
    assert "[file: recap-" in recap
