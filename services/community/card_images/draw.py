"""Shared drawing helpers for card images: the canvas, frames by rarity, the card's picture and emblems
(`artwork`), stat badges, stars, the holo shimmer, text boxes that never overflow, PNG encoding.

A game's layout (`services/<game>/card_image.py`) composes these; nothing here knows a game. Everything
is deterministic: the art's pattern is seeded from a string (the card's id), never from the process's
random state, so a card always looks the same and two processes render the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from core.i18n import t
from services.community.card_images import artwork
from services.community.card_images import text as typo

WIDTH, HEIGHT = 360, 504  # 5:7, the proportions of a playing card; Discord shows it unscaled
MARGIN = 14  # frame thickness
RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)
# The smallest text on a card, in pixels: Discord shows a card at its size on a phone, and 11 px is the
# least a card's effect may be read at (docs/card-images.md, « Readable at Discord's size »).
MIN_TEXT = 11
PNG_LEVEL = 1  # zlib level: 6 costs ~3x the time for ~10 % fewer bytes (benchmarks/card_images.py)
# What a layout's canvas records besides its pixels (a layout's `audit` argument): nothing (False); where
# each text's ink went (True: tests of boxes and contrast); or `TEXTS`, the texts alone, each in the box
# it would be written in, drawing no picture, emblem, frame nor glyph: every card of every game is read
# in both languages in a fraction of the time its drawing takes (tests/wording/test_card_faces.py).
TEXTS: Literal["texts"] = "texts"
Audit = bool | Literal["texts"]


@dataclass(frozen=True)
class Palette:
    """A frame's colours: its gradient from `light` to `dark`, the `ink` written on it, an `accent`."""

    light: RGB
    dark: RGB
    ink: RGB = (20, 20, 24)
    accent: RGB = (255, 255, 255)


@dataclass(frozen=True)
class Placed:
    """A text drawn in a box, and the box of the ink really drawn (None when nothing was), recorded
    when the canvas audits its texts: tests check that the ink stays inside the box, and read the
    finished card under `mask` (the text's own pixels in `mask_box`: the ink and 4 pixels around it)
    for its contrast."""

    box: Box
    ink: Box | None
    text: str
    mask: Image.Image | None = field(default=None, compare=False)
    mask_box: Box = (0, 0, 0, 0)
    size: int = 0  # the font's size in pixels
    cut: bool = False  # ended with "…" at the smallest size: the box was too small for the text


@dataclass
class Canvas:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    audit: bool = False
    placed: list[Placed] = field(default_factory=list)
    generic: bool = False  # a picture was drawn without the card's own artwork (artwork.Picture.generic)
    texts: list[Box] = field(default_factory=list)  # every text's box: the holo shimmer leaves them clear
    texts_only: bool = False  # `TEXTS`: `placed` records each text, and nothing costly is drawn


def canvas(
    background: RGB = (30, 30, 36), *, audit: Audit = False, size: tuple[int, int] = (WIDTH, HEIGHT)
) -> Canvas:
    image = Image.new("RGB", size, background)
    return Canvas(image, ImageDraw.Draw(image), audit is True, texts_only=audit == TEXTS)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def seeded(seed: str) -> random.Random:
    """A generator fixed by `seed` (a card's id): the same pattern in every process, on every run."""
    return random.Random(int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big"))


@lru_cache(maxsize=256)
def _gradient(size: tuple[int, int], top: RGB, bottom: RGB, diagonal: bool) -> Image.Image:
    mask = Image.linear_gradient("L")
    if diagonal:
        mask = mask.rotate(45, resample=Image.Resampling.BILINEAR, expand=True).crop((90, 90, 272, 272))
    mask = mask.resize(size, Image.Resampling.BILINEAR)
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask)


def gradient(c: Canvas, box: Box, top: RGB, bottom: RGB, *, diagonal: bool = False) -> None:
    left, upper, right, lower = box
    c.image.paste(_gradient((right - left, lower - upper), top, bottom, diagonal), (left, upper))


def frame(c: Canvas, palette: Palette, *, radius: int = 18) -> None:
    """The card's border in its rarity's colours, a thin light bevel and a dark inner panel."""
    if c.texts_only:
        return
    gradient(c, (0, 0, WIDTH, HEIGHT), palette.light, palette.dark, diagonal=True)
    c.draw.rounded_rectangle(
        [3, 3, WIDTH - 4, HEIGHT - 4], radius, outline=mix(palette.light, (255,) * 3, 0.5), width=2
    )
    inner = (MARGIN - 3, MARGIN - 3, WIDTH - MARGIN + 2, HEIGHT - MARGIN + 2)
    c.draw.rounded_rectangle(inner, radius - 6, fill=mix(palette.dark, (16, 16, 20), 0.7))


TITLE = (26, 24, 334, 64)  # the name's bar, the same on every game's card


def title(c: Canvas, name: str, palette: Palette, background: RGB) -> None:
    """The card's name in its bar at the top, shrunk to one line (two for very long names)."""
    panel(c, TITLE, background, palette.light)
    box = (TITLE[0] + 10, TITLE[1] + 4, TITLE[2] - 10, TITLE[3] - 4)
    text_box(
        c,
        box,
        name,
        max_size=24,
        min_size=11,
        fill=(255, 255, 255),
        align="center",
        valign="middle",
        bold=True,
    )


def caption(c: Canvas, box: Box, value: str, palette: Palette) -> None:
    """A short centred line in the frame's light colour (a card's type, clan or race and class)."""
    text_box(
        c, box, value, max_size=17, min_size=MIN_TEXT, fill=palette.light, align="center", valign="middle"
    )


def panel(c: Canvas, box: Box, fill: RGB, outline: RGB, *, radius: int = 8, width: int = 2) -> None:
    c.draw.rounded_rectangle(
        [box[0], box[1], box[2] - 1, box[3] - 1], radius, fill=fill, outline=outline, width=width
    )


# --- the back's pattern ------------------------------------------------------------------------------


def rays(c: Canvas, box: Box, seed: str, colors: tuple[RGB, RGB, RGB], outline: RGB) -> None:
    """Rays from a point placed by a generator seeded from `seed`, on a gradient of the first two
    colours, in shades toward the third, clipped to `box` and bordered: a face-down card's pattern."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    image = Image.new("RGB", (w, h))
    sub = Canvas(image, ImageDraw.Draw(image))
    rng = seeded(seed)
    gradient(sub, (0, 0, w, h), colors[0], colors[1], diagonal=rng.random() < 0.5)
    shade = [mix(colors[1], colors[2], t) for t in (0.35, 0.55, 0.75, 0.95)]
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    count = rng.randint(9, 16)
    start = rng.random() * 6.283
    reach = w + h
    for index in range(count):
        a = start + index * 6.283 / count
        spread = 6.283 / count / 3
        sub.draw.polygon(
            [
                (cx, cy),
                (cx + reach * math.cos(a - spread), cy + reach * math.sin(a - spread)),
                (cx + reach * math.cos(a + spread), cy + reach * math.sin(a + spread)),
            ],
            fill=shade[index % 4],
        )
    c.image.paste(sub.image, (left, top))
    c.draw.rectangle([left, top, right - 1, bottom - 1], outline=outline, width=2)


def picture(c: Canvas, box: Box, game: str, card_id: str, outline: RGB) -> None:
    """The card's own picture (`artwork`): its figure and motif on its scene, in its palette."""
    if c.texts_only:
        return
    shown = artwork.picture(game, card_id)
    c.generic = c.generic or shown.generic
    artwork.illustrate(c.image, box, shown, seeded(card_id).getrandbits(32), outline)


def emblem(c: Canvas, game: str, key: str, box: Box, color: RGB, *, ring: RGB | None = None) -> None:
    """One of the game's emblems (`artwork.emblem`) in `box`, on a dark disc when `ring` is given."""
    if c.texts_only:
        return
    if ring is not None:
        c.draw.ellipse([box[0], box[1], box[2] - 1, box[3] - 1], fill=(12, 12, 16), outline=ring, width=2)
        inset = (box[2] - box[0]) // 5
        box = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
    artwork.paint(c.image, artwork.emblem(game, key), box, color)


# --- text --------------------------------------------------------------------------------------------


def text_box(
    c: Canvas,
    box: Box,
    value: str,
    *,
    max_size: int,
    min_size: int,
    fill: RGB,
    align: str = "left",
    valign: str = "top",
    bold: bool = False,
) -> typo.Fitted:
    """Write `value` inside `box`, wrapped and shrunk to fit (see `text.fit`): it never leaves the box."""
    left, top, right, bottom = box
    c.texts.append(box)
    fitted = typo.fit(value, right - left, bottom - top, max_size, min_size, bold)
    if c.texts_only:
        c.placed.append(Placed(box, None, value, size=fitted.size, cut=_cut(fitted, value)))
        return fitted
    height = typo.line_height(fitted.size)
    y = top + ((bottom - top - fitted.height) // 2 if valign == "middle" else 0)
    mask = Image.new("L", c.image.size) if c.audit else None
    probe = ImageDraw.Draw(mask) if mask is not None else None
    for line in fitted.lines:
        line_width = typo.width(line, fitted.size, bold)
        x = left + ((right - left - line_width) / 2 if align == "center" else 0)
        if align == "right":
            x = right - line_width
        typo.draw_text(c.draw, (x, y), line, fitted.size, fill, bold=bold)
        if probe is not None:
            typo.draw_text(probe, (x, y), line, fitted.size, 255, bold=bold)
        y += height
    if mask is not None:
        cut = _cut(fitted, value)
        ink = mask.getbbox()
        around = (0, 0, 0, 0)
        if ink is not None:
            width, height = c.image.size
            around = (max(0, ink[0] - 4), max(0, ink[1] - 4), min(width, ink[2] + 4), min(height, ink[3] + 4))
        c.placed.append(Placed(box, ink, value, mask.crop(around), around, fitted.size, cut))
    return fitted


def parts(items: Sequence[str], locale: str) -> str:
    """Short texts on one line of a face, « Orc · Guerrier · Rang 1 »: joined as the catalog writes it,
    like every text a face writes (a catalog's or the card's own)."""
    joined = items[0] if items else ""
    for item in items[1:]:
        joined = t("cards.face.parts", locale, first=joined, then=item)
    return joined


def stat(label: str, value: str, locale: str) -> str:
    """A labelled value of a face, « Rythme : … » / "Rhythm: …", with each language's punctuation."""
    return t("cards.face.stat", locale, label=label, value=value)


def _cut(fitted: typo.Fitted, value: str) -> bool:
    return fitted.lines[-1].endswith("…") and not value.endswith("…") if fitted.lines else bool(value)


# --- badges, stars, icons ----------------------------------------------------------------------------


def badge(c: Canvas, center: tuple[int, int], radius: int, value: str, label: str, palette: Palette) -> None:
    """A round stat badge: the number large, its short label (PV, ATQ, P...) small above it."""
    cx, cy = center
    c.draw.ellipse(
        [cx - radius, cy - radius, cx + radius, cy + radius],
        fill=mix(palette.dark, (0, 0, 0), 0.45),  # white on it reads at 4.5:1 for every rarity's dark
        outline=palette.light,
        width=3,
    )
    inner = int(radius * 0.72)
    text_box(
        c,
        (cx - inner, cy - inner, cx + inner, cy - inner // 4),
        label,
        max_size=max(9, radius // 3),
        min_size=MIN_TEXT,
        fill=palette.accent,
        align="center",
        valign="middle",
    )
    text_box(
        c,
        (cx - inner, cy - inner // 4, cx + inner, cy + inner),
        value,
        max_size=int(radius * 0.8),
        min_size=MIN_TEXT,
        fill=palette.accent,
        align="center",
        valign="middle",
        bold=True,
    )


def stars(
    c: Canvas,
    center: tuple[int, int],
    count: int,
    size: int,
    fill: RGB,
    *,
    empty: int = 0,
    empty_fill: RGB = (90, 90, 96),
) -> None:
    """`count` filled stars then `empty` hollow ones, centred on `center`."""
    total = count + empty
    if total == 0:
        return
    step = size * 1.1
    x = center[0] - step * (total - 1) / 2
    for index in range(total):
        points = typo.star_points(x, center[1], size / 2)
        if index < count:
            c.draw.polygon(points, fill=fill, outline=mix(fill, (0, 0, 0), 0.5))
        else:
            c.draw.polygon(points, outline=empty_fill)
        x += step


# --- holo, encoding, sheets --------------------------------------------------------------------------


SHIMMER_STRIPE = 12


@lru_cache(maxsize=4)
def _shimmer(size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """Diagonal rainbow bands with a bright streak, as an RGBA overlay. Each band is a flat 12-pixel
    stripe rather than a smooth blend: PNG compresses flat stripes 3 times faster (benchmarks/card_images.py).
    Returned as the bands' colours and their alpha, ready for `Image.composite`."""
    w, h = size
    band = Image.new("RGBA", (w + h, 1))
    pixels = []
    for x in range(w + h):
        stripe = x - x % SHIMMER_STRIPE
        hue = (stripe / 140.0) % 1.0
        r, g, b = (round(255 * (0.5 + 0.5 * math.cos(6.283 * (hue + k / 3)))) for k in (0, 1, 2))
        streak = math.exp(-(((stripe - (w + h) * 0.45) / 28) ** 2))
        alpha = round(46 + 100 * streak)
        pixels.append((r, g, b, alpha))
    band.putdata(pixels)
    layer = Image.new("RGBA", size)
    for y in range(h):
        layer.paste(band.crop((h - y, 0, h - y + w, 1)), (0, y))
    return layer.convert("RGB"), layer.getchannel("A")


def holo(c: Canvas) -> None:
    """The holo shimmer: rainbow bands blended over the whole card but its texts (one composite through
    the bands' alpha, no RGBA conversion of the card), which keep their contrast with what is behind
    them (tests/services/community/card_images/test_contrast.py)."""
    if c.texts_only:
        return
    colors, alpha = _shimmer(c.image.size)
    if c.texts:
        alpha = alpha.copy()
        for left, top, right, bottom in c.texts:
            alpha.paste(0, (left - 3, top - 3, right + 3, bottom + 3))
    c.image = Image.composite(colors, c.image, alpha)
    c.draw = ImageDraw.Draw(c.image)


def png(image: Image.Image, description: str | None = None) -> bytes:
    """The PNG's bytes; `description` is written as an uncompressed UTF-8 `iTXt` chunk ("Description"):
    the picture's text alternative, readable by any tool that opens the file."""
    out = io.BytesIO()
    info = None
    if description is not None:
        info = PngInfo()
        info.add_itxt("Description", description, zip=False)
    image.save(out, format="PNG", compress_level=PNG_LEVEL, pnginfo=info)
    return out.getvalue()


@lru_cache(maxsize=16)
def back(label: str, palette: Palette) -> Image.Image:
    """A card face down: the game's name on a pattern, so a booster's hidden cards show as cards. Kept
    once drawn (callers only read it)."""
    c = canvas()
    frame(c, palette)
    rays(
        c,
        (MARGIN + 6, MARGIN + 6, WIDTH - MARGIN - 6, HEIGHT - MARGIN - 6),
        "back:" + label,
        (palette.dark, palette.light, palette.accent),
        palette.light,
    )
    text_box(
        c,
        (40, HEIGHT // 2 - 40, WIDTH - 40, HEIGHT // 2 + 40),
        label,
        max_size=40,
        min_size=14,
        fill=palette.accent,
        align="center",
        valign="middle",
        bold=True,
    )
    return c.image


def half(image: Image.Image, scale: float = 0.5) -> Image.Image:
    """A card as a sheet shows it (`sheet` keeps an image already at this size as it is)."""
    size = (round(WIDTH * scale), round(HEIGHT * scale))
    return image if image.size == size else image.resize(size, Image.Resampling.BILINEAR)


def sheet(
    images: Sequence[Image.Image | None],
    columns: int,
    *,
    scale: float = 0.5,
    gap: int = 8,
    background: RGB = (24, 24, 28),
) -> Image.Image:
    """Cards side by side in rows, scaled down (a booster, the gallery); None leaves a cell empty."""
    cw, ch = round(WIDTH * scale), round(HEIGHT * scale)
    rows = max(1, math.ceil(len(images) / columns))
    out = Image.new("RGB", (columns * cw + (columns + 1) * gap, rows * ch + (rows + 1) * gap), background)
    for index, image in enumerate(images):
        if image is None:
            continue
        row, col = divmod(index, columns)
        cell = half(image, scale)
        out.paste(cell, (gap + col * (cw + gap), gap + row * (ch + gap)))
    return out


STRIP_SCALE = 0.4  # 144 x 202 pixels a card: a hand of 8 is 1,224 pixels wide


def strip(images: Sequence[Image.Image], *, scale: float = STRIP_SCALE) -> Image.Image:
    """Cards side by side on one row, scaled down (a Chocobataille hand, a Pillz line-up)."""
    return sheet(images, max(1, len(images)), scale=scale)
