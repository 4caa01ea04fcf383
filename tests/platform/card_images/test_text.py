"""Text on cards: the embedded font's gaps are filled (accents, ★), and a fitted text stays in its box."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from PIL import Image, ImageDraw

from core.i18n import catalogs as messages
from services.platform.card_images import text as typo

MISSING = "\uffff"  # a code point no font has: the font's "missing glyph" box


def glyph(char: str) -> bytes:
    return bytes(typo.font(20).getmask(char))


def ink(value: str, size: int = 24) -> Image.Image:
    image = Image.new("L", (600, 80))
    typo.draw_text(ImageDraw.Draw(image), (10, 10), value, size, 255)
    return image


def test_the_supported_characters_are_in_the_embedded_font() -> None:
    missing = glyph(MISSING)
    assert [c for c in sorted(typo.SUPPORTED) if c != " " and glyph(c) == missing] == []


def test_the_embedded_font_lacks_accented_letters_so_they_are_composed() -> None:
    """The negative control: drawn by the font alone, "é" is the missing-glyph box, like "★"."""
    assert glyph("é") == glyph(MISSING)
    assert glyph("★") == glyph(MISSING)
    assert "é" not in typo.SUPPORTED


@pytest.mark.parametrize(
    ("accented", "plain"),
    [
        ("é", "e"),
        ("à", "a"),
        ("ê", "e"),
        ("ç", "c"),
        ("ï", "i"),
        ("Éléphant", "Elephant"),
        ("Taishō", "Taisho"),
    ],
)
def test_accents_render(accented: str, plain: str) -> None:
    with_marks, without = ink(accented), ink(plain)
    assert with_marks.tobytes() != without.tobytes()
    assert sum(with_marks.histogram()[1:]) > sum(without.histogram()[1:])  # more ink: the marks


def test_different_accents_draw_differently() -> None:
    drawn = {ink(c).tobytes() for c in "eéèêë"}
    assert len(drawn) == 5


def test_a_star_is_drawn() -> None:
    assert ink("★").getbbox() is not None


def undrawn(values: set[str], skipped: tuple[str, ...]) -> set[str]:
    """Characters of `values` the shaper can only replace with "?" (control characters aside)."""
    unknown: set[str] = set()
    for char in set("".join(values)) - {"?"}:
        if unicodedata.category(char) in ("Cc", *skipped):
            continue
        if "?" in "".join(p.text for p in typo.shape(char, 16).pieces):
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
    assert undrawn(texts, ("So", "Mn", "Cf", "Cs")) - {"⇝", "↳", "→", "←", "𓂬"} == set()


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
    if drawn is not None:  # measured in pixels: the font's boxes and the drawn marks included
        assert drawn[0] >= 20 - 1
        assert drawn[1] >= 20
        assert drawn[2] <= 20 + box[2] + 1
        assert drawn[3] <= 20 + box[3]


def test_a_text_too_long_for_its_box_is_cut_with_an_ellipsis() -> None:
    fitted = typo.fit("mot " * 200, 100, 40, 20, 10)
    assert fitted.size == 10
    assert fitted.lines[-1].endswith("…")
