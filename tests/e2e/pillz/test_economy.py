"""/pillz economy as players see it through Discord, in French and English: the starter deck in the
collection, packs, odds, saving and activating decks, the leaderboard, the /profile line and /card.
Nothing depends on which characters a pack or the starter draws: the tests read them back."""

from __future__ import annotations

from typing import Any

from engine.pillz.catalog import PillzCard, PillzCatalog
from engine.pillz.packs import STAR_ODDS_PM
from sandbox.harness import BotHarness
from services.infra import ledger
from services.pillz import PillzEconomy
from services.pillz.economy import PILLZ_GOLD

GRANT = ledger.Movement("test.grant")


def economy(h: BotHarness) -> PillzEconomy:
    assert h.bot is not None
    services: PillzEconomy = h.bot.services.games["pillz"].economy
    return services


def catalog(h: BotHarness) -> PillzCatalog:
    return economy(h).shop.catalog


async def owned(h: BotHarness, player_id: int) -> list[PillzCard]:
    counts = await economy(h).collection.counts(player_id)
    return [c for c in catalog(h).cards if counts.get(c.id)]


async def coins(h: BotHarness, player_id: int) -> int:
    assert h.bot is not None
    return await h.bot.services.db.read(lambda conn: ledger.balance(conn, player_id, PILLZ_GOLD))


def text(result: Any) -> str:
    return str(result.message.render()).replace("\u202f", " ")


async def test_starter_packs_odds_and_decks_in_french(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "pillz collection")
    shown = text(reply)
    assert reply.ephemeral
    assert "Bienvenue ! Vous recevez votre deck de départ\u00a0: 8 personnages" in shown
    assert "Votre collection\u00a0: 8 personnages différents, 8 exemplaires" in shown
    assert "1× **" in shown
    starter = await owned(harness, alice.id)
    assert len(starter) == 8
    assert all(c.stars <= 2 and not c.leader for c in starter)
    reply = await harness.emu.run_command(alice, "pillz collection")
    assert "Bienvenue" not in text(reply)

    reply = await harness.emu.run_command(alice, "pillz paquets", {"nombre": 2})
    shown = text(reply)
    assert "Paquets ouverts\u00a0: 2" in shown
    assert "Paquet 1" in shown
    assert "Paquet 2" in shown
    assert "Payé 200 pièces. Solde\u00a0: 100 pièces." in shown
    assert await coins(harness, alice.id) == 100
    reply = await harness.emu.run_command(alice, "pillz paquets", {"nombre": 2})
    assert "Solde insuffisant\u00a0: il faut 200 pièces, vous avez 100 pièces. Gagnez des pièces" in text(
        reply
    )

    reply = await harness.emu.run_command(alice, "pillz chances")
    shown = text(reply)
    ones = sum(1 for c in catalog(harness).cards if c.stars == 1)
    assert f"★\u00a0: 40\u00a0% ({ones} personnages)" in shown
    assert "★★★★★\u00a0: 3\u00a0%" in shown
    assert STAR_ODDS_PM[3] == 180
    assert "★★★\u00a0: 18\u00a0%" in shown
    assert "Un paquet coûte 100 pièces" in shown
    assert "100 pièces" in shown

    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 1})
    shown = text(reply)
    assert "Deck 1 (8 personnages)" in shown
    assert "Prêt à jouer." in shown
    assert "Oui\u00a0: vos duels" in shown
    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 2})
    assert "L'emplacement 2 est vide." in text(reply)

    typed = ", ".join(c.name.get("fr") for c in reversed(starter))
    reply = await harness.emu.run_command(
        alice, "pillz deck", {"emplacement": 2, "personnages": typed, "activer": True}
    )
    shown = text(reply)
    assert "Deck 2 enregistré et activé." in shown
    assert "Oui\u00a0: vos duels" in shown
    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 1})
    assert "Deck actif" in text(reply)
    assert "Non." in text(reply)
    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 1, "activer": True})
    assert "Le deck 1 est maintenant votre deck actif." in text(reply)

    mine = {c.id for c in await owned(harness, alice.id)}
    missing = next(c for c in catalog(harness).cards if c.id not in mine and c.stars == 5)
    wrong = f"{starter[0].id}, {starter[0].id}, {missing.id}"
    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 3, "personnages": wrong})
    shown = text(reply)
    assert "Deck refusé" in shown
    assert "Un deck compte de 8 à 12 personnages ; celui-ci en a 3." in shown
    assert f"{starter[0].name.get('fr')} y est 2 fois" in shown
    assert (
        f"Vous ne possédez pas {missing.name.get('fr')}\u00a0: voyez vos personnages avec `/pillz collection`."
        in shown
    )
    reply = await harness.emu.run_command(alice, "pillz deck", {"emplacement": 3, "personnages": "Personne"})
    assert "Personnage inconnu\u00a0: «\u00a0Personne\u00a0»." in text(reply)

    clan = starter[0].clan
    reply = await harness.emu.run_command(
        alice, "pillz collection", {"clan": clan, "étoiles": starter[0].stars}
    )
    shown = text(reply)
    assert starter[0].name.get("fr") in shown
    assert "Filtre" in shown


async def test_collection_pages(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "pillz collection")
    assert harness.bot is not None
    now = harness.bot.services.clock.now()
    extra = [c.id for c in catalog(harness).cards if c.stars >= 3][:12]

    def unit(conn: Any) -> None:
        for card in extra:
            ledger.mint_card(conn, now, alice.id, "pillz", card, GRANT)

    await harness.bot.services.db.write(unit)
    reply = await harness.emu.run_command(alice, "pillz collection")
    assert "Votre collection\u00a0: 20 personnages différents, 20 exemplaires" in text(reply)
    assert "1 / 2" in text(reply)
    reply = await harness.emu.click(alice, "Suivant ▶")
    assert "2 / 2" in text(reply)
    assert text(reply).count("1× **") == 10
    reply = await harness.emu.click(alice, "◀ Précédent")
    assert "1 / 2" in text(reply)


async def test_leaderboard_profile_and_card_in_english(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob", locale="en-US")
    reply = await harness.emu.run_command(bob, "pillz odds")
    assert "★: 40% (" in text(reply)
    assert "300 coins" in text(reply)
    reply = await harness.emu.run_command(bob, "pillz leaderboard")
    assert reply.message is not None
    assert not reply.message.ephemeral  # public: in the server's language, not bob's
    assert "Personne n'a encore joué de duel entre amis sur ce serveur." in text(reply)
    odile = harness.user("odile", admin=True)
    await harness.emu.run_command(odile, "configuration langue", {"langue": "English (anglais)"})

    assert harness.guild is not None
    await harness.emu.run_command(alice, "pillz collection")
    first, second = await economy(harness).ladder.record(harness.guild.id, 1, (alice.id, bob.id), 0)
    assert (first.gold, first.rating_after, second.rating_after) == (40, 1016, 984)
    reply = await harness.emu.run_command(bob, "pillz leaderboard")
    shown = text(reply)
    assert "Pillz duel leaderboard (2 players)" in shown
    assert f"1. <@{alice.id}> — 1,016 Elo · 1 duel: 1 W / 0 D / 0 L" in shown
    assert f"2. <@{bob.id}> — 984 Elo · 1 duel: 0 W / 0 D / 1 L" in shown
    reply = await harness.emu.run_command(alice, "pillz classement")
    assert "Pillz duel leaderboard (2 players)" in text(reply)  # the server's language for alice too

    reply = await harness.emu.run_command(bob, "profile")
    shown = text(reply)
    assert "Elo 984 · 1 duel: 0 W / 0 D / 1 L" in shown
    assert "Pillz duel: 300 coins" in shown
    reply = await harness.emu.run_command(alice, "profil")
    assert "Elo 1 016 · 1 duel\u00a0: 1 V / 0 N / 0 D" in text(reply)
    assert "Pillz duel\u00a0: 340 pièces" in text(reply)

    card = next(c for c in catalog(harness).cards if c.ability is not None and c.ability.value > 0)
    assert card.ability is not None
    reply = await harness.emu.run_command(bob, "card", {"name": f"pillz:{card.id}"})
    shown = text(reply)
    assert card.name.get("en") in shown
    assert "Power (P)" in shown
    assert str(card.power) in shown
    assert f"{card.ability.name.get('en')}: " in shown
    assert "★" * card.stars in shown
    reply = await harness.emu.run_command(alice, "carte", {"nom": f"pillz:{card.id}"})
    assert "Puissance (P)" in text(reply)
    assert f"{card.ability.name.get('fr')}\u00a0: " in text(reply)
