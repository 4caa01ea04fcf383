"""/choco economy as players see it through Discord: frogs, odds, collection pages, decks, leagues, the
leaderboard, character names, the daily allowance and the badges on /profile, in French and English.
Copies are seeded through the ledger (as the shop mints them); nothing depends on which cards a frog draws."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from core.clock import to_db
from emulator.world import User
from engine.choco.catalog import ChocoCard, ChocoCatalog
from sandbox.harness import BotHarness
from services.choco import EconomyServices
from services.choco.economy import CHOCO_GOLD
from services.choco.leagues import record_result
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from tests.e2e.choco.helpers import choco, with_bronze_deck
from tests.e2e.messages import public_answer

GRANT = ledger.Movement("test.grant")


def economy(h: BotHarness) -> EconomyServices:
    assert h.bot is not None
    services: EconomyServices = h.bot.services.games["choco"].economy
    return services


def catalog(h: BotHarness) -> ChocoCatalog:
    return economy(h).shop.catalog


def bronze_wizards(h: BotHarness, count: int) -> list[ChocoCard]:
    cards = [c for c in catalog(h).cards if c.rarity in ("bronze_1", "bronze_2") and c.type != "pure"]
    return sorted(cards, key=lambda c: c.id)[:count]


async def give(h: BotHarness, user: User, cards: dict[str, int]) -> None:
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()

    def unit(conn: Connection) -> None:
        ensure_player(conn, user.id, now, services.registry)
        for card, n in cards.items():
            for _ in range(n):
                ledger.mint_card(conn, now, user.id, "choco", card, GRANT)

    await h.bot.services.db.write(unit)


async def results(h: BotHarness, user: User, league: str, wins: int) -> None:
    assert h.bot is not None
    assert h.guild is not None
    services = h.bot.services
    guild, now = h.guild.id, services.clock.now()

    def unit(conn: Connection) -> None:
        ensure_player(conn, user.id, now, services.registry)
        for _ in range(wins):
            record_result(conn, guild, user.id, league, "win", absence_forfeit=False, cards_lost=1)

    await h.bot.services.db.write(unit)


async def galleons(h: BotHarness, user: User) -> int:
    assert h.bot is not None
    return await h.bot.services.db.read(lambda conn: ledger.balance(conn, user.id, CHOCO_GOLD))


def text(result: Any) -> str:
    return str(result.message.render()).replace("\u202f", " ")


async def test_buy_frogs_then_see_the_odds_and_the_daily(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "choco frogs", {"nombre": 3})
    assert reply.ephemeral
    shown = text(reply)
    assert "Chocogrenouilles ouvertes\u00a0: 3" in shown
    assert "Payé 75 gallions. Solde\u00a0: 1 425 gallions." in shown
    assert shown.count("**") >= 6
    assert "PA " in shown or "Effet pur" in shown
    assert await galleons(harness, alice) == 1425

    reply = await harness.emu.run_command(alice, "choco chances")
    shown = text(reply)
    assert "Bronze 1\u00a0: 42\u00a0% (44 cartes, 0,95\u00a0% chacune)" in shown
    assert "Or 1\u00a0: 5,5\u00a0% (14 cartes, 0,39\u00a0% chacune)" in shown
    assert "Or 2\u00a0: 3,4\u00a0% (11 cartes, 0,31\u00a0% chacune)" in shown
    assert "Une chocogrenouille coûte 25 gallions" in shown
    assert "1 425 gallions" in shown

    reply = await harness.emu.run_command(alice, "choco quotidien")
    assert "Vous recevez 50 gallions. Solde\u00a0: 1 475 gallions." in text(reply)
    reply = await harness.emu.run_command(alice, "choco daily")
    assert "Vous avez déjà reçu vos gallions aujourd'hui" in text(reply)
    assert await galleons(harness, alice) == 1475


async def test_too_many_frogs_for_the_wallet_is_refused_in_english(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    for _ in range(6):
        await harness.emu.run_command(bob, "choco frogs", {"count": 10})
    reply = await harness.emu.run_command(bob, "choco frogs", {"count": 1})
    assert (
        "Not enough: 25 galleons needed, you have 0 galleons. Claim your daily allowance (`/choco daily`)"
        in text(reply)
    )
    assert await galleons(harness, bob) == 0
    reply = await harness.emu.run_command(bob, "choco odds")
    assert "Bronze 1: 42% (44 cards, 0.95% each)" in text(reply)
    assert "0 galleons" in text(reply)
    assert "Silver 2: 9.3% (19 cards, 0.49% each)" in text(reply)


async def test_collection_pages_and_filters(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await give(harness, alice, {c.id: 2 for c in bronze_wizards(harness, 12)})
    reply = await harness.emu.run_command(alice, "choco collection")
    shown = text(reply)
    assert reply.ephemeral
    assert "Votre collection\u00a0: 12 cartes différentes, 24 exemplaires" in shown
    assert "1 / 2" in shown
    assert shown.count("2× **") == 10
    reply = await harness.emu.click(alice, "Suivant ▶")
    assert "2 / 2" in text(reply)
    assert text(reply).count("2× **") == 2
    reply = await harness.emu.click(alice, "◀ Précédent")
    assert "1 / 2" in text(reply)
    reply = await harness.emu.run_command(alice, "choco collection", {"rareté": "or_1"})
    assert "Aucune carte ici" in text(reply)


async def test_save_show_and_auto_decks_with_every_reason(harness: BotHarness) -> None:
    alice = harness.user("alice")
    wizards = bronze_wizards(harness, 12)
    await give(harness, alice, {c.id: 2 for c in wizards})
    reply = await harness.emu.run_command(alice, "choco deck", {"ligue": "bronze"})
    assert "Vous n'avez pas encore de pioche pour la Ligue de Bronze" in text(reply)

    typed = ", ".join(f"{c.name.get('fr')} x2" for c in wizards)
    reply = await harness.emu.run_command(alice, "choco deck", {"ligue": "bronze", "cartes": typed})
    shown = text(reply)
    assert "Pioche de la Ligue de Bronze enregistrée." in shown
    assert "Prête à jouer." in shown
    assert "Pioche — Ligue de Bronze (24 cartes)" in shown

    gold_card = next(c for c in catalog(harness).cards if c.rarity == "or_2")
    wrong = f"{wizards[0].id} x3, {gold_card.id}"
    reply = await harness.emu.run_command(alice, "choco deck", {"ligue": "bronze", "cartes": wrong})
    shown = text(reply)
    assert "Pioche refusée" in shown
    assert "Une pioche compte 24 cartes ; celle-ci en a 4." in shown
    assert f"{wizards[0].name.get('fr')}\u00a0: 3 exemplaires, 2 au plus par pioche." in shown
    assert f"{gold_card.name.get('fr')} (Or 2) n'est pas admise en Ligue de Bronze." in shown

    reply = await harness.emu.run_command(alice, "choco deck", {"ligue": "argent", "auto": True})
    assert "Pioche de la Ligue d'Argent composée" in text(reply)
    reply = await harness.emu.run_command(alice, "choco deck", {"ligue": "or", "auto": True, "cartes": "x"})
    assert "pas les deux" in text(reply)


async def test_auto_deck_refusal_in_english(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    await give(harness, bob, {c.id: 2 for c in bronze_wizards(harness, 3)})
    reply = await harness.emu.run_command(bob, "choco deck", {"league": "bronze", "auto": True})
    shown = text(reply)
    assert "No deck can be built" in shown
    assert "make only 6 cards" in shown


async def test_leagues_say_why_and_open_with_the_conditions(harness: BotHarness) -> None:
    alice = harness.user("alice")  # a member since the server's creation, new to the bot
    reply = await harness.emu.run_command(alice, "choco ligues")
    shown = text(reply)
    assert reply.ephemeral
    assert "🔒 Ligue de Bronze" in shown
    assert "Il faut au moins 24 cartes de bronze ; vous en avez 0." in shown
    assert "membre de ce serveur" not in shown
    assert "Il faut avoir gagné une bataille en Ligue de Bronze." in shown
    await give(harness, alice, {c.id: 2 for c in bronze_wizards(harness, 12)})
    reply = await harness.emu.run_command(alice, "choco leagues")
    shown = text(reply)
    assert "✅ Ligue de Bronze" in shown
    assert "🔒 Ligue d'Argent" in shown


async def test_a_new_member_of_the_server_sees_when_the_bronze_league_opens(harness: BotHarness) -> None:
    assert harness.bot is not None
    assert harness.guild is not None
    now = harness.bot.services.clock.now()
    bob, olivia = harness.user("bob"), harness.user("olivia", admin=True)
    harness.emu.world.set_joined(bob, harness.guild, now - timedelta(days=3))
    await give(harness, bob, {c.id: 2 for c in bronze_wizards(harness, 12)})
    opens = int((now + timedelta(days=27)).timestamp())
    reply = await harness.emu.run_command(bob, "choco ligues")
    shown = text(reply)
    assert "🔒 Ligue de Bronze" in shown
    assert (
        f"Il faut être membre de ce serveur depuis 30 jours\u00a0: la ligue vous ouvrira <t:{opens}:R>"
        in shown
    )
    assert f"(<t:{opens}:f>)" in shown

    done = await harness.emu.run_command(olivia, "setup choco", {"ancienneté": 2})
    assert "ancienneté pour la Ligue de Bronze\u00a0: 2 j" in text(done)
    reply = await harness.emu.run_command(bob, "choco ligues")
    assert "✅ Ligue de Bronze" in text(reply)


async def test_challenges_count_membership_from_joining_the_server(harness: BotHarness) -> None:
    """Veterans of the server who are new to the bot may challenge and accept; a new member may do neither
    until the server's requirement is met (VI.1)."""
    assert harness.bot is not None
    assert harness.guild is not None
    now = harness.bot.services.clock.now()
    alice, bob = harness.user("alice"), harness.user("bob")
    for user in (alice, bob):
        await with_bronze_deck(harness, user)

    def new_to_the_bot(conn: Connection) -> None:
        conn.execute("UPDATE players SET created_at = ?", (to_db(now),))

    await harness.bot.services.db.write(new_to_the_bot)
    harness.emu.world.set_joined(bob, harness.guild, now - timedelta(days=3))

    refused = await harness.emu.run_command(bob, "choco défi", {"joueur": alice, "ligue": "Ligue de Bronze"})
    assert refused.message is not None
    assert refused.message.ephemeral
    assert "membre de ce serveur depuis 30 jours" in text(refused)

    made = await harness.emu.run_command(alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"})
    clicked = await harness.emu.click(bob, "Accepter", message=public_answer(made))
    assert clicked.message is not None
    assert "membre de ce serveur depuis 30 jours" in text(clicked)
    assert await choco(harness).games.live_games(alice.id) == []

    harness.emu.world.set_joined(bob, harness.guild, now - timedelta(days=40))
    await harness.emu.click(bob, "Accepter", message=public_answer(made))
    await harness.settle()
    assert len(await choco(harness).games.live_games(alice.id)) == 1


async def test_leaderboard_character_names_and_profile_badges(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob", locale="en-US")
    await results(harness, alice, "bronze", 5)
    await results(harness, alice, "argent", 2)
    await results(harness, alice, "or", 2)
    await results(harness, bob, "bronze", 1)

    reply = await harness.emu.run_command(alice, "choco personnage", {"nom": "@everyone"})
    assert "ne peut contenir ni @" in text(reply)
    reply = await harness.emu.run_command(alice, "choco character", {"name": "  Luna Lovegood "})
    assert "Votre personnage sur ce serveur\u00a0: **Luna Lovegood**." in text(reply)

    reply = await harness.emu.run_command(alice, "choco classement")
    assert reply.message is not None
    assert not reply.message.ephemeral
    shown = text(reply)
    assert "Classement des Chocochefs" in shown
    assert "hRP (2 joueurs)" in shown
    assert "inRP (1 personnage)" in shown
    assert f"1. <@{alice.id}> — 9 pts" in shown
    assert f"2. <@{bob.id}> — 1 pts" in shown
    assert "1. Luna Lovegood — 9 pts" in shown

    reply = await harness.emu.run_command(alice, "profile")
    shown = text(reply)
    assert "Victoires — Bronze\u00a0: 5 · Argent\u00a0: 2 · Or\u00a0: 2" in shown
    assert "Maître des Ligues" in shown
    assert "Champion de la Ligue de Bronze" in shown
    assert "Chocobataille\u00a0: 1 500 gallions" in shown
    reply = await harness.emu.run_command(bob, "profile")
    shown = text(reply)
    assert "Wins — Bronze: 1 · Silver: 0 · Gold: 0" in shown
    assert "Champion" not in shown

    reply = await harness.emu.run_command(alice, "choco character")
    assert "est effacé" in text(reply)
    reply = await harness.emu.run_command(bob, "choco leaderboard")  # after bob's welcome, privately
    board = public_answer(reply).render()  # the server's language
    assert "Aucun joueur classé n'a de nom de personnage" in board
