"""The preparation page through Discord, as the rulebook has it: « La page de préparation du combat vous
montre aussi les cartes disponibles dans votre collection. Vous pouvez cliquer sur une de vos cartes pour
l'ajouter en tant que cartes bonus pour ce combat. Les cartes bonus choisies sont visibles dans la liste de
droite. Que vous ayez ajouté des cartes bonus ou pas, il vous suffit de cliquer sur Lancer le Défi dès
que vous êtes prêt à suivre le combat. » The page lists the collection's free cards, filters them by
element and type, adds and removes bonus cards with a select up to the skill's number, and launches."""

from __future__ import annotations

from services.dinocard.results import MATCHES
from tests.e2e.dinocard.helpers import dino, packs_ready, prepared
from tests.e2e.messages import shown


async def test_bonus_cards_are_chosen_from_the_collection_on_the_page(harness) -> None:
    h = harness
    alice = h.user("alice")
    _, theirs = await packs_ready(h)
    await h.emu.run_command(alice, "dino pack compétences", {"pack": "Braise", "compétence": "bonus"})
    page = await prepared(h, theirs)
    text = shown(page)
    assert "Cartes bonus (0 / 1)" in text
    assert (
        "Votre collection\u00a0: cartes libres à ajouter (tous les éléments, tous les types — page 1 /"
        in text
    )
    assert "2 exemplaires possibles" in text

    water = await h.emu.select(alice, "Eau", message=page)
    assert water.message is not None
    page = water.message
    assert "(Eau, tous les types — page 1 / 1)" in shown(page)
    cards = dino(h).battles.cards
    waters = [c for c in cards.values() if c.element == "eau" and c.rarity == "commune"]
    assert all(f"**{c.name.fr}**" in shown(page) for c in waters)

    added = await h.emu.select(alice, waters[0].name.fr, message=page)
    assert added.message is not None
    page = added.message
    assert "Cartes bonus (1 / 1)" in shown(page)
    assert "Ajouter une carte bonus" not in str(page.all_components())  # the skill's number is reached

    removed = await h.emu.select(alice, waters[0].name.fr, message=page)
    assert removed.message is not None
    assert "Cartes bonus (0 / 1)" in shown(removed.message)
    added = await h.emu.select(alice, waters[0].name.fr, message=removed.message)
    assert added.message is not None

    launch = await h.emu.click(alice, "Lancer le Défi", message=added.message)
    assert launch.message is not None
    await h.settle()
    (match,) = await dino(h).battles.db.read(lambda conn: MATCHES.live_of(conn, alice.id))
    assert match.setup[0]["extra"]["bonus"] == [waters[0].id]


async def test_a_stranger_cannot_drive_the_page(harness) -> None:
    h = harness
    _, theirs = await packs_ready(h)
    page = await prepared(h, theirs)
    control = next(
        str(c["custom_id"])
        for c in page.all_components()
        if str(c.get("custom_id", "")).startswith("dino:bel:")
    )
    carol = h.user("carol")
    refused = await h.emu.forge_component(carol, control, values=["1"])
    assert refused.message is not None
    assert refused.message.ephemeral
    assert "Ce message ne vous est pas destiné." in shown(refused.message)


async def test_the_first_page_is_sorted_in_the_readers_language(harness) -> None:
    """`/dino défi`'s first page lists the free cards in the reader's order, as every later page does."""
    h = harness
    carol = h.user("carol", locale="en-US")
    made = await h.emu.run_command(carol, "dino pack créer", {"nom": "Ember", "élément": "feu"})
    assert made.message is not None
    _, theirs = await packs_ready(h)
    page = await h.emu.run_command(carol, "dino défi", {"pack": "Ember", "adversaire": f"#{theirs}"})
    assert page.message is not None
    battles = dino(h).battles

    def order(locale: str | None) -> list[str]:
        return [c.name.en for c in sorted(battles.cards.values(), key=battles.collection_rank(locale))]

    english, default = order("en-US"), order(None)
    assert english != default  # the test can tell the two orders apart
    text = shown(page.message)
    listed = sorted((n for n in english if f"**{n}**" in text), key=text.index)
    assert len(listed) >= 2
    assert listed == [n for n in english if n in listed]
