"""Every text on a card reads at WCAG AA: a contrast of at least 4.5:1 with what is behind it, measured
on the finished card (the holo shimmer included), and is at least 11 px and whole."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter

from services.platform.card_images import draw
from services.platform.card_images.draw import Canvas, Placed
from services.platform.card_images.spec import CardCopy
from tests.platform.card_images.conftest import HOSS_RARITIES, art_of

AA = 4.5
BACKGROUND_SHARE = 0.05  # the background's darkest-for-the-text 5 %: a stray outline pixel aside


def luminance(color: tuple[int, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color[0]) + 0.7152 * channel(color[1]) + 0.0722 * channel(color[2])


def ratio(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def _luminances(image: Image.Image, selection: Image.Image) -> list[tuple[float, int]]:
    """(luminance, pixel count) of each colour of `image` where `selection` is set."""
    marked = Image.new("RGBA", image.size, (0, 0, 0, 0))
    marked.paste(image.convert("RGBA"), (0, 0), selection)
    colors = marked.getcolors(image.width * image.height) or []
    return [(luminance(color), count) for count, color in colors if isinstance(color, tuple) and color[3]]


def contrast(image: Image.Image, placed: Placed) -> float | None:
    """The text's contrast on the finished card: its ink (the pixels its glyphs cover fully, their median
    luminance) against the background around the glyphs (a ring of 2 pixels the text does not touch),
    at the background's 5th percentile from the text's side: 95 % of what borders the letters reads at
    least this well. None when the text drew nothing."""
    if placed.ink is None or placed.mask is None:
        return None
    crop = image.crop(placed.mask_box)
    glyph = placed.mask.point(lambda v: 255 if v >= 200 else 0)
    ring = ImageChops.subtract(
        placed.mask.filter(ImageFilter.MaxFilter(5)).point(lambda v: 255 if v else 0),
        placed.mask.point(lambda v: 255 if v else 0),
    )
    text, background = _luminances(crop, glyph), _luminances(crop, ring)
    if not text or not background:
        return None
    ink = _percentile(sorted(text), 0.5)
    ordered = sorted(background, key=lambda item: ratio(ink, item[0]))
    return ratio(ink, _percentile(ordered, BACKGROUND_SHARE))


def _percentile(values: list[tuple[float, int]], share: float) -> float:
    """The value at `share` of the weighted list (pixels counted)."""
    total = sum(count for _, count in values)
    seen = 0
    for value, count in values:
        seen += count
        if seen > share * total:
            return value
    return values[-1][0]


def unreadable(canvases: dict[Any, Canvas]) -> list[tuple[Any, str, float]]:
    found = []
    for key, canvas in canvases.items():
        for placed in canvas.placed:
            value = contrast(canvas.image, placed)
            if value is not None and value < AA:
                found.append((key, placed.text, round(value, 2)))
    return found


@pytest.fixture(scope="module")
def hoss_copies(catalogs: dict[str, Any]) -> dict[tuple[str, str, bool], Canvas]:
    """Every HOSS rarity, plain and holo, on a card of each class and the buffs."""
    catalog, art = catalogs["hoss"], art_of("hoss")
    out = {}
    for card in catalog.cards[::7]:
        for rarity in HOSS_RARITIES:
            for holo in (False, True):
                out[(card.id, rarity, holo)] = art.layout(
                    card, catalog, CardCopy(rarity, 3, holo), "fr", True
                )
    return out


def test_every_text_of_every_card_reads_at_aa(drawn: dict[tuple[str, str, str], Canvas]) -> None:
    assert unreadable(drawn) == []


def test_every_hoss_rarity_and_the_holo_read_at_aa(hoss_copies: dict[tuple[str, str, bool], Canvas]) -> None:
    assert unreadable(hoss_copies) == []


def test_every_text_is_at_least_11_px_and_whole(
    drawn: dict[tuple[str, str, str], Canvas], hoss_copies: dict[tuple[str, str, bool], Canvas]
) -> None:
    """A card is shown at its size (360 px wide) on a phone: 11 px is the smallest text it writes, and no
    text is cut with "…" to fit."""
    canvases: dict[Any, Canvas] = {**drawn, **hoss_copies}
    small = [(k, p.text, p.size) for k, c in canvases.items() for p in c.placed if p.size < draw.MIN_TEXT]
    cut = [(k, p.text) for k, c in canvases.items() for p in c.placed if p.cut]
    assert (small, cut) == ([], [])


def test_grey_on_brown_is_caught() -> None:
    """The negative control: a dim grey label on a brown panel, as a level bonus not reached was drawn on
    a bronze frame, measures under 4.5:1; white on the same panel passes."""
    canvas = draw.canvas((84, 50, 26), audit=True)
    draw.text_box(
        canvas, (20, 20, 300, 60), "Dès le niveau 3 : +1 ATQ", max_size=17, min_size=11, fill=(130, 128, 136)
    )
    draw.text_box(
        canvas, (20, 80, 300, 120), "Dès le niveau 3 : +1 ATQ", max_size=17, min_size=11, fill=(255,) * 3
    )
    grey, white = (contrast(canvas.image, p) for p in canvas.placed)
    assert grey is not None
    assert grey < AA
    assert white is not None
    assert white >= AA


def test_a_cut_text_is_reported() -> None:
    canvas = draw.canvas(audit=True)
    draw.text_box(
        canvas, (0, 0, 60, 14), "une capacité bien trop longue", max_size=12, min_size=11, fill=(255,) * 3
    )
    assert canvas.placed[0].cut


def test_the_shimmer_leaves_the_texts_clear(catalogs: dict[str, Any]) -> None:
    """A holo copy's texts are drawn on what was behind them, not under the rainbow bands."""
    catalog, art = catalogs["hoss"], art_of("hoss")
    card = catalog.card("hum_mage_2a")
    plain = art.layout(card, catalog, CardCopy("or", 2, False), "fr", True)
    holo = art.layout(card, catalog, CardCopy("or", 2, True), "fr", True)
    box = plain.placed[-1].box
    assert plain.image.crop(box).tobytes() == holo.image.crop(box).tobytes()
    assert plain.image.tobytes() != holo.image.tobytes()
