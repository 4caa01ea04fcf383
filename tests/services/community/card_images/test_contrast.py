"""Every text on a card reads at WCAG AA: a contrast of at least 4.5:1 with what is behind it, measured
on the finished card (the holo shimmer included), and is at least 11 px and whole."""

from __future__ import annotations

from typing import Any

import pytest

from services.community.card_images import draw
from services.community.card_images.draw import Canvas
from services.community.card_images.spec import CardCopy
from tests.services.community.card_images.conftest import HOSS_RARITIES, art_of
from tests.services.community.card_images.contrast import AA, contrast, unreadable


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
