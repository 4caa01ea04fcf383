"""A hand or a line-up as Discord shows it: the cards' figures large, in rows of four, each with its
name on its rarity's colour; a « Voir » select under the message shows any of them whole.

A strip of whole cards at 40 % (144 × 202 a card, a hand of 8 on one row 1,224 pixels wide) wrote a
card's effect at 6 to 7 pixels, and a phone shrinks such a picture further to its width. A tile keeps
what a glance needs (who the card is, its rarity), twice as large on the screen: four tiles of
200 pixels make a row of 832, the figure 126 pixels of each. What a card does is read on the whole card,
opened by the select (its texts at 11 pixels at least, docs/card-images.md).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from isal import isal_zlib
from PIL import Image, ImageChops

from services.community.card_images import artwork, draw
from services.community.card_images.draw import RGB

TILE = (200, 232)
PER_ROW = 4
GAP = 8
NAME = (10, 8, 190, 40)
PICTURE = (8, 46, 192, 224)
BACKGROUND = (24, 24, 28)
ISAL_LEVEL = 1  # level 0 is no faster, for 15 % more bytes; level 2 slower, for 1 % fewer
# A picture of palette tiles: index 0 the background, then each distinct card its own COLOURS entries (a
# hand holds at most 8 cards, rulebook IV.2: 1 + 8 × 31 = 249 of the 256 a PNG palette has).
COLOURS = 31
PALETTE_CARDS = 255 // COLOURS


def _rgb(color: int) -> RGB:
    return (color >> 16 & 255, color >> 8 & 255, color & 255)


def tile(game: str, card_id: str, name: str, color: int, *, audit: bool = False) -> draw.Canvas:
    """One card's tile: its rarity's colour as a frame, its name, its picture."""
    frame = _rgb(color)
    c = draw.canvas(BACKGROUND, audit=audit, size=TILE)
    c.draw.rounded_rectangle([0, 0, TILE[0] - 1, TILE[1] - 1], 12, fill=(16, 16, 20), outline=frame, width=4)
    draw.panel(c, (NAME[0] - 2, NAME[1] - 2, NAME[2] + 2, NAME[3] + 2), (12, 12, 16), frame)
    draw.text_box(
        c, NAME, name, max_size=18, min_size=draw.MIN_TEXT, fill=(255, 255, 255), align="center",
        valign="middle", bold=True,
    )  # fmt: skip
    shown = artwork.picture(game, card_id)
    c.generic = shown.generic
    artwork.illustrate(c.image, PICTURE, shown, draw.seeded(card_id).getrandbits(32), frame)
    return c


def layout(count: int) -> tuple[int, tuple[int, int]]:
    """Rows of four tiles (a hand of 8 is two rows): the columns and the picture's size."""
    columns = max(1, min(PER_ROW, count))
    lines = max(1, -(-count // columns))
    width, height = TILE
    return columns, (columns * width + (columns + 1) * GAP, lines * height + (lines + 1) * GAP)


def origin(index: int, columns: int) -> tuple[int, int]:
    """Where the `index`-th tile's top left corner goes."""
    row, col = divmod(index, columns)
    return GAP + col * (TILE[0] + GAP), GAP + row * (TILE[1] + GAP)


def rows(tiles: Sequence[Image.Image]) -> Image.Image:
    """The tiles in rows of four, on the strips' dark background."""
    columns, size = layout(len(tiles))
    out = Image.new("RGB", size, BACKGROUND)
    for index, image in enumerate(tiles):
        out.paste(image, origin(index, columns))
    return out


@dataclass(frozen=True)
class PaletteTile:
    """A tile quantized once: its pixels as indices (an "L" picture, 0 to COLOURS - 1) into its colours."""

    indices: Image.Image
    colours: bytes  # COLOURS × RGB

    def rgb(self) -> Image.Image:
        shown = self.indices.copy()
        shown.putpalette(self.colours)  # an "L" picture given a palette becomes a "P" one
        return shown.convert("RGB")


def quantized(tile_image: Image.Image) -> PaletteTile:
    """The tile in COLOURS colours (Pillow's fast octree), Floyd-Steinberg dithered against them: a tile
    has 700 to 900 colours (its scene's gradients, the name's anti-aliasing), and its gradients banded
    without the dithering. Made once per card and kept, so a hand's picture quantizes nothing."""
    rgb = tile_image.convert("RGB") if tile_image.mode != "RGB" else tile_image
    chosen = rgb.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    dithered = rgb.quantize(palette=chosen, dither=Image.Dither.FLOYDSTEINBERG)
    colours = bytes((chosen.getpalette() or [])[: COLOURS * 3]).ljust(COLOURS * 3, b"\0")
    return PaletteTile(Image.frombytes("L", dithered.size, dithered.tobytes()), colours)


@cache
def _zeros() -> Image.Image:
    """A tile of zeros, to which `ImageChops.add` adds a card's indices and its palette's offset."""
    return Image.new("L", TILE, 0)


def picture_png(tiles: Sequence[tuple[str, PaletteTile]], description: str) -> bytes:
    """The tiles in rows of four as a PNG: a palette one, or an RGB one past PALETTE_CARDS cards."""
    data = palette_png(tiles, description)
    return data if data is not None else png(rows([tile_.rgb() for _key, tile_ in tiles]), description)


def palette_png(tiles: Sequence[tuple[str, PaletteTile]], description: str) -> bytes | None:
    """`rows` of palette tiles as an 8-bit palette PNG, its rows unfiltered and ISA-L's deflate as `png`:
    one byte a pixel where RGB had three, so a third of the bytes to lay out and deflate, and a smaller
    file (a hand of 7: 1.0 ms and 69 kB against 3.8 ms and 95 kB). Each distinct card (`tiles`' keys) takes
    its own COLOURS entries; None when there are more than PALETTE_CARDS of them (`png` then)."""
    slots: dict[str, int] = {}
    for key, _tile in tiles:
        slots.setdefault(key, len(slots))
    if len(slots) > PALETTE_CARDS:
        return None
    columns, size = layout(len(tiles))
    # one column more on the left, all zeros: each row's filter byte (0, none) before its pixels
    out = Image.new("L", (size[0] + 1, size[1]), 0)
    colours = [bytes(BACKGROUND)] + [b""] * len(slots)
    for index, (key, tile_) in enumerate(tiles):
        slot = slots[key]
        colours[1 + slot] = tile_.colours
        placed = ImageChops.add(tile_.indices, _zeros(), offset=1 + slot * COLOURS)
        x, y = origin(index, columns)
        out.paste(placed, (1 + x, y))
    text = b"Description\0\0\0\0\0" + description.encode()  # iTXt: keyword, uncompressed, no language
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", b"".join(colours)),
            _chunk(b"iTXt", text),
            _chunk(b"IDAT", isal_zlib.compress(out.tobytes(), ISAL_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def png(picture: Image.Image, description: str) -> bytes:
    """`draw.png`'s file, its rows written unfiltered: a hand is drawn again at every turn of its game,
    and Pillow tries each of PNG's row filters on every row of an RGB picture, which on the tiles' flat
    colours cost twice the time of zlib itself for a larger file (a hand of 7: 9.8 ms and 116 kB against
    4.7 ms and 94 kB). The stream is ISA-L's deflate (any PNG reader inflates it): zlib's fastest level
    still took 3.3 ms of a hand of 7, most of what is left of a turn's picture, where ISA-L takes 0.7 ms
    for 107 kB instead of 95."""
    rgb = picture if picture.mode == "RGB" else picture.convert("RGB")
    width, height = rgb.size
    pixels, stride = memoryview(rgb.tobytes()), width * 3
    rows = bytearray((stride + 1) * height)  # each row's filter byte left 0 (none), its pixels copied after
    for row in range(height):
        at = row * (stride + 1) + 1
        rows[at : at + stride] = pixels[row * stride : (row + 1) * stride]
    text = b"Description\0\0\0\0\0" + description.encode()  # iTXt: keyword, uncompressed, no language
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            _chunk(b"iTXt", text),
            _chunk(b"IDAT", isal_zlib.compress(rows, ISAL_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
