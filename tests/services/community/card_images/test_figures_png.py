"""A hand's picture is drawn at every Chocobataille turn (the hand changes with each draw): its encoding
was most of a turn's cost (issue 39: 10 of a turn's 16 ms). Its tiles are flat colours, which PNG's row
filters only make harder to compress, so its rows are written unfiltered: the same pixels, in half the
time, and fewer bytes. Each card's tile is quantized once to its own 31 colours, so a hand's picture is
an 8-bit palette PNG laid out and deflated from one byte a pixel."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from isal import isal_zlib
from PIL import Image, ImageChops

from services.community.card_images import draw, figures
from services.community.card_images.service import CardImages
from services.infra.games import GameRegistry
from services.infra.messages import StripCard


def chunks(data: bytes) -> dict[bytes, bytes]:
    """Each chunk type's data (IDAT's joined), after the signature."""
    out: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body)
        out[kind] = out.get(kind, b"") + body
        at += 12 + length
    return out


def test_a_hands_picture_is_its_tiles_unfiltered_with_its_names(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    images = CardImages(tmp_path, catalogs, registry)
    cards = [StripCard(card.id) for card in catalogs["choco"].cards[:7]]
    data = images.strip_now("choco", cards, "fr", figures=True)
    picture = Image.open(io.BytesIO(data))
    width, height = picture.size
    raw = zlib.decompress(chunks(data)[b"IDAT"])
    stride = width + 1  # a palette index a pixel
    assert {raw[row * stride] for row in range(height)} == {0}  # no row filtered
    names = " · ".join(catalogs["choco"].card(c.card_id).name.get("fr") for c in cards)
    assert picture.info["Description"] == names


def test_an_unfiltered_picture_is_pillows_pixels() -> None:
    picture = Image.new("RGB", (37, 5), (24, 24, 28))
    picture.paste((200, 10, 90), (3, 1, 30, 4))
    picture.putpixel((36, 4), (1, 2, 3))
    ours = Image.open(io.BytesIO(figures.png(picture, "Garde · Mage")))
    assert ours.mode == "RGB"
    assert ours.info["Description"] == "Garde · Mage"
    assert ours.tobytes() == Image.open(io.BytesIO(draw.png(picture))).tobytes() == picture.tobytes()


def test_a_hands_picture_is_deflated_by_isa_l(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its stream is ISA-L's deflate, which took 0.7 ms for a hand of 7 where zlib's fastest level took
    3.3 (docs/performance.md; timings belong to the benchmark, not here): the picture's rows go through
    ISA-L once and zlib compresses nothing, and any PNG reader gives the same pixels back."""
    images = CardImages(tmp_path, catalogs, registry)
    cards = [StripCard(card.id) for card in catalogs["choco"].cards[:7]]
    picture = Image.open(io.BytesIO(images.strip_now("choco", cards, "fr", figures=True))).convert("RGB")
    calls: list[int] = []
    isal_compress = isal_zlib.compress

    def counted(data: bytes, level: int) -> bytes:
        calls.append(len(data))
        return isal_compress(data, level)

    def refused(*_: object) -> bytes:
        raise AssertionError("zlib compressed the picture")

    monkeypatch.setattr(isal_zlib, "compress", counted)
    monkeypatch.setattr(zlib, "compress", refused)
    data = figures.png(picture, "x")
    assert calls == [picture.height * (1 + 3 * picture.width)]
    assert Image.open(io.BytesIO(data)).tobytes() == picture.tobytes()


def test_a_hands_picture_is_a_palette_of_its_cards_tiles_each_quantized_once(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hands sharing cards (a turn's hand, then the next with a card played and one drawn): each card
    is quantized once, and the pictures are 8-bit palettes whose pixels are the tiles as drawn, near
    enough for the eye (a tile's 700 to 900 colours dithered to 31)."""
    images = CardImages(tmp_path, catalogs, registry)
    made: list[Image.Image] = []
    quantized = figures.quantized

    def counted(image: Image.Image) -> figures.PaletteTile:
        made.append(image)
        return quantized(image)

    monkeypatch.setattr(figures, "quantized", counted)
    deck = [card.id for card in catalogs["choco"].cards[:7]]
    first = [StripCard(card) for card in (*deck[:6], deck[0])]  # two copies of a card share its colours
    second = [StripCard(card) for card in (*deck[1:7], deck[0])]
    for cards in (first, second):
        data = images.strip_now("choco", cards, "fr", figures=True)
        picture = Image.open(io.BytesIO(data))
        assert picture.mode == "P"
        distinct = len({card.card_id for card in cards})
        assert len(chunks(data)[b"PLTE"]) == 3 * (1 + 31 * distinct)  # the background, then each card's
        tiles = []
        for card in cards:
            request = images.request("choco", card.card_id, None, "fr")
            name = request.card.name.get("fr")
            color = request.art.color(request.card, request.copy)
            tiles.append(figures.tile("choco", card.card_id, name, color).image)
        assert picture.size == figures.rows(tiles).size
        assert _mean_difference(picture.convert("RGB"), figures.rows(tiles)) < 3
    assert len(made) == 7  # the 7 distinct cards of the two hands, each once


def test_a_line_of_more_than_eight_cards_is_drawn_in_rgb_with_the_same_tiles(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    """A palette holds 1 + 8 × 31 colours: nine distinct cards are an RGB picture of the same tiles."""
    images = CardImages(tmp_path, catalogs, registry)
    cards = [StripCard(card.id) for card in catalogs["choco"].cards[:9]]
    picture = Image.open(io.BytesIO(images.strip_now("choco", cards, "fr", figures=True)))
    assert picture.mode == "RGB"
    eight = Image.open(io.BytesIO(images.strip_now("choco", cards[:8], "fr", figures=True)))
    assert eight.mode == "P"
    top = picture.crop((0, 0, *eight.size))
    assert top.tobytes() == eight.convert("RGB").tobytes()


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    """The mean of every channel's absolute difference, from 0 to 255."""
    histogram = ImageChops.difference(a, b).histogram()  # 256 counts per channel
    return sum((value % 256) * count for value, count in enumerate(histogram)) / (a.width * a.height * 3)
