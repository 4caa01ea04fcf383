"""Immortal's War's first steps: examples/first_steps_immortals.txt as a reader runs it (the /help page
in the order a new player needs, the welcome once with the gold, the 8 units and the one next command,
the four rules pages, a deck's typo answered with the nearest names, refusals naming where to look and
how to earn fragments and gold), and the same first steps in English through Discord."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.messages import shown
from tests.sandbox.first_steps import opened_entry, order_of, run


async def test_the_immortals_first_steps_example() -> None:
    text = await run("immortals")
    assert "niveau 1 · Dragons" in opened_entry(text, "Dragon des brumes · 1", "immortals-mist_dragon.png")
    page = text[text.index("** Immortal's War **") :]
    positions = order_of(
        page,
        "`/immortels règles`",
        "`/immortels entraînement`",
        "`/immortels collection`",
        "`/immortels deck`",
        "`/immortels défi`",
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **100 pièces d'or**, **8 unités de 8 familles différentes**" in text
    assert (
        "➡️ Prochaine étape\u00a0: un duel d'entraînement contre l'IA avec `/immortels entraînement`" in text
    )
    assert "** Gains et classement (4/4) **" in text
    assert (
        "Aucune unité ne s'appelle «\u00a0Diablotn x2\u00a0». Vouliez-vous dire\u00a0: Diablotin\u202f?"
        in text
    )
    assert (
        "Aucun sort ne s'appelle «\u00a0Boule de feu\u00a0». Voyez les sorts avec `/immortels sorts`." in text
    )
    assert (
        "Solde insuffisant\u00a0: il faut 10 fragments d'âme, vous avez 0 fragment d'âme. Gagnez des fragments"
        in text
    )
    assert (
        "Solde insuffisant\u00a0: il faut 150 pièces d'or, vous avez 100 pièces d'or. Gagnez de l'or en duel"
        in text
    )
    assert "Duel d'entraînement n° 1 lancé" in text


async def test_an_english_newcomer_is_welcomed_and_reads_the_rules(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    first = await harness.emu.run_command(bob, "immortals rules")
    assert first.message is not None
    assert first.message.ephemeral
    whole = shown(first.message)  # the welcome first, then what he asked
    welcome, page = whole[: whole.index("➡️")], whole[whole.index("➡️") :]
    assert welcome.startswith("**Welcome to Immortal's War!**")
    assert "**100 gold coins**, **8 units of 8 different families**" in welcome
    assert "Next step: a practice duel against the AI with `/immortals practice`" in page
    assert "Your army (1/4)" in page
    turned = await harness.emu.click(bob, "Next ▶", message=first.message)
    assert turned.message is not None
    assert "A duel (2/4)" in shown(turned.message)
    await harness.settle()
    refused = await harness.emu.run_command(bob, "immortals recruit")
    assert refused.message is not None
    assert "Earn gold in duels: against the AI (`/immortals practice`)" in shown(refused.message)
