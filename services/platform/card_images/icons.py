"""Emblems drawn from simple shapes, since the embedded font has no pictograms: races, classes, clans,
elements. Each draws in the square of side `s` at (x, y); a game may add its own next to its layout."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from services.platform.card_images import text as typo

RGB = tuple[int, int, int]

Drawing = ImageDraw.ImageDraw


def _p(x: float, y: float, s: float, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(x + px * s, y + py * s) for px, py in points]


def diamond(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(_p(x, y, s, [(0.5, 0.05), (0.95, 0.5), (0.5, 0.95), (0.05, 0.5)]), fill=col)


def _skull(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.ellipse([x + 0.15 * s, y + 0.08 * s, x + 0.85 * s, y + 0.72 * s], fill=col)
    d.rectangle([x + 0.3 * s, y + 0.6 * s, x + 0.7 * s, y + 0.9 * s], fill=col)
    hole = (0, 0, 0)
    d.ellipse([x + 0.27 * s, y + 0.35 * s, x + 0.45 * s, y + 0.53 * s], fill=hole)
    d.ellipse([x + 0.55 * s, y + 0.35 * s, x + 0.73 * s, y + 0.53 * s], fill=hole)
    for tooth in (0.42, 0.5, 0.58):
        d.line(
            [(x + tooth * s, y + 0.74 * s), (x + tooth * s, y + 0.9 * s)],
            fill=hole,
            width=max(1, int(s / 30)),
        )


def _tusks(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.chord([x + 0.1 * s, y + 0.3 * s, x + 0.9 * s, y + 1.0 * s], 180, 360, fill=col)
    d.polygon(_p(x, y, s, [(0.22, 0.62), (0.34, 0.62), (0.2, 0.08)]), fill=col)
    d.polygon(_p(x, y, s, [(0.66, 0.62), (0.78, 0.62), (0.8, 0.08)]), fill=col)


def _leaf(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(
        _p(x, y, s, [(0.5, 0.05), (0.8, 0.3), (0.85, 0.6), (0.5, 0.95), (0.15, 0.6), (0.2, 0.3)]), fill=col
    )
    d.line(_p(x, y, s, [(0.5, 0.12), (0.5, 0.98)]), fill=(0, 0, 0), width=max(1, int(s / 24)))


def _helm(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.pieslice([x + 0.15 * s, y + 0.1 * s, x + 0.85 * s, y + 0.8 * s], 180, 360, fill=col)
    d.rectangle([x + 0.15 * s, y + 0.45 * s, x + 0.85 * s, y + 0.9 * s], fill=col)
    d.rectangle([x + 0.25 * s, y + 0.5 * s, x + 0.75 * s, y + 0.58 * s], fill=(0, 0, 0))
    d.rectangle([x + 0.46 * s, y + 0.58 * s, x + 0.54 * s, y + 0.85 * s], fill=(0, 0, 0))


def _sword(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(_p(x, y, s, [(0.5, 0.02), (0.58, 0.15), (0.58, 0.68), (0.42, 0.68), (0.42, 0.15)]), fill=col)
    d.rectangle([x + 0.25 * s, y + 0.68 * s, x + 0.75 * s, y + 0.76 * s], fill=col)
    d.rectangle([x + 0.45 * s, y + 0.76 * s, x + 0.55 * s, y + 0.98 * s], fill=col)


def _horseshoe(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.arc(
        [x + 0.12 * s, y + 0.1 * s, x + 0.88 * s, y + 0.9 * s],
        150,
        390,
        fill=col,
        width=max(2, int(s * 0.16)),
    )


def _spear(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.line(_p(x, y, s, [(0.15, 0.95), (0.75, 0.25)]), fill=col, width=max(2, int(s * 0.08)))
    d.polygon(_p(x, y, s, [(0.95, 0.05), (0.82, 0.38), (0.62, 0.18)]), fill=col)


def _dagger(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(_p(x, y, s, [(0.85, 0.08), (0.9, 0.15), (0.45, 0.62), (0.38, 0.55)]), fill=col)
    d.line(_p(x, y, s, [(0.28, 0.45), (0.55, 0.72)]), fill=col, width=max(2, int(s * 0.08)))
    d.line(_p(x, y, s, [(0.4, 0.6), (0.15, 0.85)]), fill=col, width=max(2, int(s * 0.1)))


def _bow(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.arc(
        [x - 0.3 * s, y + 0.05 * s, x + 0.75 * s, y + 0.95 * s],
        290,
        70,
        fill=col,
        width=max(2, int(s * 0.09)),
    )
    d.line(_p(x, y, s, [(0.42, 0.12), (0.42, 0.88)]), fill=col, width=max(1, int(s * 0.03)))
    d.line(_p(x, y, s, [(0.1, 0.5), (0.92, 0.5)]), fill=col, width=max(1, int(s * 0.05)))
    d.polygon(_p(x, y, s, [(0.98, 0.5), (0.82, 0.41), (0.82, 0.59)]), fill=col)


def _orb(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.line(_p(x, y, s, [(0.5, 0.45), (0.5, 0.98)]), fill=col, width=max(2, int(s * 0.08)))
    d.polygon(typo.star_points(x + 0.5 * s, y + 0.28 * s, 0.26 * s), fill=col)


def _shield(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(_p(x, y, s, [(0.12, 0.08), (0.88, 0.08), (0.88, 0.5), (0.5, 0.95), (0.12, 0.5)]), fill=col)
    d.line(_p(x, y, s, [(0.5, 0.15), (0.5, 0.82)]), fill=(0, 0, 0), width=max(1, int(s / 20)))


def _flask(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.ellipse([x + 0.18 * s, y + 0.34 * s, x + 0.82 * s, y + 0.98 * s], fill=col)
    d.rectangle([x + 0.4 * s, y + 0.08 * s, x + 0.6 * s, y + 0.42 * s], fill=col)
    d.rectangle([x + 0.34 * s, y + 0.04 * s, x + 0.66 * s, y + 0.12 * s], fill=col)


def _hat(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(_p(x, y, s, [(0.55, 0.02), (0.78, 0.78), (0.25, 0.78)]), fill=col)
    d.ellipse([x + 0.05 * s, y + 0.7 * s, x + 0.95 * s, y + 0.92 * s], fill=col)


def _bolt(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(
        _p(x, y, s, [(0.6, 0.02), (0.22, 0.55), (0.48, 0.55), (0.36, 0.98), (0.8, 0.4), (0.52, 0.4)]),
        fill=col,
    )


def _flame(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.ellipse([x + 0.2 * s, y + 0.4 * s, x + 0.8 * s, y + 0.98 * s], fill=col)
    d.polygon(_p(x, y, s, [(0.5, 0.02), (0.8, 0.62), (0.2, 0.62)]), fill=col)


def _snow(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    for a in (0.0, 1.047, 2.094):
        dx, dy = 0.45 * s * math.cos(a), 0.45 * s * math.sin(a)
        d.line(
            [(x + 0.5 * s - dx, y + 0.5 * s - dy), (x + 0.5 * s + dx, y + 0.5 * s + dy)],
            fill=col,
            width=max(2, int(s / 10)),
        )


def _drop(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.ellipse([x + 0.22 * s, y + 0.38 * s, x + 0.78 * s, y + 0.94 * s], fill=col)
    d.polygon(_p(x, y, s, [(0.5, 0.04), (0.77, 0.6), (0.23, 0.6)]), fill=col)


def _crown(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.polygon(
        _p(
            x,
            y,
            s,
            [(0.08, 0.85), (0.08, 0.25), (0.3, 0.55), (0.5, 0.15), (0.7, 0.55), (0.92, 0.25), (0.92, 0.85)],
        ),
        fill=col,
    )


def _gear(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    cx, cy = x + s / 2, y + s / 2
    for index in range(8):
        a = index * math.pi / 4
        d.line(
            [(cx, cy), (cx + 0.46 * s * math.cos(a), cy + 0.46 * s * math.sin(a))],
            fill=col,
            width=max(3, int(s * 0.16)),
        )
    d.ellipse([cx - 0.32 * s, cy - 0.32 * s, cx + 0.32 * s, cy + 0.32 * s], fill=col)
    d.ellipse([cx - 0.12 * s, cy - 0.12 * s, cx + 0.12 * s, cy + 0.12 * s], fill=(0, 0, 0))


def _anchor(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    w = max(2, int(s * 0.08))
    d.line(_p(x, y, s, [(0.5, 0.15), (0.5, 0.92)]), fill=col, width=w)
    d.line(_p(x, y, s, [(0.3, 0.3), (0.7, 0.3)]), fill=col, width=w)
    d.arc([x + 0.12 * s, y + 0.45 * s, x + 0.88 * s, y + 0.95 * s], 20, 160, fill=col, width=w)
    d.ellipse([x + 0.42 * s, y + 0.02 * s, x + 0.58 * s, y + 0.18 * s], outline=col, width=max(1, w // 2))


def _moon(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    outer = [(0.5 + 0.42 * math.cos(a / 10), 0.5 + 0.42 * math.sin(a / 10)) for a in range(-16, 17)]
    inner = [(0.62 + 0.3 * math.cos(a / 10), 0.5 + 0.36 * math.sin(a / 10)) for a in range(16, -17, -1)]
    d.polygon(_p(x, y, s, [(1 - px, py) for px, py in outer + inner]), fill=col)


def _cauldron(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.chord([x + 0.1 * s, y + 0.2 * s, x + 0.9 * s, y + 0.98 * s], 0, 180, fill=col)
    d.rectangle([x + 0.05 * s, y + 0.52 * s, x + 0.95 * s, y + 0.62 * s], fill=col)
    for bubble in ((0.35, 0.3, 0.1), (0.58, 0.18, 0.08), (0.5, 0.38, 0.06)):
        bx, by, r = bubble
        d.ellipse(
            [x + (bx - r) * s, y + (by - r) * s, x + (bx + r) * s, y + (by + r) * s],
            outline=col,
            width=max(1, int(s / 25)),
        )


def _laurel(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    w = max(2, int(s * 0.07))
    d.arc([x + 0.08 * s, y + 0.08 * s, x + 0.92 * s, y + 0.92 * s], 110, 250, fill=col, width=w)
    d.arc([x + 0.08 * s, y + 0.08 * s, x + 0.92 * s, y + 0.92 * s], 290, 430, fill=col, width=w)
    for a in (130, 160, 190, 220):
        for sign in (-1, 1):
            rad = math.radians(a if sign < 0 else 180 - a)
            cx, cy = x + 0.5 * s + 0.42 * s * math.cos(rad), y + 0.5 * s + 0.42 * s * math.sin(rad)
            r = 0.07 * s
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col)


def _fan(d: Drawing, x: float, y: float, s: float, col: RGB) -> None:
    d.pieslice([x + 0.02 * s, y + 0.1 * s, x + 0.98 * s, y + 1.06 * s], 200, 340, fill=col)
    for a in (210, 240, 270, 300, 330):
        rad = math.radians(a)
        d.line(
            [
                (x + 0.5 * s, y + 0.58 * s),
                (x + 0.5 * s + 0.48 * s * math.cos(rad), y + 0.58 * s + 0.48 * s * math.sin(rad)),
            ],
            fill=(0, 0, 0),
            width=1,
        )
    d.rectangle([x + 0.45 * s, y + 0.56 * s, x + 0.55 * s, y + 0.95 * s], fill=col)


SHAPES: dict[str, Callable[[Drawing, float, float, float, RGB], None]] = {
    "skull": _skull,
    "tusks": _tusks,
    "leaf": _leaf,
    "helm": _helm,
    "sword": _sword,
    "horseshoe": _horseshoe,
    "spear": _spear,
    "dagger": _dagger,
    "bow": _bow,
    "orb": _orb,
    "shield": _shield,
    "flask": _flask,
    "hat": _hat,
    "bolt": _bolt,
    "flame": _flame,
    "snow": _snow,
    "drop": _drop,
    "crown": _crown,
    "gear": _gear,
    "anchor": _anchor,
    "moon": _moon,
    "cauldron": _cauldron,
    "laurel": _laurel,
    "fan": _fan,
    "diamond": diamond,
}
ICONS = frozenset(SHAPES)
