"""examples/dinocard.txt as a reader runs it (seed 5): the starter collection, the odds, a first pack
built from the fire cards, the first dojo master fought step by step then all at once, a pack whose
challenges start the next day, a challenge prepared, launched and watched, the owner told by DM, and a
replay with its log."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "dinocard.txt"


async def test_the_dinocard_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    text = "\n".join(lines)
    assert code == 0, text
    assert "Vous recevez votre collection de départ\u00a0: 102 cartes" in text
    assert "Rare\u00a0: 5\u00a0% par carte (30 cartes possibles)" in text
    assert "Pack «\u00a0Braise\u00a0» (n° 1) — 20 cartes" in text
    assert "Ses défis quotidiens commencent le 6 janvier 2026" in text
    assert "Combat n° 1\u00a0: Braise contre Maître Moueffe — manche 1, phase 1" in text  # « Suivant »
    assert (
        "Résultat: «\u00a0Braise\u00a0» (@alice) gagne (PV à zéro)\u00a0: +50 pièces." in text
    )  # the first master, beaten
    assert "Maître Moueffe (niveau 1): **Maître du dojo**" in text  # the master's side, a plain label
    assert "Préparation\u00a0: «\u00a0Braise\u00a0» contre «\u00a0Marée\u00a0» (niveau 1)" in text
    assert "Défi n° 2 lancé" in text
    told = text.index("[DM bob] Votre pack «\u00a0Marée\u00a0»")
    launched = text.index('> alice: click "Lancer le Défi"')
    assert text.index("> wait 10m", launched) < told  # with the battle's last phase, not its first
    assert "(animation : `wait 50s` pour la suite)" in text  # the dojo fight, shown phase by phase
    assert "[file: dinocard-2.txt]" in text
    assert "**Braise** (n° 1) — niveau 1, 20 cartes, 1 défi aujourd'hui" in text
