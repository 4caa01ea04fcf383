"""/hoss collection features as players see them through Discord: boosters and their opening, the odds,
the collection, sales, fusion and decks. Copies are seeded through the ledger (as the shop mints them);
nothing depends on which cards a booster draws."""

from __future__ import annotations

import json
import random

import pytest

from emulator.errors import EmulatorError
from emulator.world import User
from sandbox.harness import BotHarness
from store.connection import Connection
from tests.e2e.hoss.helpers import BUFFS, LINES, give, gold, hoss, text
from tests.e2e.messages import after_welcome


class Always(random.Random):
    """A fusion roll that always succeeds (0.0 < any chance) or always fails (0.999...)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


RARE = ("or", "platine", "diamant", "divin")  # what « Montrer » offers to show off


async def owner_and_stars(h: BotHarness, copy_id: int) -> tuple[int | None, int]:
    assert h.bot is not None

    def unit(conn: Connection) -> tuple[int | None, int]:
        owner, attrs = conn.execute("SELECT owner_id, attrs FROM cards WHERE id = ?", (copy_id,)).fetchone()
        return owner, int(json.loads(attrs)["stars"])

    return await h.bot.services.db.read(unit)


# --- boosters -----------------------------------------------------------------------------------------------


async def test_one_booster_costs_100_and_arrives_face_down(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "hoss booster")
    assert reply.ephemeral
    shown = text(reply)
    assert "Boosters Rang 1 achetés\u00a0: 1 pour 100 or. Solde\u00a0: 200 or." in shown
    assert shown.count("face cachée") == 6
    assert "Booster Rang 1" in shown
    assert reply.message is not None
    assert reply.message.button_labels == ["Retourner", "Tout retourner"]
    assert await gold(harness, alice) == 200
    assert "Vendre" not in shown  # nothing is face up yet


async def test_more_than_ten_boosters_or_more_than_the_balance_is_refused(harness: BotHarness) -> None:
    alice = harness.user("alice")
    with pytest.raises(EmulatorError, match="value"):  # Discord itself enforces the option's 1-10 range
        await harness.emu.run_command(alice, "hoss booster", {"nombre": 11})
    reply = await harness.emu.run_command(alice, "hoss booster", {"nombre": 4})
    assert reply.ephemeral
    assert "Solde insuffisant\u00a0: il faut 400 or, vous avez 300 or. Gagnez de l'or en combattant" in text(
        reply
    )
    assert await gold(harness, alice) == 300
    assert await hoss(harness).shop.unopened(alice.id) == []


async def test_race_booster_needs_ten_rank_1_wins(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "hoss booster", {"type": "race"})
    assert "Choisissez la race d'un booster Race." in text(reply)
    reply = await harness.emu.run_command(alice, "hoss booster", {"race": "orc"})
    assert "se débloque après 10 victoires au Rang 1 (vous en avez 0)" in text(reply)
    assert await gold(harness, alice) == 300


async def test_flip_one_by_one_then_all_then_the_next_booster(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss booster", {"count": 2})
    assert await gold(harness, alice) == 100
    first, second = await hoss(harness).shop.unopened(alice.id)
    reply = await harness.emu.click(alice, "Retourner")
    assert reply.message is not None
    (face_down,) = reply.message.attachments
    reply = await harness.emu.click(alice, "Retourner")
    shown = text(reply)
    assert shown.count("face cachée") == 4
    assert reply.message is not None
    (picture,) = reply.message.attachments  # the booster's picture, replaced at each flip
    assert picture.filename == "booster.png"
    assert picture.data != face_down.data
    assert reply.message.embeds[0]["image"]["url"] == "attachment://booster.png"
    assert "`1` **" in shown
    assert "`2` **" in shown
    assert "`3` face" in shown
    opening = await hoss(harness).shop.opening(alice.id, first.id)
    names = [slot.card.name.fr for slot in opening.cards if slot.card is not None]
    assert len(names) == 2
    # In the order flipped (a booster may hold the same card twice, so each name is read at its place).
    assert f"`1` **{names[0]}" in shown
    assert f"`2` **{names[1]}" in shown
    assert reply.message is not None
    assert reply.message.select_options == [f"Vendre {name}" for name in names]
    reply = await harness.emu.click(alice, "Tout retourner")
    shown = text(reply)
    assert "face cachée" not in shown
    assert "Boosters encore fermés: 1" in shown
    assert reply.message is not None
    labels = reply.message.button_labels
    assert [label for label in labels if not label.startswith("Montrer\u00a0: ")] == ["Booster suivant"]
    opening = await hoss(harness).shop.opening(alice.id, first.id)
    rare = [s.card.name.fr for s in opening.cards if s.card is not None and s.rarity in RARE]
    assert [label for label in labels if label.startswith("Montrer\u00a0: ")] == [
        f"Montrer\u00a0: {n}" for n in rare
    ]
    reply = await harness.emu.click(alice, "Booster suivant")
    assert text(reply).count("face cachée") == 6
    assert [o.id for o in await hoss(harness).shop.unopened(alice.id)] == [second.id]
    reply = await harness.emu.run_command(alice, "hoss ouvrir")  # /hoss open resumes the same booster
    assert reply.message is not None
    assert text(reply).count("face cachée") == 6
    assert reply.message.button_labels[0] == "Retourner"


async def test_sell_a_flipped_card_on_the_spot(harness: BotHarness) -> None:
    alice = harness.user("alice")
    for line in LINES:  # six different Rang 1 already: whatever the booster holds may be sold
        await give(harness, alice, f"{line}_1")
    await harness.emu.run_command(alice, "hoss booster")
    reply = await harness.emu.click(alice, "Retourner")
    (opening,) = await hoss(harness).shop.unopened(alice.id)
    slot = (await hoss(harness).shop.opening(alice.id, opening.id)).cards[0]
    assert slot.card is not None
    assert slot.price is not None
    reply = await harness.emu.select(alice, f"Vendre {slot.card.name.fr}")
    shown = text(reply)
    assert (
        f"Vendu\u00a0: {slot.card.name.fr} pour {slot.price} or. Solde\u00a0: {200 + slot.price} or." in shown
    )
    assert f"~~{slot.card.name.fr}~~" in shown
    assert "vendue" in shown
    assert await gold(harness, alice) == 200 + slot.price
    owner, _ = await owner_and_stars(harness, slot.copy_id or 0)
    assert owner is None


# --- odds ---------------------------------------------------------------------------------------------------


async def test_the_odds_table_in_each_language(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob", locale="en-US")
    shown = text(await harness.emu.run_command(alice, "hoss chances"))
    assert "Argent\u00a0: 9\u00a0% (ou mieux\u00a0: 1 sur 10)" in shown
    assert "Divin\u00a0: 0,004\u00a0% (ou mieux\u00a0: 1 sur 25 000)" in shown
    assert "1 chance sur 50 000" in shown
    assert (
        "**Booster Rang 1**\u00a0: 100\u00a0% de Rang 1 · 0\u00a0% de Rang 2 · 0\u00a0% de Rang 3"
        " — 100 or (Race\u00a0: 250 or)" in shown
    )
    locked = (
        "🔒 Booster Rang 2\u00a0: 96,875\u00a0% de Rang 1 · 2,5\u00a0% de Rang 2 · 0,625\u00a0% de Rang 3"
        " — 200 or (Race\u00a0: 500 or)"
    )
    assert locked in shown
    assert (
        "🔒 Booster Rang 9\u00a0: 75\u00a0% de Rang 1 · 20\u00a0% de Rang 2 · 5\u00a0% de Rang 3"
        " — 900 or (Race\u00a0: 2 250 or)" in shown
    )
    assert "Booster Race\u00a0: 0/10 victoires au Rang 1" in shown
    assert "Solde\u00a0: 300 or" in shown
    english = text(await harness.emu.run_command(bob, "hoss odds"))
    assert "Gold: 0.875% (or better: 1 in 100)" in english
    assert "🔒 Rank 4 booster: 90.625% Rank 1" in english


async def test_every_unlocked_booster_is_offered_and_a_locked_one_refused(harness: BotHarness) -> None:
    """A Rang 3 player sees and buys the Rang 1, 2 and 3 boosters; the Rang 4 one stays locked."""
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss chances")  # creates the player

    def unit(conn: Connection) -> None:
        conn.executemany(
            "INSERT INTO hoss_rank_progress (player_id, rank, wins) VALUES (?, ?, 10)",
            [(alice.id, 1), (alice.id, 2)],
        )

    assert harness.bot is not None
    await harness.bot.services.db.write(unit)
    shown = text(await harness.emu.run_command(alice, "hoss chances"))
    for tier in (1, 2, 3):
        assert f"**Booster Rang {tier}**\u00a0:" in shown
    assert "🔒 Booster Rang 4\u00a0:" in shown
    assert "boosters Rang 1 à Rang 3" in shown
    reply = await harness.emu.run_command(alice, "hoss booster", {"nombre": 2, "rang": 1})
    assert "Boosters Rang 1 achetés\u00a0: 2 pour 200 or. Solde\u00a0: 100 or." in text(reply)
    refused = text(await harness.emu.run_command(alice, "hoss booster", {"rang": 4}))
    assert "Le booster Rang 4 n'est pas encore débloqué" in refused
    assert "Rang 1 à Rang 3" in refused
    assert await gold(harness, alice) == 100


# --- collection ---------------------------------------------------------------------------------------------


async def test_collection_pages_filters_and_detail(harness: BotHarness) -> None:
    alice = harness.user("alice")
    for line in LINES:  # 6 Rang 1 × 3 copies = 18, plus 5 buffs: 23 copies, 3 pages
        for _ in range(3):
            await give(harness, alice, f"{line}_1")
    for _ in range(5):
        await give(harness, alice, "buff_soins")
    special = await give(harness, alice, "orc_mage_1", rarity="or", stars=2, holo=True)
    reply = await harness.emu.run_command(alice, "hoss collection")
    shown = text(reply)
    assert reply.message is not None
    assert reply.message.ephemeral
    assert "Collection — page 1/3 (24 cartes)" in shown
    assert shown.index(f"#{special}") < shown.index("Basique")  # rarest first by default
    reply = await harness.emu.click(alice, "Suivant ▶")
    assert "page 2/3" in text(reply)
    reply = await harness.emu.click(alice, "Suivant ▶")
    assert "page 3/3" in text(reply)
    assert "Suivant ▶ (disabled)" in text(reply)
    reply = await harness.emu.click(alice, "◀ Précédent")
    assert "page 2/3" in text(reply)
    reply = await harness.emu.run_command(alice, "hoss collection", {"race": "Orc", "classe": "Mage"})
    shown = text(reply)
    assert "page 1/1 (4 cartes)" in shown
    assert "Chaman des cendres" in shown
    assert "Légionnaire" not in shown
    reply = await harness.emu.select(alice, f"#{special} Chaman des cendres")
    detail = await hoss(harness).collection.detail(alice.id, special)
    assert detail.creature is not None
    shown = text(reply)
    assert reply.message is not None
    assert reply.message.ephemeral
    assert "Or 2★ holo" in shown
    assert "Chance d'évolution" in shown
    assert f"PV: {detail.creature.pv:.1f}".replace(".", ",").removesuffix(",0") in shown
    reply = await harness.emu.run_command(alice, "hoss collection", {"type": "buff", "tri": "newest"})
    assert "page 1/1 (5 cartes)" in text(reply)
    assert "Rosée de jouvence" in text(reply)


# --- sales --------------------------------------------------------------------------------------------------


async def test_sell_one_copy_found_by_autocomplete(harness: BotHarness) -> None:
    alice = harness.user("alice")
    first = [await give(harness, alice, f"{line}_1") for line in LINES]
    copy = await give(harness, alice, "orc_mage_1", rarity="argent")
    choices = await harness.emu.autocomplete(alice, "hoss sell card", "copy", "chaman")
    assert sorted(c["value"] for c in choices) == [first[1], copy]
    assert all("Chaman des cendres" in c["name"] for c in choices)
    reply = await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": copy})
    assert "Vendu\u00a0: Chaman des cendres pour 20 or. Solde\u00a0: 320 or." in text(reply)
    reply = await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": copy})
    assert "n'est pas (ou plus) à vous" in text(reply)
    assert await gold(harness, alice) == 320


async def test_bulk_sale_shows_the_total_and_sells_after_confirmation(harness: BotHarness) -> None:
    alice = harness.user("alice")
    kept = [await give(harness, alice, f"{line}_1") for line in LINES]
    extra = [await give(harness, alice, "orc_mage_1") for _ in range(2)]
    extra += [await give(harness, alice, "buff_soins", rarity="argent") for _ in range(2)]  # one is kept
    reply = await harness.emu.run_command(alice, "hoss vendre doublons")
    shown = text(reply)
    assert "Devis\u00a0: 3 cartes pour 24 or" in shown
    assert "2 × Chaman des cendres (Basique)" in shown
    assert reply.message is not None
    assert reply.message.button_labels == ["Confirmer la vente"]
    assert await gold(harness, alice) == 300
    reply = await harness.emu.click(alice, "Confirmer la vente")
    assert "Vente confirmée\u00a0: 3 cartes vendues pour 24 or. Solde\u00a0: 324 or." in text(reply)
    assert reply.message is not None
    assert reply.message.button_labels == []
    assert await gold(harness, alice) == 324
    assert [(await owner_and_stars(harness, c))[0] for c in kept] == [alice.id] * 6
    owners = [(await owner_and_stars(harness, c))[0] for c in extra]
    assert owners.count(None) == 3


async def test_bulk_sale_refuses_a_stale_quote_and_keeps_six_rank_1(harness: BotHarness) -> None:
    alice = harness.user("alice")
    for line in LINES:
        await give(harness, alice, f"{line}_1")
    extra = await give(harness, alice, "orc_mage_1")
    reply = await harness.emu.run_command(alice, "hoss sell filtered", {"rank": 1})
    shown = text(reply)
    assert "Devis\u00a0: 1 carte pour 2 or" in shown
    assert "6\u00a0: à garder" in shown
    await harness.emu.run_command(alice, "hoss sell card", {"copy": extra})
    reply = await harness.emu.click(alice, "Confirmer la vente")
    assert reply.message is not None
    assert "Votre collection a changé depuis le devis" in text(reply)
    assert reply.message.ephemeral
    assert await gold(harness, alice) == 302
    reply = await harness.emu.run_command(alice, "hoss sell filtered")
    assert "Choisissez au moins un filtre" in text(reply)


# --- fusion -------------------------------------------------------------------------------------------------


async def test_chain_fusion_of_every_star_level(harness: BotHarness) -> None:
    alice = harness.user("alice")
    hoss(harness).fusion.rng = Always(0.0)
    zero = [await give(harness, alice, "orc_mage_1") for _ in range(2)]
    zero.append(await give(harness, alice, "orc_mage_1", rarity="or"))
    one = [await give(harness, alice, "orc_mage_1", stars=1) for _ in range(2)]
    choices = await harness.emu.autocomplete(alice, "hoss fuse", "card", "")
    assert [c["value"] for c in choices] == ["orc_mage_1"]
    assert "0★ ×3 · 1★ ×2" in choices[0]["name"]
    reply = await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})
    shown = text(reply)
    assert "Fusion de Chaman des cendres\u00a0: 2 paires" in shown
    assert f"#{zero[2]} (Or 0★) + #{zero[1]} (Basique 0★) → 1★\u00a0: 80\u00a0%" in shown  # the Or survives
    assert f"#{one[0]} (Basique 1★) + #{one[1]} (Basique 1★) → 2★\u00a0: 65\u00a0%" in shown
    assert reply.message is not None
    assert reply.message.button_labels == ["Fusionner"]
    reply = await harness.emu.click(alice, "Fusionner")
    shown = text(reply)
    assert "2/2 réussies" in shown
    assert f"#{zero[2]} passe de 0★ à 1★" in shown
    assert await owner_and_stars(harness, zero[2]) == (alice.id, 1)
    assert await owner_and_stars(harness, one[0]) == (alice.id, 2)
    assert (await owner_and_stars(harness, zero[1]))[0] is None
    assert (await owner_and_stars(harness, one[1]))[0] is None
    assert await owner_and_stars(harness, zero[0]) == (alice.id, 0)  # the odd copy stays out


async def test_fusion_of_one_level_that_fails(harness: BotHarness) -> None:
    alice = harness.user("alice")
    hoss(harness).fusion.rng = Always(0.999)
    first, second = [await give(harness, alice, "buff_soins", stars=3) for _ in range(2)]
    await give(harness, alice, "buff_soins", stars=1)
    reply = await harness.emu.run_command(alice, "hoss fuse", {"card": "Rosée de jouvence", "stars": 3})
    assert "1 paire" in text(reply)
    assert "→ 4★\u00a0: 25\u00a0%" in text(reply)
    reply = await harness.emu.click(alice, "Fusionner")
    assert "0/1 réussie" in text(reply)
    assert f"Échec\u00a0: #{first} reste à 3★" in text(reply)
    assert await owner_and_stars(harness, first) == (alice.id, 3)
    assert (await owner_and_stars(harness, second))[0] is None
    reply = await harness.emu.run_command(alice, "hoss fuse", {"card": "buff_soins", "stars": 2})
    assert "Rien à fusionner" in text(reply)


async def test_a_five_star_as_four_star_needs_its_own_confirmation(harness: BotHarness) -> None:
    alice = harness.user("alice")
    hoss(harness).fusion.rng = Always(0.0)
    five = await give(harness, alice, "sq_guerrier_1", stars=5)
    four = await give(harness, alice, "sq_guerrier_1", rarity="platine", stars=4)
    reply = await harness.emu.run_command(alice, "hoss fuse", {"card": "sq_guerrier_1"})
    assert "Rien à fusionner" in text(reply)  # a chain never uses a 5★
    reply = await harness.emu.run_command(alice, "hoss fuse", {"card": "sq_guerrier_1", "five-as-four": True})
    shown = text(reply)
    assert (
        f"la 5★ (exemplaire n°{five}) sert de 4★ et sera perdue même en cas d'échec (12\u00a0% de réussite)"
        in shown
    )
    assert reply.message is not None
    assert reply.message.button_labels == ["Confirmer et fusionner"]
    reply = await harness.emu.click(alice, "Confirmer et fusionner")
    assert "1/1 réussie" in text(reply)
    assert f"#{four} passe de 4★ à 5★" in text(reply)
    assert await owner_and_stars(harness, four) == (alice.id, 5)
    assert (await owner_and_stars(harness, five))[0] is None


async def test_a_fusion_preview_goes_stale_when_the_copies_change(harness: BotHarness) -> None:
    alice = harness.user("alice")
    copies = [await give(harness, alice, "orc_mage_1", rarity="argent") for _ in range(2)]
    await harness.emu.run_command(alice, "hoss fuse", {"card": "orc_mage_1"})
    await harness.emu.run_command(alice, "hoss sell card", {"copy": copies[1]})
    reply = await harness.emu.click(alice, "Fusionner")
    assert "rien n'a été fusionné" in text(reply)
    assert await owner_and_stars(harness, copies[0]) == (alice.id, 0)


# --- decks --------------------------------------------------------------------------------------------------


async def own_deck(h: BotHarness, user: User) -> None:
    for line in [*LINES, "hum_defenseur"]:
        await give(h, user, f"{line}_1")
    for buff in BUFFS:
        await give(h, user, buff)


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        ([*LINES, "hum_guerrier"], "Un deck contient exactement 6 lignes ; celui-ci en a 7."),
        ([*LINES[:3], *LINES[4:], "hum_defenseur"], "2 Défenseurs maximum par deck ; celui-ci en a 3."),
        ([*LINES[:5], "orc_mage"], "La ligne Chaman des cendres apparaît plusieurs fois"),
        ([*LINES[:5], "syl_mage"], "Vous ne possédez pas la carte de Rang 1 de la ligne Semeur de spores"),
    ],
    ids=["seven_lines", "three_defenders", "duplicate_line", "not_owned"],
)
async def test_each_invalid_deck_is_refused_with_its_reason(
    harness: BotHarness, lines: list[str], reason: str
) -> None:
    alice = harness.user("alice")
    await own_deck(harness, alice)
    options = {"slot": 1, "name": "Essai", "lines": ", ".join(lines), "buffs": ", ".join(BUFFS)}
    reply = await harness.emu.run_command(alice, "hoss deck save", options)
    assert reply.ephemeral
    assert "Deck refusé, rien n'a été enregistré" in text(reply)
    assert reason in text(reply)
    assert "Aucun deck enregistré" in text(await harness.emu.run_command(alice, "hoss deck list"))


async def test_a_valid_deck_is_saved_shown_and_made_active(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await own_deck(harness, alice)
    await give(harness, alice, "orc_mage_2a", rarity="or")
    lines = "sq_guerrier, Chaman des cendres, syl_archer, hum_cavalier_1, sq_defenseur, orc_defenseur"
    options = {
        "emplacement": 2,
        "nom": "Mon deck",
        "lignes": lines,
        "buffs": "Rosée de jouvence, buff_vitesse",
    }
    reply = await harness.emu.run_command(alice, "hoss deck enregistrer", options)
    shown = text(reply)
    assert "Deck enregistré à l'emplacement 2." in shown
    assert "Deck 2 — Mon deck" in shown
    assert "Deck valide" in shown
    assert "Rang 2 · **Invocateur de brasiers** (Or 0★, +" in shown
    assert "PV " in shown
    assert "blocage" in shown
    assert "**Rosée de jouvence** — Soins (" in shown
    reply = await harness.emu.run_command(alice, "hoss deck active", {"slot": 2})
    assert "Le deck 2 «\u00a0Mon deck\u00a0» est maintenant votre deck actif." in text(reply)
    assert "Deck 2 — Mon deck (actif)" in text(reply)
    assert "`2` **Mon deck** — Deck valide — actif" in text(
        await harness.emu.run_command(alice, "hoss deck list")
    )
    setup = await hoss(harness).decks.deck_setup(alice.id)
    assert "orc_mage_2a" in setup.deck


async def test_a_deck_shows_every_reason_once_it_became_invalid(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob", locale="en-GB")
    await own_deck(harness, alice)
    options = {"slot": 1, "name": "A", "lines": ", ".join(LINES), "buffs": ", ".join(BUFFS)}
    await harness.emu.run_command(alice, "hoss deck save", options)
    page = await hoss(harness).collection.list_copies(alice.id, sort="name", locale="fr")
    sold = [c.copy_id for c in page.items if c.card.id in ("orc_mage_1", "buff_soins")]
    for copy in sold:
        await hoss(harness).sale.sell(alice.id, copy, key=f"test-{copy}")
    shown = text(await harness.emu.run_command(alice, "hoss deck show", {"slot": 1}))
    assert "Deck invalide (2 problèmes)" in shown
    fix = "complétez ce deck avec `/hoss deck enregistrer emplacement:1 …`"
    assert f"Vous ne possédez plus la carte de Rang 1 de la ligne Chaman des cendres\u00a0: {fix}" in shown
    assert f"Vous ne possédez plus le buff Rosée de jouvence\u00a0: {fix}" in shown
    await harness.emu.run_command(alice, "settings language", {"language": "en"})
    english = text(await harness.emu.run_command(alice, "hoss deck show", {"slot": 1}))
    assert "You no longer own the Rank 1 card of line Ash Shaman: complete this deck with" in english
    assert (
        "You no longer own the buff Dew of Youth: complete this deck with `/hoss deck save slot:1 …`"
        in english
    )
    english = text(await harness.emu.run_command(bob, "hoss deck show", {"slot": 1}))
    # bob has none; errors are private and localized, and name the next command
    assert after_welcome(english) == (  # bob's first HOSS command: its welcome on top
        "No deck is saved in slot 1. Build one with `/hoss deck auto` or `/hoss deck save`."
    )


async def test_an_english_player_gets_english_replies(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-GB")
    shown = text(await harness.emu.run_command(bob, "hoss booster"))
    assert "Rank 1 boosters bought: 1 for 100 gold. Balance: 200 gold." in shown
    assert shown.count("face down") == 6
    ladder = text(await harness.emu.run_command(bob, "hoss rank"))
    assert "Rank 1" in ladder
    assert "Rang" not in ladder
    refused = text(await harness.emu.run_command(bob, "hoss deck show", {"slot": 1}))
    assert refused == "No deck is saved in slot 1. Build one with `/hoss deck auto` or `/hoss deck save`."


async def test_selling_a_rare_card_from_a_booster_asks_first(harness: BotHarness) -> None:
    alice = harness.user("alice")
    for line in LINES:
        await give(harness, alice, f"{line}_1")
    await harness.emu.run_command(alice, "hoss booster")
    await harness.emu.click(alice, "Retourner")
    (opening,) = await hoss(harness).shop.unopened(alice.id)
    slot = (await hoss(harness).shop.opening(alice.id, opening.id)).cards[0]
    assert slot.card is not None
    assert harness.bot is not None
    attrs = '{"rarity": "or", "stars": 0, "holo": false}'
    await harness.bot.services.db.write(
        lambda conn: conn.execute("UPDATE cards SET attrs = ? WHERE id = ?", (attrs, slot.copy_id))
    )
    price = (await hoss(harness).shop.opening(alice.id, opening.id)).cards[0].price
    name = slot.card.name.fr

    asked = await harness.emu.select(alice, f"Vendre {name}")
    assert asked.message is not None
    assert f"Vendre **{name}** (Or) pour {price} or ?" in text(asked)
    assert asked.message.button_labels[-2:] == ["Confirmer la vente", "Garder la carte"]
    assert await gold(harness, alice) == 200  # nothing sold yet
    kept = await harness.emu.click(alice, "Garder la carte")
    assert kept.message is not None
    assert "Confirmer la vente" not in kept.message.button_labels
    assert await gold(harness, alice) == 200

    await harness.emu.select(alice, f"Vendre {name}")
    sold = await harness.emu.click(alice, "Confirmer la vente")
    assert f"Vendu\u00a0: {name} pour {price} or. Solde\u00a0: {200 + (price or 0)} or." in text(sold)
    assert await gold(harness, alice) == 200 + (price or 0)
    owner, _ = await owner_and_stars(harness, slot.copy_id or 0)
    assert owner is None
