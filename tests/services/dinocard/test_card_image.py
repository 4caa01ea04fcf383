"""Dinocard's card picture: the cost as bubbles of the element then grey ones, the type's badge, the
capacities in the reader's language, a dinoz's three badges, the rarity's frame."""

from __future__ import annotations

from core.i18n import t
from engine.dinocard import DinocardCatalog
from services.community.card_images.spec import CardCopy
from services.dinocard.card_image import (
    BUBBLE_RADIUS,
    BUBBLES,
    CARD_ART,
    DINOZ,
    GREY_BUBBLE,
    PLAIN_DINOZ,
    SPELL,
    abilities,
)
from services.dinocard.keys import TYPE_KEYS


def texts(
    catalog: DinocardCatalog, card_id: str, locale: str = "fr", copy: CardCopy | None = None
) -> list[str]:
    card = catalog.card(card_id)
    assert card is not None
    canvas = CARD_ART.layout(card, catalog, copy or CARD_ART.default_copy(card), locale, True)
    return [p.text for p in canvas.placed]


def test_the_cost_is_drawn_as_bubbles_of_the_element_then_grey(catalog: DinocardCatalog) -> None:
    left, top = DINOZ[0][:2]
    assert PLAIN_DINOZ[0][:2] == SPELL[0][:2] == (left, top)  # every picture starts at the same corner
    for card in catalog.cards:
        image = CARD_ART.layout(card, catalog, CARD_ART.default_copy(card), "fr", False).image
        bubble = BUBBLES[card.element]
        expected = [bubble] * card.cost.colored + [GREY_BUBBLE] * card.cost.grey
        seen = []
        for index in range(card.cost.total + 1):
            cx = left + 8 + BUBBLE_RADIUS + index * (2 * BUBBLE_RADIUS + 4)
            seen.append(image.getpixel((cx + 3, top + 8 + BUBBLE_RADIUS + 3)))
        assert seen[:-1] == expected, card.id
        assert seen[-1] not in (bubble, GREY_BUBBLE), card.id  # no bubble after the cost


def test_the_type_is_a_badge_and_the_capacities_are_in_the_readers_language(catalog: DinocardCatalog) -> None:
    for card in catalog.cards:
        for locale in ("fr", "en"):
            written = texts(catalog, card.id, locale)
            assert written[0] == card.name.get(locale)
            assert t(TYPE_KEYS[card.type], locale) in written
            if card.abilities:
                assert abilities(card, locale) in written
    ardent = texts(catalog, "moueffe_ardent", "fr")
    assert "Initiative" in ardent
    boule = catalog.card("boule_de_feu")
    assert boule is not None
    assert abilities(boule, "fr") == "3 dégâts au dinoz adverse le plus fort"
    assert abilities(boule, "en") != abilities(boule, "fr")


def test_a_dinoz_shows_force_eclosion_and_endurance_and_other_types_do_not(catalog: DinocardCatalog) -> None:
    kraken = catalog.card("kraken")
    assert kraken is not None
    written = texts(catalog, "kraken")
    for label, value in (("FOR", kraken.force), ("ÉCL", kraken.eclosion), ("END", kraken.endurance)):
        assert label in written
        assert str(value) in written
    assert "ÉCL" in texts(catalog, "moueffe")  # a dinoz without capacities keeps its badges
    assert "ÉCL" not in texts(catalog, "boule_de_feu")
    english = texts(catalog, "kraken", "en")  # the English badges are English words (docs/card-images.md)
    assert "HATCH" in english
    assert "FORCE" in english


def test_each_rarity_has_its_frame_and_colour(catalog: DinocardCatalog) -> None:
    card = catalog.card("kraken")
    assert card is not None
    pictures = {
        rarity: CARD_ART.layout(card, catalog, CardCopy(rarity), "fr", False).image.tobytes()
        for rarity in ("commune", "inhabituelle", "rare")
    }
    assert len(set(pictures.values())) == 3
    assert len({CARD_ART.color(card, CardCopy(r)) for r in pictures}) == 3
    assert CARD_ART.default_copy(card) == CardCopy("rare", 0, False)
