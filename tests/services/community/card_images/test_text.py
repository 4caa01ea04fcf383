"""Text on cards: the shipped font draws every French glyph, and a fitted text stays in its box."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from PIL import Image, ImageDraw

from core.i18n import catalogs as messages
from services.community.card_images import text as typo

MISSING = "\ue000"  # a private-use code point the font does not have: its "missing glyph" box
FRENCH = "ŒœÆæ«»’…\u202f\u00a0éèêëàâçîïôûùüÿÉÈÊÀÇÎÔÛ★☆×•–—"


def glyph(char: str, bold: bool = False) -> bytes:
    return bytes(typo.font(20, bold).getmask(char))


def ink(value: str, size: int = 24) -> Image.Image:
    image = Image.new("L", (600, 80))
    typo.draw_text(ImageDraw.Draw(image), (10, 10), value, size, 255)
    return image


@pytest.mark.parametrize("bold", [False, True])
def test_every_french_glyph_is_in_the_font(bold: bool) -> None:
    """Œ œ « » ’ … and the narrow no-break space are the font's own glyphs, not its missing-glyph box:
    no « OEuvre »."""
    missing = glyph(MISSING, bold)
    assert missing  # the box is drawn: the comparison below can fail
    drawn = [c for c in FRENCH if not c.isspace()]
    assert [c for c in drawn if glyph(c, bold) == missing] == []
    assert all(typo.covered(c) for c in FRENCH)
    assert typo.font(20, bold).getlength("\u202f") > 0
    assert typo.displayed("Grand Œuvre « à l’aube… »\u202f!") == "Grand Œuvre « à l’aube… »\u202f!"


def test_a_character_outside_the_font_is_its_decomposition_or_a_question_mark() -> None:
    """The negative control: a character the subset lacks is not drawn as the missing-glyph box."""
    assert not typo.covered(MISSING)
    assert typo.displayed("ﬁn") == "fin"  # the ligature decomposes
    assert typo.displayed("Ǆ") == "DŽ"
    assert typo.displayed(MISSING) == "?"


def test_accents_and_ligatures_render_as_their_own_glyphs() -> None:
    drawn = {ink(c).tobytes() for c in "eéèêë"}
    assert len(drawn) == 5
    assert ink("Œuvre").tobytes() != ink("OEuvre").tobytes()
    assert ink("★").getbbox() is not None


def undrawn(values: set[str], skipped: tuple[str, ...]) -> set[str]:
    """Characters of `values` the font can only replace with "?" (control characters aside)."""
    unknown: set[str] = set()
    for char in set("".join(values)) - {"?"}:
        if unicodedata.category(char) in ("Cc", *skipped):
            continue
        if "?" in typo.displayed(char):
            unknown.add(char)
    return unknown


def test_every_character_of_the_catalogs_is_drawn(catalogs: dict[str, Any]) -> None:
    texts = {card.model_dump_json() for catalog in catalogs.values() for card in catalog.cards}
    texts |= {catalog.model_dump_json() for catalog in catalogs.values()}
    assert undrawn(texts, ()) == set()


def test_every_letter_of_the_messages_is_drawn() -> None:
    """Labels and rarities come from the message catalogs; their emoji and arrows (symbols, "So") belong
    to chat messages, not to cards."""
    texts = {value for table in messages().values() for value in table.values()}
    assert undrawn(texts, ("So", "Mn", "Cf", "Cs")) - {"⇝", "↳", "🃏"} == set()


BOXES = [
    (
        "Une capacité très longue qui décrit à la fois les dégâts, les soins et les marqueurs posés.",
        (0, 0, 200, 60),
    ),
    ("Anticonstitutionnellementdéraisonnablement", (0, 0, 120, 40)),
    ("Court", (0, 0, 300, 100)),
    ("Ligne un\nLigne deux\nLigne trois\nLigne quatre\nLigne cinq", (0, 0, 150, 40)),
    ("Élan", (0, 0, 8, 8)),
]


@pytest.mark.parametrize(("value", "box"), BOXES)
def test_a_fitted_text_stays_in_its_box(value: str, box: tuple[int, int, int, int]) -> None:
    fitted = typo.fit(value, box[2], box[3], 24, 8)
    assert fitted.height <= box[3]
    assert all(typo.width(line, fitted.size) <= box[2] for line in fitted.lines)
    image = Image.new("L", (box[2] + 40, box[3] + 40))
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(fitted.lines):
        typo.draw_text(draw, (20, 20 + index * typo.line_height(fitted.size)), line, fitted.size, 255)
    drawn = image.getbbox()
    if drawn is not None:  # measured in pixels, the accents included
        assert drawn[0] >= 20 - 1
        assert drawn[1] >= 20
        assert drawn[2] <= 20 + box[2] + 1
        assert drawn[3] <= 20 + box[3]


def test_a_text_too_long_for_its_box_is_cut_with_an_ellipsis() -> None:
    fitted = typo.fit("mot " * 200, 100, 40, 20, 10)
    assert fitted.size == 10
    assert fitted.lines[-1].endswith("…")
