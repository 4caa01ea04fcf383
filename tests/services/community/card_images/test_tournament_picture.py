"""A Swiss tournament's standings are drawn again after every match (179 times in examples/tournament.txt):
their texts' glyphs are rendered once and laid again (`text.draw_text`), and their PNG's rows are written
unfiltered (`figures.png`). Both are cheaper ways to the same picture: these tests hold them to Pillow's
own drawing and encoding, pixel for pixel, and the picture's text alternative to what it says."""

from __future__ import annotations

import io
import zlib
from typing import Any

import pytest
from PIL import Image, ImageDraw

from services.community.card_images import draw, tournament
from services.community.card_images import text as typo
from services.infra.messages import Text
from tests.services.community.card_images.test_figures_png import chunks


def swiss(players: int) -> dict[str, Any]:
    """Standings as the tournament's post stores them, an erased player's name empty."""
    title = Text("tournaments.heading", {"number": 1, "title": "Tournoi Pillz duel"}).to_json()
    subtitle = Text("tournaments.picture.after_round", {"round": 3, "rounds": 6}).to_json()
    rows = [
        [place, "" if place == 2 else f"Joueuse n°{place} « Æ »", 12 - place % 9, 41 - place % 13,
         place % 4, place % 2, place % 3]
        for place in range(1, players + 1)
    ]  # fmt: skip
    return {"title": title, "subtitle": subtitle, "rows": rows}


@pytest.mark.parametrize("players", [5, 64])
def test_the_standings_png_is_pillows_picture_and_says_what_it_shows(players: int) -> None:
    canvas, described = tournament.standings(swiss(players), "fr")
    data = tournament.png("standings", swiss(players), "fr")
    ours, pillows = Image.open(io.BytesIO(data)), Image.open(io.BytesIO(draw.png(canvas.image, described)))
    assert ours.mode == pillows.mode == "RGB"
    assert ours.size == pillows.size
    assert ours.tobytes() == pillows.tobytes()
    assert ours.info["Description"] == pillows.info["Description"] == described
    assert "2 un joueur anonyme" in described
    width, height = ours.size
    raw = zlib.decompress(chunks(data)[b"IDAT"])
    assert {raw[row * (3 * width + 1)] for row in range(height)} == {0}  # no row filtered


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_glyphs_laid_again_are_the_pixels_pillow_draws(mode: str, bold: bool) -> None:
    """At whole and fractional pen positions (right-aligned texts start anywhere in a pixel), drawn twice
    (the second time from the kept glyphs), on a picture and on an audit's one-band mask; a text of
    several lines goes through Pillow's own layout."""
    fill: Any = (240, 238, 244) if mode == "RGB" else 255
    texts = ["12-0-3", "Joueuse « Æ » l’aube…", "a\nb", "", "ŒŸ\u202f!"]
    positions = [(10, 4), (17.25, 30.5), (3.999, 61.01), (120.5, 88.75)]
    ours, pillows = Image.new(mode, (300, 130), 40), Image.new(mode, (300, 130), 40)
    for _ in range(2):
        for index, value in enumerate(texts):
            x, y = positions[index % len(positions)]
            xy = (x + 37 * index, y)
            typo.draw_text(ImageDraw.Draw(ours), xy, value, 15, fill, bold=bold)
            ImageDraw.Draw(pillows).text(xy, typo.displayed(value), font=typo.font(15, bold), fill=fill)
        assert ours.tobytes() == pillows.tobytes()
    assert ours.getbbox() is not None
