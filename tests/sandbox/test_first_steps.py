"""The first-steps examples (examples/first_steps_*.txt) as a reader runs them: each line succeeds,
and the output shows each point of a game's first steps — /help's start page and the game's page in the
order a new player needs, the welcome once, the rules pages, the dead ends naming the next command, the
"did you mean" names, the refusal of a purchase saying how to earn more (and HOSS's first deck built).
Every game with a guide has one; the later games' examples are run by their own tests (tests/e2e/<game>/)."""

from __future__ import annotations

from tests.sandbox.first_steps import example, opened_entry, order_of, run, seed_of
from tests.support.registries import every_game


def test_every_game_with_a_guide_has_a_first_steps_example() -> None:
    """A game that declares its first steps shows them in an example readers can run (its own test runs
    it: here for the first three games, in tests/e2e/<game>/ for the others)."""
    guided = [spec.key for spec in every_game().all_games() if spec.guide is not None]
    assert guided
    for key in guided:
        assert example(key).is_file(), f"examples/first_steps_{key}.txt is missing"
        assert seed_of(example(key)) >= 0


async def test_the_hoss_first_steps() -> None:
    text = await run("hoss")
    assert "Rareté et étoiles: Basique 0★" in opened_entry(
        text, "#14 Archer de la canopée", "hoss-syl_archer_1.png"
    )
    page = text[text.index("** HOSS TCG **") :]
    positions = order_of(
        page, "`/hoss règles`", "`/hoss booster`", "`/hoss ouvrir`", "`/hoss deck auto`", "`/hoss rang`"
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **300 or**" in text
    assert "➡️ Prochaine étape\u00a0: `/hoss booster nombre:3`" in text
    assert "** Une manche (2/4) **" in text
    assert "Construisez-en un avec vos cartes\u00a0: `/hoss deck auto`" in text  # a battle without a deck
    assert "Pour obtenir des cartes\u00a0: `/hoss booster`" in text  # the empty collection
    assert "Votre premier deck est prêt (emplacement 1)" in text
    assert "`1` **Deck 1** — Deck valide — actif" in text
    assert "Solde insuffisant\u00a0: il faut 100 or, vous avez 0 or. Gagnez de l'or en combattant" in text
    assert (
        "Aucune carte ne s'appelle «\u00a0Archer de la canope\u00a0». Vouliez-vous dire\u00a0: Archer de la canopée"
        in text
    )
    assert (
        "Aucune carte ne s'appelle «\u00a0Archr de la canopee\u00a0». Vouliez-vous dire\u00a0: Archer de la canopée"
        in text
    )


async def test_the_choco_first_steps() -> None:
    text = await run("choco")
    assert "Exemplaires possédés\u00a0: 2" in opened_entry(
        text, "Jean Trithème ×2", "choco-jean_tritheme.png"
    )
    alice_page, olivia_page = [text[i : text.index("> ", i)] for i in _pages(text, "** Chocobataille **")]
    assert "arbitre-" not in alice_page  # a member who may not referee does not see the referee commands
    assert "`/choco arbitre-prolonger`" in olivia_page  # Manage Server may
    positions = order_of(
        alice_page,
        "`/choco règles`",
        "`/choco chocogrenouilles`",
        "`/choco collection`",
        "`/choco pioche`",
        "`/choco défi`",
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **1\u202f500 gallions**" in text  # grouped as French writes it
    assert "Aucune carte ici. Achetez des chocogrenouilles avec `/choco chocogrenouilles`." in text
    assert "il en faut 24. Achetez des chocogrenouilles avec `/choco chocogrenouilles`." in text
    assert (
        "Solde insuffisant\u00a0: il faut 25 gallions, vous avez 0 gallion. Touchez votre allocation" in text
    )
    assert (
        "Carte inconnue\u00a0: «\u00a0Barnabe Crapo\u00a0». Vouliez-vous dire\u00a0: Barnabé Crapaud\u202f?"
        in text
    )
    assert "Vouliez-vous dire\u00a0: Dorothée Balai\u202f?" in text


async def test_the_pillz_first_steps() -> None:
    text = await run("pillz")
    assert "Exemplaires possédés\u00a0: 1" in opened_entry(
        text, "Druidesse des saules ×1", "pillz-sorcieres-willow-druid.png"
    )
    page = text[text.index("** Pillz duel **") :]
    positions = order_of(
        page,
        "`/pillz règles`",
        "`/pillz entraînement`",
        "`/pillz collection`",
        "`/pillz deck`",
        "`/pillz défi`",
    )
    assert positions == sorted(positions)
    assert "** Qui commence, et votre deck (3/3) **" in text
    assert "➡️ Prochaine étape\u00a0: entraînez-vous contre l'IA avec `/pillz entraînement`" in text
    assert "L'emplacement 2 est vide. Enregistrez-y un deck avec `/pillz deck`" in text
    assert (
        "Personnage inconnu\u00a0: «\u00a0Taisho Hayat\u00a0». Vouliez-vous dire\u00a0: Taishō Hayate\u202f?"
        in text
    )
    assert "Solde insuffisant\u00a0: il faut 100 pièces, vous avez 0 pièce. Gagnez des pièces" in text
    assert "Duel d'entraînement n° 1 lancé" in text
    # « Montrer » under the packs: one button per 4★ or 5★ character, one public post, then « déjà »
    assert "[Montrer\u00a0: Golem à vapeur] [Montrer\u00a0: Ingénieure Ada Rouage]" in text
    post = "[#parties] @alice montre sa carte **Golem à vapeur** (★★★★, Pillz duel)\u202f!\n    [file: pillz-"
    assert text.count(post) == 1
    assert "[alice only] Votre carte est montrée dans ce salon." in text
    assert "[alice only] Cette carte a déjà été montrée." in text


def _pages(text: str, title: str) -> list[int]:
    found, start = [], 0
    while (i := text.find(title, start)) >= 0:
        found.append(i)
        start = i + 1
    return found
