"""A player's profile as a picture, in the cards' style: the name and the day they came, each game's
wallet beside the game's icon, each game's standing (its /profile line), and the best cards held,
drawn as the figures of a hand (`figures.tile`).

What it shows follows the embed it goes with (cogs/platform/profile.py): another player's profile has
no wallets and no cards, only what is public (their games' lines and the day they came).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from services.community.card_images import artwork, draw, figures

SIZE = (720, 526)
BACKGROUND = (22, 20, 28)
PANEL = (34, 32, 42)
GOLD = (255, 214, 90)
INK = (240, 238, 244)
INK_SOFT = (206, 204, 214)  # 9.9:1 on the panel: WCAG AA with room
HEADER = (24, 18, 696, 84)
WALLETS = (24, 100, 300, 304)
RANKS = (316, 100, 696, 304)
CARDS_TOP = 316
CARD_SCALE = 0.72  # three tiles of 144 x 167
ROW = 26


@dataclass(frozen=True)
class Line:
    game: str  # its icon
    label: str
    value: str


@dataclass(frozen=True)
class BestCard:
    game: str
    card_id: str
    name: str
    color: int  # the frame: the rarity's colour, as the card's embed


@dataclass(frozen=True)
class ProfileCard:
    name: str
    joined: str
    wallets_title: str
    wallets: tuple[Line, ...]  # empty for another player's profile
    ranks_title: str
    ranks: tuple[Line, ...]
    cards_title: str
    cards: tuple[BestCard, ...]  # empty for another player's profile


def _lines(c: draw.Canvas, box: draw.Box, title: str, lines: tuple[Line, ...], empty: str) -> None:
    left, top, right, bottom = box
    draw.panel(c, box, PANEL, GOLD, radius=10)
    draw.text_box(
        c, (left + 14, top + 8, right - 14, top + 34), title, max_size=18, min_size=14, fill=GOLD, bold=True
    )
    y = top + 40
    if not lines:
        draw.text_box(
            c, (left + 14, y, right - 14, y + ROW), empty, max_size=15, min_size=draw.MIN_TEXT, fill=INK_SOFT
        )
    for line in lines:
        if y + ROW > bottom - 4:
            break
        artwork.paint(
            c.image, artwork.game_artwork(line.game).icon, (left + 12, y + 2, left + 34, y + 24), GOLD
        )
        middle = (left + 48 + right - 14) // 2 if line.value else right - 14
        draw.text_box(
            c, (left + 48, y, middle, y + ROW), line.label, max_size=15, min_size=draw.MIN_TEXT, fill=INK_SOFT,
            valign="middle",
        )  # fmt: skip
        if line.value:
            draw.text_box(
                c, (middle + 6, y, right - 14, y + ROW), line.value, max_size=17, min_size=draw.MIN_TEXT,
                fill=INK, align="right", valign="middle", bold=True,
            )  # fmt: skip
        y += ROW


def picture(card: ProfileCard, empty: str, *, audit: bool = False) -> draw.Canvas:
    c = draw.canvas(BACKGROUND, audit=audit, size=SIZE)
    c.draw.rounded_rectangle([2, 2, SIZE[0] - 3, SIZE[1] - 3], 16, outline=GOLD, width=3)
    left, top, right, bottom = HEADER
    draw.text_box(c, (left, top, right, top + 40), card.name, max_size=30, min_size=16, fill=INK, bold=True)
    draw.text_box(
        c, (left, top + 42, right, bottom), card.joined, max_size=16, min_size=draw.MIN_TEXT, fill=INK_SOFT
    )
    if card.wallets or card.cards:
        _lines(c, WALLETS, card.wallets_title, card.wallets, empty)
        _lines(c, RANKS, card.ranks_title, card.ranks, empty)
    else:
        _lines(c, (WALLETS[0], WALLETS[1], RANKS[2], RANKS[3]), card.ranks_title, card.ranks, empty)
    if card.cards:
        draw.text_box(
            c,
            (24, CARDS_TOP, 696, CARDS_TOP + 24),
            card.cards_title,
            max_size=18,
            min_size=14,
            fill=GOLD,
            bold=True,
        )
        width = round(figures.TILE[0] * CARD_SCALE)
        height = round(figures.TILE[1] * CARD_SCALE)
        for index, best in enumerate(card.cards[:4]):
            tile = figures.tile(best.game, best.card_id, best.name, best.color).image
            x = 24 + index * (width + 24)
            c.image.paste(tile.resize((width, height), Image.Resampling.LANCZOS), (x, CARDS_TOP + 30))
    return c
