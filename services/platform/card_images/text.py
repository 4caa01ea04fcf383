"""Text on cards with Pillow's embedded font, French accents included.

The font is Aileron Regular, embedded in Pillow itself (`ImageFont.load_default(size=...)`, by Dot Colon,
CC0 1.0): nothing is fetched or read from the machine's fonts, so a card renders the same everywhere.
Pillow embeds a subset of it: ASCII and a few signs (« » ’ … ° ·), but no accented letter, so "é" alone
would be drawn as the empty box of a missing glyph. A letter with diacritics is therefore drawn as its
base letter (Unicode decomposition, NFD) plus each mark drawn as a small shape above or below it: acute,
grave, circumflex, diaeresis, cedilla, macron, ring and tilde cover French and the names of the
catalogs (Taishō). Ligatures are spelt out (œ as "oe"); a few signs a card shows (★, dashes, •) are drawn
as shapes. `fit` wraps and shrinks a text until it fits its box, and cuts it with "…" at the smallest
size rather than let it overflow.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont
Color = int | tuple[int, int, int] | tuple[int, int, int, int]  # an int on a one-band mask

# Characters the embedded subset really holds (checked by tests/platform/card_images/test_text.py).
SUPPORTED = frozenset([chr(c) for c in range(0x20, 0x7F)] + list("©«°±´·»‘’“”…‹›⁄™"))
MARKS = {
    "\u0301": "acute",
    "\u0300": "grave",
    "\u0302": "circumflex",
    "\u0308": "diaeresis",
    "\u0327": "cedilla",
    "\u0304": "macron",
    "\u030a": "ring",
    "\u0303": "tilde",
}
SPELLED = {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "×": "x", "\u00a0": " ", "\u202f": " "}
SHAPES = {"★": 0.95, "—": 0.9, "–": 0.6, "−": 0.55, "•": 0.45}  # sign -> advance in em


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont)  # Pillow is built with FreeType (it ships with it)
    return font


def line_height(size: int) -> int:
    """A line's box: the font's ascent + descent, which holds the drawn marks too (above capitals, under
    the baseline for a cedilla)."""
    ascent, descent = font(size).getmetrics()
    return ascent + descent


@dataclass(frozen=True)
class Piece:
    """What one part of a line draws: `text` at x (a run of the font's glyphs), or a `shape` of the given
    width, or a diacritic `mark` over (or under) the glyph `text` drawn at x."""

    x: float
    text: str = ""
    shape: str = ""
    mark: str = ""
    width: float = 0.0


@dataclass(frozen=True)
class Shaped:
    pieces: tuple[Piece, ...]
    width: float


@lru_cache(maxsize=8192)
def shape(text: str, size: int) -> Shaped:
    """How `text` is drawn at `size`: runs of glyphs, drawn signs and marks, with their x positions."""
    f = font(size)
    pieces: list[Piece] = []
    run = ""
    run_x = 0.0
    marks: list[tuple[int, str, str]] = []  # (index in run, base letter, mark)

    def flush() -> float:
        nonlocal run, marks
        width = f.getlength(run) if run else 0.0
        if run:
            pieces.append(Piece(run_x, text=run))
            for index, base, mark in marks:
                x = run_x + f.getlength(run[:index])
                pieces.append(Piece(x, text=base, mark=mark, width=f.getlength(base)))
        run, marks = "", []
        return width

    for char in text:
        if char in SHAPES:
            x = run_x + flush()
            width = SHAPES[char] * size
            pieces.append(Piece(x, shape=char, width=width))
            run_x = x + width
            continue
        if char in SUPPORTED:
            run += char
            continue
        if char in SPELLED:
            run += SPELLED[char]
            continue
        decomposed = unicodedata.normalize("NFD", char)
        base, rest = decomposed[0], decomposed[1:]
        if base in SUPPORTED and rest and all(m in MARKS for m in rest):
            for mark in rest:
                marks.append((len(run), base, MARKS[mark]))
            run += base
            continue
        fallback = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        run += fallback if fallback and all(c in SUPPORTED for c in fallback) else "?"
    width = flush()
    return Shaped(tuple(pieces), run_x + width)


def width(text: str, size: int) -> float:
    return shape(text, size).width


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    bold: bool = False,
) -> None:
    """Draw one line with its top-left corner at `xy` (the top of the line box, see `line_height`)."""
    f = font(size)
    x0, y0 = xy
    stroke = max(1, size // 22) if bold else 0
    for piece in shape(text, size).pieces:
        if piece.mark:
            _mark(draw, f, x0 + piece.x, y0, piece, size, fill)
        elif piece.shape:
            _sign(draw, x0 + piece.x, y0, piece, size, fill)
        else:
            draw.text(
                (x0 + piece.x, y0), piece.text, font=f, fill=fill, stroke_width=stroke, stroke_fill=fill
            )


def _mark(
    draw: ImageDraw.ImageDraw, f: Font, x: float, y: float, piece: Piece, size: int, fill: Color
) -> None:
    left, top, right, _bottom = f.getbbox(piece.text)
    cx = x + (left + right) / 2
    ascent, _descent = f.getmetrics()
    stroke = max(1, round(size / 14))
    if piece.mark == "cedilla":
        base = y + ascent
        step = size * 0.07
        draw.line(
            [(cx, base - 1), (cx + step, base + step * 1.2), (cx - step, base + step * 2.6)], fill, stroke
        )
        return
    height = size * 0.16
    low = y + top - size * 0.05
    high = max(y, low - height)
    half = size * 0.12
    if piece.mark == "acute":
        draw.line([(cx - half * 0.5, low), (cx + half * 0.7, high)], fill, stroke + 1)
    elif piece.mark == "grave":
        draw.line([(cx + half * 0.5, low), (cx - half * 0.7, high)], fill, stroke + 1)
    elif piece.mark == "circumflex":
        draw.line([(cx - half, low), (cx, high), (cx + half, low)], fill, stroke, joint="curve")
    elif piece.mark == "diaeresis":
        r = max(1.0, size * 0.055)
        for dx in (-half * 0.8, half * 0.8):
            draw.ellipse([cx + dx - r, (low + high) / 2 - r, cx + dx + r, (low + high) / 2 + r], fill)
    elif piece.mark == "macron":
        draw.line([(cx - half * 1.2, (low + high) / 2), (cx + half * 1.2, (low + high) / 2)], fill, stroke)
    elif piece.mark == "ring":
        r = (low - high) / 2
        draw.ellipse([cx - r, high, cx + r, low], outline=fill, width=stroke)
    else:  # tilde
        mid = (low + high) / 2
        q = half * 0.6
        points = [
            (cx - 2 * q, mid + q / 2),
            (cx - q, mid - q / 2),
            (cx + q, mid + q / 2),
            (cx + 2 * q, mid - q / 2),
        ]
        draw.line(points, fill, stroke, joint="curve")


def _sign(draw: ImageDraw.ImageDraw, x: float, y: float, piece: Piece, size: int, fill: Color) -> None:
    ascent, _descent = font(size).getmetrics()
    if piece.shape == "★":
        cx, cy = x + piece.width / 2, y + ascent * 0.62
        draw.polygon(star_points(cx, cy, size * 0.42), fill=fill)
        return
    if piece.shape == "•":
        r = size * 0.14
        cx, cy = x + piece.width / 2, y + ascent * 0.66
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
        return
    mid = y + ascent * 0.68
    thickness = max(1, round(size / 14))
    draw.line([(x + size * 0.06, mid), (x + piece.width - size * 0.06, mid)], fill, thickness)


def star_points(cx: float, cy: float, radius: float, inner: float = 0.45) -> list[tuple[float, float]]:
    """A five-pointed star, point up: the ★ the font does not have."""
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


def wrap(text: str, size: int, max_width: float) -> list[str]:
    """Greedy word wrap; a word wider than the box is cut between letters. Newlines are kept."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if width(candidate, size) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            while width(word, size) > max_width:
                cut = _longest_prefix(word, size, max_width)
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return lines


def _longest_prefix(word: str, size: int, max_width: float) -> int:
    cut = 1
    while cut < len(word) and width(word[: cut + 1], size) <= max_width:
        cut += 1
    return cut


@lru_cache(maxsize=8192)
def fit(text: str, box_width: int, box_height: int, max_size: int, min_size: int) -> Fitted:
    """The largest size from `max_size` down to `min_size` at which the wrapped text fits the box; at
    `min_size`, the lines that fit, the last one ending with "…"."""
    for size in range(max_size, min_size - 1, -1):
        lines = wrap(text, size, box_width)
        if len(lines) * line_height(size) <= box_height:
            return Fitted(tuple(lines), size)
    size = min_size
    keep = box_height // line_height(size)
    if keep == 0:  # a box lower than one line shows nothing rather than overflow
        return Fitted((), size)
    lines = wrap(text, size, box_width)[:keep]
    last = lines[-1]
    while last and width(last + "…", size) > box_width:
        last = last[:-1].rstrip()
    lines[-1] = last + "…"
    return Fitted(tuple(lines), size)
