"""examples/trade.txt as a reader runs it (seed 3): a trade window for each player that follows the
other's offer, a confirmation voided by a change, the swap and what it did to the giver's deck, a gift,
an expired trade and the trade log."""

from __future__ import annotations

from tests.sandbox.examples import EXAMPLES, transcript

EXAMPLE = EXAMPLES / "trade.txt"


def blocks(lines: list[str]) -> list[str]:
    """The transcript cut into what each reader got (a block starts with its reader, `[...]`)."""
    found: list[str] = []
    for line in "\n".join(lines).splitlines():
        if line.startswith(("[", ">")) or not found:
            found.append(line)
        else:
            found[-1] += "\n" + line
    return found


async def test_the_trade_example_runs() -> None:
    run = await transcript(EXAMPLE)
    code, lines = run.code, list(run.lines)
    text = "\n".join(lines)
    assert code == 0, text
    assert "[DM bob] @alice a modifié ou confirmé l'échange n° 1" in text
    assert "Offre de @bob: 40 pièces" in text  # alice's window follows bob's offer
    # alice confirms twice (bob's change voided the first), each time in her reply and in bob's window
    assert text.count("✅ Confirmé") == 4
    assert "Échange n° 1 avec @bob conclu\u00a0: tout a été échangé." in text
    assert "Votre collection\u00a0: 7 personnages différents" in text  # alice's Druidesse went to bob
    # her starter deck: warned in her window only, then named by the practice with the fix
    warned = [b for b in blocks(lines) if "cette carte est dans votre deck actif (emplacement 1)" in b]
    assert len(warned) == 5  # her reply, her window after each of bob's 2 changes, her 2 confirmations
    assert all(b.startswith(("[alice only]", "[DM alice]")) for b in warned)
    assert "[DM alice] | ** Échange n° 1\u00a0: vos decks **" in text
    assert "Vous ne possédez plus Druidesse des saules" in text
    assert "[DM bob] Cadeau n° 2 reçu de @alice\u202f!" in text
    assert "Échange n° 3 avec @bob expiré\u00a0: rien n'a changé de main." in text
    assert "Cadeau n° 2 (Pillz duel) de @alice à @bob — conclu" in text
