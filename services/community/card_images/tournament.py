"""A tournament's picture, in the cards' style (the profile's colours, the cards' font): a Swiss round's
standings, or a single elimination bracket (docs/tournaments.md, "Posts").

Drawn at delivery from the plain data a post stores (`messages.Picture`, made by
services/community/tournaments/posts.py), in the post's language: the labels are message keys, the
players' names are the names they had when they registered (a picture cannot show a mention), an
erased player's is empty and drawn as « un joueur anonyme ». The PNG's description lists what the
picture says, as text (its alternative for screen readers and for the tests' scans).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.i18n import format_decimal, t
from services.community.card_images import draw, figures
from services.infra.messages import Text, render_text

BACKGROUND = (22, 20, 28)
PANEL = (34, 32, 42)
GOLD = (255, 214, 90)
INK = (240, 238, 244)
INK_SOFT = (206, 204, 214)
LOST = (150, 148, 160)  # 5.4:1 on the panel: a loser's name stays readable
HEADER = 84
ROW = 24
ONE_COLUMN = 24  # standings up to this many players in one column, more in two
COLUMN_WIDTH = 600
BOX_WIDTH, NAME = 196, 20  # a bracket's table: two names of NAME pixels
GAP = 8  # between two tables of the first round
ROUND_GAP = 28
LABELS = (
    "tournaments.picture.place",
    "tournaments.picture.player",
    "tournaments.picture.points",
    "tournaments.picture.buchholz",
    "tournaments.picture.record",
)


def name_of(name: str | None, locale: str | None) -> str:
    """A player's name as drawn: an erased player's (empty) is « un joueur anonyme », a bye's (None) is
    the bye's label."""
    if name is None:
        return t("tournaments.picture.bye", locale)
    return name or t("privacy.anonymous", locale)


def points(half_points: int, locale: str | None) -> str:
    return format_decimal(half_points / 2, locale)


def _header(c: draw.Canvas, width: int, data: dict[str, Any], locale: str | None) -> list[str]:
    title = render_text(Text.from_json(data["title"]), locale)
    subtitle = render_text(Text.from_json(data["subtitle"]), locale)
    c.draw.rounded_rectangle([2, 2, c.image.width - 3, c.image.height - 3], 16, outline=GOLD, width=3)
    draw.text_box(c, (24, 14, width - 24, 50), title, max_size=28, min_size=16, fill=INK, bold=True)
    draw.text_box(c, (24, 52, width - 24, 76), subtitle, max_size=17, min_size=draw.MIN_TEXT, fill=GOLD)
    return [title, subtitle]


def standings(data: dict[str, Any], locale: str | None, *, audit: bool = False) -> tuple[draw.Canvas, str]:
    """The Swiss standings: place, name, points, Buchholz, wins-draws-losses; in two columns past 24."""
    rows: Sequence[Sequence[Any]] = data["rows"]
    columns = 1 if len(rows) <= ONE_COLUMN else 2
    per_column = -(-len(rows) // columns) if rows else 1
    width = 48 + columns * COLUMN_WIDTH + (columns - 1) * 24
    height = HEADER + 20 + ROW * (per_column + 1) + 24
    c = draw.canvas(BACKGROUND, audit=audit, size=(width, height))
    said = _header(c, width, data, locale)
    labels = [
        t(f"tournaments.picture.{key}", locale) for key in ("place", "player", "points", "buchholz", "record")
    ]
    for column in range(columns):
        left = 24 + column * (COLUMN_WIDTH + 24)
        top = HEADER + 12
        draw.panel(
            c, (left, top, left + COLUMN_WIDTH, top + ROW * (per_column + 1) + 8), PANEL, GOLD, radius=10
        )
        _row(c, left, top + 4, labels, GOLD, bold=True)
        for index, row in enumerate(rows[column * per_column : (column + 1) * per_column]):
            place, name, half, buchholz, wins, draws, losses = row
            cells = [
                str(place),
                name_of(name, locale),
                points(int(half), locale),
                points(int(buchholz), locale),
                f"{wins}-{draws}-{losses}",
            ]
            _row(c, left, top + 4 + ROW * (index + 1), cells, INK if index % 2 == 0 else INK_SOFT)
            said.append(" ".join(cells))
    return c, "\n".join(said)


_CELLS = ((10, 50, "right"), (62, 360, "left"), (368, 430, "right"), (440, 520, "right"), (526, 592, "right"))


def _row(
    c: draw.Canvas,
    left: int,
    top: int,
    cells: Sequence[str],
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
) -> None:
    for (start, end, align), value in zip(_CELLS, cells, strict=True):
        draw.text_box(
            c, (left + start, top, left + end, top + ROW), value, max_size=15, min_size=draw.MIN_TEXT, fill=fill,
            align=align, valign="middle", bold=bold,
        )  # fmt: skip


def bracket(data: dict[str, Any], locale: str | None, *, audit: bool = False) -> tuple[draw.Canvas, str]:
    """The bracket: a column per round, each table a box of two names, the winner's in gold; tables not
    played yet are empty boxes; the third place under the final."""
    size, rounds = int(data["size"]), int(data["rounds"])
    first_tables = size // 2
    box_height = 2 * NAME + 4
    body = first_tables * (box_height + GAP)
    width = max(600, 48 + rounds * BOX_WIDTH + (rounds - 1) * ROUND_GAP)
    height = HEADER + 24 + body + box_height + 40
    c = draw.canvas(BACKGROUND, audit=audit, size=(width, height))
    said = _header(c, width, data, locale)
    known = {(int(r), int(n)): (a, b, int(w)) for r, n, a, b, w in data["tables"]}
    top = HEADER + 16

    def y_of(round_: int, table: int) -> int:
        pitch = body / (first_tables >> (round_ - 1))
        return int(top + pitch * table + (pitch - box_height - GAP) / 2)

    for round_ in range(1, rounds + 1):
        left = 24 + (round_ - 1) * (BOX_WIDTH + ROUND_GAP)
        for table in range(first_tables >> (round_ - 1)):
            y = y_of(round_, table)
            if round_ < rounds:  # the line to the table its winner goes to
                middle, joined = y + box_height // 2, y_of(round_ + 1, table // 2) + box_height // 2
                elbow = left + BOX_WIDTH + ROUND_GAP // 2
                c.draw.line(
                    [(left + BOX_WIDTH, middle), (elbow, middle), (elbow, joined)], fill=LOST, width=1
                )
                c.draw.line([(elbow, joined), (left + BOX_WIDTH + ROUND_GAP, joined)], fill=LOST, width=1)
            said += _table(c, (left, y), known.get((round_, table)), locale)
        if round_ == rounds and (round_, 1) in known:
            y = y_of(round_, 0) + 2 * box_height
            label = t("tournaments.picture.third_place", locale)
            box = (left, y, left + BOX_WIDTH, y + 18)
            draw.text_box(c, box, label, max_size=13, min_size=draw.MIN_TEXT, fill=GOLD)
            said.append(label)
            said += _table(c, (left, y + 20), known[(round_, 1)], locale)
    return c, "\n".join(said)


def _table(
    c: draw.Canvas, at: tuple[int, int], table: tuple[Any, Any, int] | None, locale: str | None
) -> list[str]:
    left, top = at
    draw.panel(
        c,
        (left, top, left + BOX_WIDTH, top + 2 * NAME + 4),
        PANEL,
        GOLD if table else LOST,
        radius=6,
        width=1,
    )
    if table is None:
        return []
    first, second, winner = table
    said = []
    for seat, name in enumerate((first, second)):
        shown = name_of(name, locale)
        fill = INK if winner < 0 else GOLD if winner == seat else LOST
        y = top + 2 + seat * NAME
        draw.text_box(
            c, (left + 8, y, left + BOX_WIDTH - 8, y + NAME), shown, max_size=14, min_size=draw.MIN_TEXT,
            fill=fill, valign="middle", bold=winner == seat,
        )  # fmt: skip
        said.append(shown)
    return [" / ".join(said)]


def png(kind: str, data: dict[str, Any], locale: str | None) -> bytes:
    """The picture's PNG, its rows unfiltered (`figures.png`): the standings are drawn again after every
    match, and Pillow's choice of a filter for each row of their 1272 × 920 pixels cost 27 ms of the 53
    a picture took, the file no smaller (115 kB for 112); the same pixels and description either way."""
    canvas, described = (standings if kind == "standings" else bracket)(data, locale)
    return figures.png(canvas.image, described)
