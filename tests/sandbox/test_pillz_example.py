"""examples/pillz.txt as a reader runs it (seed 3): the starter deck, the odds, a practice move through
the private controls with its win-chance preview, a friend challenge, and the AI playing for a player who
let the 2 minutes pass — every line succeeds and the duel messages say what happened."""

from __future__ import annotations

from pathlib import Path

from sandbox.main import run_sandbox

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pillz.txt"


async def test_the_pillz_example_runs(tmp_path: Path) -> None:
    lines: list[str] = []
    code = await run_sandbox(
        script=str(EXAMPLE), db_path=str(tmp_path / "db.sqlite3"), out=lines.append, seed=3
    )
    text = "\n".join(lines)
    assert code == 0, text
    assert "Vous recevez votre deck de départ\u00a0: 8 personnages" in text
    assert "★★★★★\u00a0: 3\u00a0%" in text
    assert (
        "s'il joue 0 pillz\u00a0: 100\u00a0% de chances de gagner" in text
    )  # the preview, once 3 pillz are set
    assert "(pillz cachés)" in text
    controls = text[text.index("** Votre coup — duel n° 1 **") :]
    assert controls.index("[file: pillz-line-up-1.png]") < controls.index(
        "<Choisissez votre personnage"
    )  # her line-up
    assert "l'IA a choisi à sa place" in text
    assert "le duel n° 2 commence ci-dessous" in text
