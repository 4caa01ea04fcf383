"""examples/hoss_pulls.txt as a reader runs it (seed 7): three boosters flipped, the second holds an Or
card, « Montrer » posts its picture in the channel once, and a second click says it was already shown."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "hoss_pulls.txt"


async def test_the_hoss_pulls_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    text = "\n".join(lines)
    assert code == 0, text
    assert "**Piquier de la garde** — Or 0★" in text
    assert "[Montrer\u00a0: Piquier de la garde]" in text
    post = (
        "[#parties] @alice montre sa carte **Piquier de la garde** (Or, HOSS TCG)\u202f!\n"
        "    [file: hoss-hum_lancier_1.png]"
    )
    assert text.count(post) == 1
    assert "[alice only] Votre carte est montrée dans ce salon." in text
    assert "[alice only] Cette carte a déjà été montrée." in text
