"""WCAG AA contrast measured on a finished picture: each audited text's ink against what borders it."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops, ImageFilter

from services.community.card_images.draw import Canvas, Placed

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
