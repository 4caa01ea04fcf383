"""examples/pillz.txt as a reader runs it (seed 3): the starter deck, the odds, a practice move through
the private controls with its win-chance preview, a friend challenge, and the AI playing for a player who
let the 2 minutes pass — every line succeeds and the duel messages say what happened."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "pillz.txt"


async def test_the_pillz_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
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
