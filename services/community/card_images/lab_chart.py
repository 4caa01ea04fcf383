"""The lab's chart, in the cards' style (the tournament pictures' colours and font): the win rate against
each opponent as a bar, with its 95 % interval as a whisker, and the count under it.

Drawn at delivery from the plain data the lab's answer carries (`messages.Picture` of kind "lab", made by
cogs/shared/lab.py from the lab's report), in the reader's language. The PNG's description says what
the chart shows, as text (its alternative for screen readers and for the tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.i18n import format_int, format_percent, t
from services.community.card_images import draw
from services.community.card_images.tournament import BACKGROUND, GOLD, INK, INK_SOFT, LOST, PANEL
from services.infra.messages import Text, render_text

HEADER = 84
PLOT_TOP, PLOT_HEIGHT = HEADER + 20, 260
COLUMN = 76
AXIS = 56  # the left margin where the percentages are written
BAR = (92, 170, 120)
LAB_CHART = "lab"  # the `Picture.kind` of this chart


def chart(data: dict[str, Any], locale: str | None, *, audit: bool = False) -> tuple[draw.Canvas, str]:
    rows: Sequence[Sequence[Any]] = data["rows"]
    width = max(480, AXIS + 24 + COLUMN * len(rows) + 24)
    height = PLOT_TOP + PLOT_HEIGHT + 64
    c = draw.canvas(BACKGROUND, audit=audit, size=(width, height))
    title = render_text(Text.from_json(data["title"]), locale)
    subtitle = render_text(Text.from_json(data["subtitle"]), locale)
    c.draw.rounded_rectangle([2, 2, width - 3, height - 3], 16, outline=GOLD, width=3)
    draw.text_box(c, (24, 14, width - 24, 50), title, max_size=28, min_size=16, fill=INK, bold=True)
    draw.text_box(c, (24, 52, width - 24, 76), subtitle, max_size=17, min_size=draw.MIN_TEXT, fill=GOLD)
    left, bottom = AXIS + 24, PLOT_TOP + PLOT_HEIGHT
    draw.panel(c, (left - 8, PLOT_TOP - 8, width - 16, bottom + 8), PANEL, GOLD, radius=10, width=1)
    said = [title, subtitle]
    for tenth in range(0, 11, 5):
        y = bottom - PLOT_HEIGHT * tenth // 10
        c.draw.line([left, y, width - 24, y], fill=LOST, width=1)
        draw.text_box(
            c, (8, y - 10, AXIS + 12, y + 10), format_percent(tenth / 10, locale, 0), max_size=13,
            min_size=draw.MIN_TEXT, fill=INK_SOFT, align="right", valign="middle",
        )  # fmt: skip
    for index, (label, wins, battles, low, high) in enumerate(rows):
        x = left + 12 + index * COLUMN
        rate = wins / battles if battles else 0.0
        top = bottom - round(PLOT_HEIGHT * rate)
        if top < bottom:
            c.draw.rectangle([x, top, x + COLUMN - 24, bottom], fill=BAR)
        middle = x + (COLUMN - 24) // 2
        y_low, y_high = bottom - round(PLOT_HEIGHT * low), bottom - round(PLOT_HEIGHT * high)
        c.draw.line([middle, y_low, middle, y_high], fill=GOLD, width=2)
        for y in (y_low, y_high):
            c.draw.line([middle - 8, y, middle + 8, y], fill=GOLD, width=2)
        name = render_text(Text.from_json(label), locale)
        draw.text_box(
            c, (x - 6, bottom + 12, x + COLUMN - 18, bottom + 32), name, max_size=15, min_size=draw.MIN_TEXT,
            fill=INK, align="center", bold=True,
        )  # fmt: skip
        count = f"{format_int(int(wins), locale)}/{format_int(int(battles), locale)}"
        draw.text_box(
            c, (x - 10, bottom + 32, x + COLUMN - 14, bottom + 50), count, max_size=12,
            min_size=draw.MIN_TEXT, fill=INK_SOFT, align="center",
        )  # fmt: skip
        said.append(
            t(
                "lab.chart.row",
                locale,
                opponent=name,
                rate=format_percent(rate, locale),
                low=format_percent(low, locale),
                high=format_percent(high, locale),
                count=count,
            )
        )
    return c, "\n".join(said)


def png(data: dict[str, Any], locale: str | None) -> bytes:
    canvas, described = chart(data, locale)
    return draw.png(canvas.image, description=described)
