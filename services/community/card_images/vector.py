"""SVG path data drawn with Pillow: the cards' artwork is game-icons.net's icons, each one path on a
512 × 512 view box (data/art/icons.json).

A path is parsed once into absolute segments (moves, lines, cubic Béziers: quadratic curves and
elliptical arcs are converted to cubics) and drawn as one Pillow outline, filled at three times the
wanted size then reduced with a box filter, which is the anti-aliasing. Pillow fills an outline by the
even-odd rule where SVG's default is non-zero; the two differ only where a path's own contours overlap
in the same direction, which the icons the catalogs use do not do: `tests/services/community/card_images/
test_artwork.py` compares every shipped icon with resvg's rendering (docs/card-images.md, « Artwork »).
Measured on 400 icons at 160 px: 2.6 ms an icon against resvg-py's 7.9 ms, with no new dependency.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

VIEW = 512  # game-icons' view box
SUPERSAMPLE = 3
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}


@dataclass(frozen=True)
class Segment:
    """An absolute step of a path: "M" (x, y), "L" (x, y), "C" (x1, y1, x2, y2, x, y) or "Z"."""

    kind: str
    values: tuple[float, ...] = ()


class PathError(ValueError):
    pass


class _Reader:
    """The path's text read number by number (SVG lets numbers run together: "1.5.5" is 1.5 and .5,
    and an arc's flags may be written without a separator: "a1 1 0 01 2 3")."""

    def __init__(self, data: str) -> None:
        self.data = data
        self.at = 0

    def skip(self) -> None:
        while self.at < len(self.data) and self.data[self.at] in " ,\t\n\r":
            self.at += 1

    def done(self) -> bool:
        self.skip()
        return self.at >= len(self.data)

    def command(self) -> str | None:
        self.skip()
        char = self.data[self.at]
        if char.isalpha():
            self.at += 1
            return char
        return None

    def number(self) -> float:
        self.skip()
        found = _NUMBER.match(self.data, self.at)
        if found is None:
            raise PathError(f"a number was expected at {self.at}")
        self.at = found.end()
        return float(found.group())

    def flag(self) -> bool:
        self.skip()
        char = self.data[self.at : self.at + 1]
        if char not in ("0", "1"):
            raise PathError(f"an arc flag was expected at {self.at}")
        self.at += 1
        return char == "1"


class _Pen:
    """Where the path is, and the control point a smooth curve reflects."""

    def __init__(self) -> None:
        self.x = self.y = 0.0
        self.start = (0.0, 0.0)
        self.cubic: tuple[float, float] | None = None
        self.quadratic: tuple[float, float] | None = None
        self.segments: list[Segment] = []

    def add(self, kind: str, *values: float) -> None:
        self.segments.append(Segment(kind, values))


def parse(data: str) -> tuple[Segment, ...]:
    """The path's segments in absolute coordinates; malformed data raises `PathError`."""
    reader, pen = _Reader(data), _Pen()
    command: str | None = None
    while not reader.done():
        found = reader.command()
        if found is not None:
            command = found
            if command in "Zz":
                pen.add("Z")
                pen.x, pen.y = pen.start
                pen.cubic = pen.quadratic = None
                continue
        if command is None or command in "Zz":
            raise PathError(f"a command was expected at {reader.at}")
        command = _step(reader, pen, command)
    return tuple(pen.segments)


def _step(reader: _Reader, pen: _Pen, command: str) -> str:
    """Apply one set of `command`'s arguments; the command that repeats implicitly after it."""
    upper, relative = command.upper(), command.islower()
    ox, oy = (pen.x, pen.y) if relative else (0.0, 0.0)
    if upper == "A":
        rx, ry, rotation = reader.number(), reader.number(), reader.number()
        large, sweep = reader.flag(), reader.flag()
        x, y = reader.number() + ox, reader.number() + oy
        for curve in arc(pen.x, pen.y, rx, ry, rotation, large, sweep, x, y):
            pen.add("C", *curve)
        pen.x, pen.y, pen.cubic, pen.quadratic = x, y, None, None
        return command
    values = [reader.number() for _ in range(_ARGUMENTS[upper])]
    if upper == "M":
        pen.x, pen.y = values[0] + ox, values[1] + oy
        pen.start = (pen.x, pen.y)
        pen.add("M", pen.x, pen.y)
        pen.cubic = pen.quadratic = None
        return "l" if relative else "L"
    if upper in "LHV":
        x = pen.x if upper == "V" else values[0] + ox
        y = pen.y if upper == "H" else values[-1] + oy
        pen.add("L", x, y)
        pen.x, pen.y, pen.cubic, pen.quadratic = x, y, None, None
        return command
    if upper in "CS":
        _cubic(pen, upper, values, ox, oy)
    else:
        _quadratic(pen, upper, values, ox, oy)
    return command


def _cubic(pen: _Pen, upper: str, values: Sequence[float], ox: float, oy: float) -> None:
    if upper == "C":
        x1, y1 = values[0] + ox, values[1] + oy
        rest = values[2:]
    else:  # S: the first control point reflects the previous curve's second
        x1, y1 = (2 * pen.x - pen.cubic[0], 2 * pen.y - pen.cubic[1]) if pen.cubic else (pen.x, pen.y)
        rest = values
    x2, y2, x, y = rest[0] + ox, rest[1] + oy, rest[2] + ox, rest[3] + oy
    pen.add("C", x1, y1, x2, y2, x, y)
    pen.x, pen.y, pen.cubic, pen.quadratic = x, y, (x2, y2), None


def _quadratic(pen: _Pen, upper: str, values: Sequence[float], ox: float, oy: float) -> None:
    if upper == "Q":
        qx, qy, x, y = values[0] + ox, values[1] + oy, values[2] + ox, values[3] + oy
    else:  # T
        qx, qy = (
            (2 * pen.x - pen.quadratic[0], 2 * pen.y - pen.quadratic[1]) if pen.quadratic else (pen.x, pen.y)
        )
        x, y = values[0] + ox, values[1] + oy
    third = 2 / 3
    pen.add(
        "C",
        pen.x + third * (qx - pen.x),
        pen.y + third * (qy - pen.y),
        x + third * (qx - x),
        y + third * (qy - y),
        x,
        y,
    )
    pen.x, pen.y, pen.cubic, pen.quadratic = x, y, None, (qx, qy)


def arc(
    x1: float,
    y1: float,
    rx: float,
    ry: float,
    rotation: float,
    large: bool,
    sweep: bool,
    x2: float,
    y2: float,
) -> list[tuple[float, float, float, float, float, float]]:
    """An elliptical arc as cubic Béziers of at most a quarter turn each (SVG's endpoint
    parameterisation, converted to its centre as in the SVG specification's appendix)."""
    if (x1, y1) == (x2, y2):
        return []
    if rx == 0 or ry == 0:
        return [(x1, y1, x2, y2, x2, y2)]
    rx, ry = abs(rx), abs(ry)
    phi = math.radians(rotation)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    px, py = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = px * px / (rx * rx) + py * py / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
    denominator = rx * rx * py * py + ry * ry * px * px
    factor = math.sqrt(max(0.0, numerator / denominator)) if denominator else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * py / ry, -factor * ry * px / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((py - cyp) / ry, (px - cxp) / rx)
    end = math.atan2((-py - cyp) / ry, (-px - cxp) / rx)
    turn = end - start
    if sweep and turn < 0:
        turn += 2 * math.pi
    elif not sweep and turn > 0:
        turn -= 2 * math.pi
    count = max(1, math.ceil(abs(turn) / (math.pi / 2) - 1e-9))
    step = turn / count
    k = 4 / 3 * math.tan(step / 4)
    curves = []
    for index in range(count):
        a, b = start + index * step, start + (index + 1) * step
        points = (
            (math.cos(a) - k * math.sin(a), math.sin(a) + k * math.cos(a)),
            (math.cos(b) + k * math.sin(b), math.sin(b) - k * math.cos(b)),
            (math.cos(b), math.sin(b)),
        )
        flat: list[float] = []
        for ex, ey in points:
            ex, ey = ex * rx, ey * ry
            flat += [cos * ex - sin * ey + cx, sin * ex + cos * ey + cy]
        curves.append((flat[0], flat[1], flat[2], flat[3], flat[4], flat[5]))
    return curves


def mask(segments: Sequence[Segment], size: int) -> Image.Image:
    """The path filled white on black in a `size` × `size` mask ("L"), anti-aliased."""
    big = size * SUPERSAMPLE
    f = big / VIEW
    outline = ImageDraw.Outline()
    open_path = False
    for segment in segments:
        v = segment.values
        if segment.kind == "M":
            if open_path:
                outline.close()
            outline.move(v[0] * f, v[1] * f)
            open_path = True
        elif segment.kind == "L":
            outline.line(v[0] * f, v[1] * f)
        elif segment.kind == "C":
            outline.curve(v[0] * f, v[1] * f, v[2] * f, v[3] * f, v[4] * f, v[5] * f)
        else:
            outline.close()
            open_path = False
    if open_path:
        outline.close()
    image = Image.new("L", (big, big), 0)
    ImageDraw.Draw(image).shape(outline, fill=255)
    return image.reduce(SUPERSAMPLE)
