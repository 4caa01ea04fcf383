"""Text on cards, in DejaVu Sans Condensed (regular and bold), shipped in data/fonts/.

The font holds every French glyph (Œ œ « » ’ … and the narrow no-break space U+202F) and the signs a
card shows (★ ☆ × • – —): a card writes its texts as they are, the same on every machine, since nothing
is read from the machine's fonts. The file is a subset of the pinned npm package `dejavu-fonts-ttf`
(tools/gen_card_font.py, `glyphs.RANGES`); a character outside it is drawn as its compatibility
form (NFKC, else NFKD without its marks) when the font has that, else as "?", and the tests check that
no card and no message catalog needs the "?". `fit` wraps and shrinks a text until it fits its box,
and cuts it with "…" at the smallest size rather than let it overflow.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from services.community.card_images.glyphs import RANGES

Font = ImageFont.FreeTypeFont
Color = int | tuple[int, int, int] | tuple[int, int, int, int]  # an int on a one-band mask

FONTS = Path(__file__).resolve().parents[3] / "data" / "fonts"
REGULAR = FONTS / "DejaVuSansCondensed.ttf"
BOLD = FONTS / "DejaVuSansCondensed-Bold.ttf"


def covered(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in RANGES)


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def line_height(size: int) -> int:
    """A line's box: the font's ascent + descent, which holds accents above capitals and a cedilla."""
    ascent, descent = font(size).getmetrics()
    return ascent + descent


@lru_cache(maxsize=4096)
def displayed(text: str) -> str:
    """`text` as the font can draw it: unchanged when every character is in the font (every catalog and
    message text), else each missing one replaced by its decomposition or "?"."""
    if all(covered(char) or char == "\n" for char in text):
        return text
    out = []
    for char in text:
        if covered(char) or char == "\n":
            out.append(char)
            continue
        composed = unicodedata.normalize("NFKC", char)
        if all(covered(c) for c in composed):
            out.append(composed)
            continue
        bare = [c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)]
        out.append("".join(bare) if bare and all(covered(c) for c in bare) else "?")
    return "".join(out)


@lru_cache(maxsize=8192)
def width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(displayed(text))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    bold: bool = False,
) -> None:
    """Draw one line with its top-left corner at `xy` (the top of the line box, see `line_height`).

    The line's glyphs are rendered by FreeType once per text, size and fraction of a pixel where it
    starts (`_glyphs`), then laid on the picture like `ImageDraw.text` lays them, to the same pixels: a
    tournament's standings write the same names, places and scores again at every match (64 rows of 5
    cells, 60 % of the picture's drawing was FreeType's)."""
    shown = displayed(text)
    if "\n" in shown:  # several lines: Pillow's own layout of them
        draw.text(xy, shown, font=font(size, bold), fill=fill)
        return
    x, y = xy
    mask, (dx, dy) = _glyphs(shown, size, bold, draw.fontmode, math.modf(x)[0], math.modf(y)[0])
    draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)


@lru_cache(maxsize=2048)
def _glyphs(
    text: str, size: int, bold: bool, mode: str, x: float, y: float
) -> tuple[Image.Image, tuple[int, int]]:
    """A line's coverage mask and where it goes from the pen's whole pixel, as `ImageDraw.text` asks
    FreeType for it (anchor "la", starting `x` and `y` into the pixel). Kept: callers only read it."""
    mask, offset = font(size, bold).getmask2(text, mode, anchor="la", start=(x, y))
    return Image.Image()._new(mask), offset


def star_points(cx: float, cy: float, radius: float, inner: float = 0.45) -> list[tuple[float, float]]:
    """A five-pointed star, point up (the stars of a copy, drawn larger than a glyph)."""
    points = []
    for index in range(10):
        r = radius if index % 2 == 0 else radius * inner
        angle = _ANGLES[index]
        points.append((cx + r * angle[0], cy + r * angle[1]))
    return points


_ANGLES = tuple((math.sin(math.pi * i / 5), -math.cos(math.pi * i / 5)) for i in range(10))


@dataclass(frozen=True)
class Fitted:
    """A text laid out in a box: its lines at `size`, each `line_height` tall."""

    lines: tuple[str, ...]
    size: int

    @property
    def height(self) -> int:
        return len(self.lines) * line_height(self.size)


def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap; a word wider than the box is cut between letters. Newlines are kept."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if width(candidate, size, bold) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            while width(word, size, bold) > max_width:
                cut = _longest_prefix(word, size, max_width, bold)
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return lines


def _longest_prefix(word: str, size: int, max_width: float, bold: bool) -> int:
    cut = 1
    while cut < len(word) and width(word[: cut + 1], size, bold) <= max_width:
        cut += 1
    return cut


@lru_cache(maxsize=8192)
def fit(
    text: str, box_width: int, box_height: int, max_size: int, min_size: int, bold: bool = False
) -> Fitted:
    """The largest size from `max_size` down to `min_size` at which the wrapped text fits the box; at
    `min_size`, the lines that fit, the last one ending with "…"."""
    for size in range(max_size, min_size - 1, -1):
        lines = wrap(text, size, box_width, bold)
        if len(lines) * line_height(size) <= box_height:
            return Fitted(tuple(lines), size)
    size = min_size
    keep = box_height // line_height(size)
    if keep == 0:  # a box lower than one line shows nothing rather than overflow
        return Fitted((), size)
    lines = wrap(text, size, box_width, bold)[:keep]
    last = lines[-1]
    while last and width(last + "…", size, bold) > box_width:
        last = last[:-1].rstrip()
    lines[-1] = last + "…"
    return Fitted(tuple(lines), size)
