"""examples/pillz.txt as a reader runs it (seed 3): the starter deck, the odds, a practice move through
the private controls in two clicks (an amount of pillz with its chance to win, then « Jouer »), a friend
challenge, and the AI playing for a player who let the 2 minutes pass — every line succeeds and the duel
messages say what happened."""

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
    assert "Druidesse des saules\u00a0: 3 pillz → ATQ 12 — 48\u00a0% de chances" in text  # beside each amount
    assert "Druidesse des saules ★★ — P 4 / D 3 avec 3 pillz\u00a0: ATQ 12" in text  # the move chosen
    assert "(pillz cachés)" in text
    controls = text[text.index("** Votre coup — duel n° 1 **") :]
    assert controls.index("[file: pillz-line-up-1.png]") < controls.index(
        "<Druidesse des saules ★★ — P 4 / D 3:"
    )  # her line-up, then a select per character
    assert "Manche 2 · vous" in controls  # after her answer, the same controls show her lead
    assert "l'IA a choisi à sa place" in text
    assert "le duel n° 2 commence ci-dessous" in text
