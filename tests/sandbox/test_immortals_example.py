"""examples/immortals.txt as a reader runs it (seed 3): the sign-up gift of 8 units, the spells, the
AI's attack shown on the practice duel's message and countered in the private controls, a friend
challenge, and the AI choosing for players who let the 2 minutes pass."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "immortals.txt"


async def test_the_immortals_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    text = "\n".join(lines)
    assert code == 0, text
    assert "Vous recevez 8 unités de familles différentes" in text
    assert "Connus (8)" in text
    assert "**Combat 1** — l'IA engage Loup gris" in text
    assert "🛡️ À vous de contrer\u00a0: l'IA engage Loup gris" in text
    assert "Contre du combat 1 enregistré\u00a0: Loup gris." in text
    assert (
        "@alice\u00a0: Loup gris avec Force du Titan (ATQ 6D2" in text
    )  # the dice shown, terrain malus included
    assert "Initiative\u00a0: Loup gris (l'IA)." in text  # both units are Loups gris: the side is named
    assert "PV\u00a0: Loup gris (@alice) 20 → 0 en 3 tours\u202f; Loup gris (l'IA) 20 → 2" in text
    assert (
        "Engage\u00a0: l'IA (ATQ totale 11 de part et d'autre, départagée par la DÉF totale\u00a0: 14 contre 13)."
        in text
    )
    assert "le duel n° 2 commence ci-dessous" in text
    assert "⏱ Combat 1\u00a0: @bob n'a pas choisi à temps, l'IA a choisi à sa place." in text
