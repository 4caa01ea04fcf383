"""Immortal's War's card picture: the level from the copy (as stars), Attack and Defense at that level as
D2 dice, the favourite terrain's badge, the family, and the unit's own bonuses dimmed until reached."""

from __future__ import annotations

from PIL import Image

from engine.immortals import ImmortalsCard, ImmortalsCatalog
from services.community.card_images.draw import Canvas
from services.community.card_images.spec import CardCopy
from services.immortals.card_image import CARD_ART, INK_DIM, INK_LIGHT, TEXT_PANEL, level_of


def unit(catalog: ImmortalsCatalog, card_id: str) -> ImmortalsCard:
    card = catalog.card(card_id)
    assert card is not None
    return card


def drawn(catalog: ImmortalsCatalog, card_id: str, level: int, locale: str = "fr") -> Canvas:
    return CARD_ART.layout(unit(catalog, card_id), catalog, CardCopy(None, level), locale, True)


def test_the_level_comes_from_the_copy_and_sets_the_dice(catalog: ImmortalsCatalog) -> None:
    card = unit(catalog, "imp")
    pictures = set()
    for level in range(1, 6):
        canvas = drawn(catalog, "imp", level)
        written = [p.text for p in canvas.placed]
        assert f"Niveau {level}" in written
        assert f"{card.attack[level - 1]}D2" in written
        assert f"{card.defense[level - 1]}D2" in written
        pictures.add(canvas.image.tobytes())
    assert len(pictures) == 5
    assert CARD_ART.default_copy(card) == CardCopy(None, 1, False)  # /card shows a new copy
    assert [level_of(CardCopy(None, s)) for s in (0, 1, 5, 6, 9)] == [1, 1, 5, 1, 1]


def test_terrain_family_and_labels_in_each_language(catalog: ImmortalsCatalog) -> None:
    french = [p.text for p in drawn(catalog, "imp", 1, "fr").placed]
    english = [p.text for p in drawn(catalog, "imp", 1, "en").placed]
    assert french[0] == "Diablotin"
    assert english[0] == "Imp"
    assert "Désert" in french
    assert "Démons · Commune" in french
    assert {"ATQ", "DÉF"} <= set(french)
    assert {"ATK", "DEF", "Level 1"} <= set(english)
    assert "Dès le niveau 3\u00a0: +1 ATQ" in french
    assert "From level 3: +1 ATK" in english


def brightest(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    extrema = image.convert("L").crop(box).getextrema()
    assert isinstance(extrema[1], int)
    return extrema[1]


def test_a_bonus_is_dimmed_until_the_level_reaches_it(catalog: ImmortalsCatalog) -> None:
    card = unit(catalog, "imp")
    assert [b.level for b in card.bonuses] == [3, 5]
    for level, lit in ((1, (False, False)), (3, (True, False)), (5, (True, True))):
        canvas = drawn(catalog, "imp", level)
        rows = [p for p in canvas.placed if p.box[1] >= TEXT_PANEL[1] and p.box[3] <= TEXT_PANEL[3]]
        assert len(rows) == 2
        for row, on in zip(rows, lit, strict=True):
            ink = brightest(canvas.image, row.box)
            assert (ink > (sum(INK_DIM) // 3 + sum(INK_LIGHT) // 3) // 2) == on, (level, row.text, ink)


def test_each_tier_has_its_colour(catalog: ImmortalsCatalog) -> None:
    colours = {CARD_ART.color(card, CardCopy()) for card in catalog.cards}
    assert len(colours) == len({card.tier for card in catalog.cards}) == 3
