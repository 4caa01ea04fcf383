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

from isal import isal_zlib
from PIL import Image

from services.community.card_images import artwork, draw
from services.community.card_images.draw import RGB

TILE = (200, 232)
PER_ROW = 4
GAP = 8
NAME = (10, 8, 190, 40)
PICTURE = (8, 46, 192, 224)
BACKGROUND = (24, 24, 28)
ISAL_LEVEL = 1  # level 0 is no faster, for 15 % more bytes; level 2 slower, for 1 % fewer


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


def rows(tiles: Sequence[Image.Image]) -> Image.Image:
    """The tiles in rows of four (a hand of 8 is two rows), on the strips' dark background."""
    columns = max(1, min(PER_ROW, len(tiles)))
    count = max(1, -(-len(tiles) // columns))
    width, height = TILE
    out = Image.new(
        "RGB", (columns * width + (columns + 1) * GAP, count * height + (count + 1) * GAP), BACKGROUND
    )
    for index, image in enumerate(tiles):
        row, col = divmod(index, columns)
        out.paste(image, (GAP + col * (width + GAP), GAP + row * (height + GAP)))
    return out


def png(picture: Image.Image, description: str) -> bytes:
    """`draw.png`'s file, its rows written unfiltered: a hand is drawn again at every turn of its game,
    and Pillow tries each of PNG's row filters on every row of an RGB picture, which on the tiles' flat
    colours cost twice the time of zlib itself for a larger file (a hand of 7: 9.8 ms and 116 kB against
    4.7 ms and 94 kB). The stream is ISA-L's deflate (any PNG reader inflates it): zlib's fastest level
    still took 3.3 ms of a hand of 7, most of what is left of a turn's picture, where ISA-L takes 0.7 ms
    for 107 kB instead of 95."""
    rgb = picture if picture.mode == "RGB" else picture.convert("RGB")
    width, height = rgb.size
    pixels, stride = rgb.tobytes(), width * 3
    rows = b"".join(b"\0" + pixels[at : at + stride] for at in range(0, stride * height, stride))
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
