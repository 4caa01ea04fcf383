"""Dinocard's first steps: examples/first_steps_dinocard.txt as a reader runs it (the /help page in the
order a new player needs, the welcome once with the starter collection and the one next command, the
four rules pages, dead ends that name the next command, a pack's typo answered with the nearest names,
a purchase refused with how to earn coins), and the same first steps in English through Discord."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.messages import shown
from tests.sandbox.first_steps import opened_entry, order_of, run


async def test_the_dinocard_first_steps_example() -> None:
    text = await run("dinocard")
    assert "Exemplaires possédés\u00a0: 2" in opened_entry(
        text, "Moueffe ardent ×2", "dinocard-moueffe_ardent.png"
    )
    page = text[text.index("** Dinocard **") :]
    positions = order_of(
        page, "`/dino règles`", "`/dino collection`", "`/dino pack créer`", "`/dino dojo`", "`/dino défi`"
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **300 pièces** et une **collection de départ**" in text
    assert (
        "➡️ Prochaine étape\u00a0: créez votre premier pack avec `/dino pack créer nom:Braise élément:Feu`"
        in text
    )
    assert "** Packs, niveaux et dojo (4/4) **" in text
    assert "Page 4/4 · Dinocard\u00a0: le texte de chaque carte avec `/carte`" in text
    assert "Aucun pack. Faites-en un de vos cartes d'un élément\u00a0: `/dino pack créer" in text
    assert (
        "Aucun de vos packs ne s'appelle «\u00a0Braise\u00a0». Voyez vos packs avec `/dino pack voir`" in text
    )
    assert (
        "Carte inconnue\u00a0: «\u00a0Moueffe ardant x2\u00a0». Vouliez-vous dire\u00a0: Moueffe, Moueffe ardent\u202f?"
        in text
    )
    assert "Aucun aujourd'hui pour ce pack" in text  # a new pack's challenge page points to the dojo
    assert "Résultat: «\u00a0Braise\u00a0» (@alice) gagne" in text
    assert "Solde insuffisant\u00a0: il faut 100 pièces, vous avez 50 pièces. Gagnez des pièces" in text


async def test_an_english_newcomer_is_welcomed_and_reads_the_rules(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    first = await harness.emu.run_command(bob, "dino rules")
    assert first.message is not None
    assert first.message.ephemeral
    whole = shown(first.message)  # the welcome first, then what he asked
    welcome, page = whole[: whole.index("➡️")], whole[whole.index("➡️") :]
    assert welcome.startswith("**Welcome to Dinocard!**")
    assert "**300 coins**" in welcome
    assert "`/dino pack create name:Ember element:Fire`" in page
    assert "Cards and energies (1/4)" in page
    last = first.message
    for number in (2, 3, 4):
        turned = await harness.emu.click(bob, "Next ▶", message=first.message)
        assert turned.message is not None
        last = turned.message
        assert f"({number}/4)" in shown(last)
    assert "Page 4/4 · Dinocard: each card's text with `/card`" in shown(last)
    await harness.settle()
    packs = await harness.emu.run_command(bob, "dino pack show")
    assert packs.message is not None
    assert "No packs. Make one from your cards of one element" in shown(packs.message)
