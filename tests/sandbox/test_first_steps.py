"""The three first-steps examples (examples/first_steps_*.txt) as a reader runs them: each line succeeds,
and the output shows each point of a game's first steps — /help's start page and the game's page in the
order a new player needs, the welcome once, the rules pages, the dead ends naming the next command, the
"did you mean" names, the refusal of a purchase saying how to earn more (and HOSS's first deck built)."""

from __future__ import annotations

from pathlib import Path

from sandbox.main import run_sandbox

ROOT = Path(__file__).resolve().parents[2]


async def run(tmp_path: Path, game: str, seed: int) -> str:
    lines: list[str] = []
    script = ROOT / "examples" / f"first_steps_{game}.txt"
    code = await run_sandbox(
        script=str(script), db_path=str(tmp_path / "db.sqlite3"), out=lines.append, seed=seed
    )
    text = "\n".join(lines)
    assert code == 0, text
    assert "Commencer ici: 1. Choisissez un jeu" in text
    assert text.count("**Bienvenue dans") == 1  # once per player and game
    return text


def order_of(text: str, *needles: str) -> list[int]:
    return [text.index(n) for n in needles]


async def test_the_hoss_first_steps(tmp_path: Path) -> None:
    text = await run(tmp_path, "hoss", 5)
    page = text[text.index("** HOSS TCG **") :]
    positions = order_of(
        page, "`/hoss règles`", "`/hoss booster`", "`/hoss ouvrir`", "`/hoss deck auto`", "`/hoss rang`"
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **300 or**" in text
    assert "➡️ Prochaine étape : `/hoss booster nombre:3`" in text
    assert "** Une manche (2/4) **" in text
    assert "Construisez-en un avec vos cartes : `/hoss deck auto`" in text  # a battle without a deck
    assert "Pour obtenir des cartes : `/hoss booster`" in text  # the empty collection
    assert "Votre premier deck est prêt (emplacement 1)" in text
    assert "`1` **Deck 1** — Deck valide — actif" in text
    assert "Solde insuffisant (Or HOSS) : il faut 100, vous avez 0. Gagnez de l'or en combattant" in text
    assert (
        "Aucune carte ne s'appelle « Archer de la canope ». Vouliez-vous dire : Archer de la canopée" in text
    )
    assert (
        "Aucune carte ne s'appelle « Archr de la canopee ». Vouliez-vous dire : Archer de la canopée" in text
    )


async def test_the_choco_first_steps(tmp_path: Path) -> None:
    text = await run(tmp_path, "choco", 8)
    alice_page, olivia_page = [text[i : text.index("> ", i)] for i in _pages(text, "** Chocobataille **")]
    assert "arbitre-" not in alice_page  # a member who may not referee does not see the referee commands
    assert "`/choco arbitre-prolonger`" in olivia_page  # Manage Server may
    positions = order_of(
        alice_page,
        "`/choco règles`",
        "`/choco chocogrenouilles`",
        "`/choco collection`",
        "`/choco pioche`",
        "`/choco defi`",
    )
    assert positions == sorted(positions)
    assert "Vous avez reçu **1\u202f500 gallions**" in text  # grouped as French writes it
    assert "Aucune carte ici. Achetez des chocogrenouilles avec `/choco chocogrenouilles`." in text
    assert "il en faut 24. Achetez des chocogrenouilles avec `/choco chocogrenouilles`." in text
    assert "Solde insuffisant (Gallions) : il faut 25, vous avez 0. Touchez votre allocation" in text
    assert "Carte inconnue : « Barnabe Crapo ». Vouliez-vous dire : Barnabé Crapaud ?" in text
    assert "Vouliez-vous dire : Dorothée Balai ?" in text


async def test_the_pillz_first_steps(tmp_path: Path) -> None:
    text = await run(tmp_path, "pillz", 3)
    page = text[text.index("** Pillz duel **") :]
    positions = order_of(
        page,
        "`/pillz règles`",
        "`/pillz entrainement`",
        "`/pillz collection`",
        "`/pillz deck`",
        "`/pillz defi`",
    )
    assert positions == sorted(positions)
    assert "** Qui commence, et votre deck (3/3) **" in text
    assert "➡️ Prochaine étape : entraînez-vous contre l'IA avec `/pillz entrainement`" in text
    assert "L'emplacement 2 est vide. Enregistrez-y un deck avec `/pillz deck`" in text
    assert "Personnage inconnu : « Taisho Hayat ». Vouliez-vous dire : Taishō Hayate ?" in text
    assert "Solde insuffisant (Pièces) : il faut 100, vous avez 0. Gagnez des pièces" in text
    assert "Duel d'entraînement n° 1 lancé" in text


def _pages(text: str, title: str) -> list[int]:
    found, start = [], 0
    while (i := text.find(title, start)) >= 0:
        found.append(i)
        start = i + 1
    return found
