"""How an Immortal's War unit is drawn: a frame by its tier (commune, rare, légendaire), its family's
colours, pattern and emblem, its favourite terrain as a badge, its level as stars (one to five), its
Attack and Defense at that level as counts of two-sided dice, and its own bonuses (from level 3), those
the level has not reached yet dimmed.

The level is the copy's `stars` (`CardCopy.stars`, 1 to 5: a unit's level is its only progress, drawn as
stars like HOSS's); `/card` shows a new copy, level 1.
"""

from __future__ import annotations

from typing import Any

from core.i18n import t
from engine.immortals import MAX_LEVEL, ImmortalsCard, ImmortalsCatalog
from services.immortals.names import TERRAIN_KEYS, TIER_KEYS, effect_text
from services.platform.card_images import draw
from services.platform.card_images.draw import WIDTH, Canvas, Palette
from services.platform.card_images.spec import CardArt, CardCopy
from services.platform.messages import render_text

TIER_PALETTES = {
    1: Palette((200, 150, 104), (84, 50, 26)),
    2: Palette((214, 224, 238), (74, 88, 124)),
    3: Palette((255, 214, 120), (110, 30, 110)),
}
TIER_COLORS = {1: 0xB88250, 2: 0xB4C0D8, 3: 0xD070C0}
# A family's look: art colours (light, dark, shapes), pattern and emblem. A family not listed (a catalog
# adding one) gets colours and a pattern drawn from its id.
FAMILY_ART: dict[str, draw.GroupArt] = {
    "demons": (((170, 32, 30), (42, 6, 10), (255, 152, 64)), "shards", "horns"),
    "anges": (((214, 204, 160), (86, 88, 132), (255, 255, 238)), "rays", "halo"),
    "morts_vivants": (((92, 112, 92), (20, 26, 24), (214, 232, 204)), "scales", "skull"),
    "elfes": (((52, 132, 82), (10, 40, 24), (222, 242, 172)), "waves", "leaf"),
    "nains": (((140, 100, 60), (46, 30, 16), (232, 204, 144)), "rings", "helm"),
    "orcs": (((102, 122, 40), (30, 36, 10), (242, 222, 162)), "shards", "tusks"),
    "dragons": (((150, 30, 62), (30, 8, 20), (255, 192, 82)), "scales", "flame"),
    "betes": (((132, 92, 50), (40, 26, 14), (242, 222, 192)), "dots", "paw"),
}
TERRAIN_COLORS = {
    "foret": (34, 96, 44),
    "desert": (176, 132, 60),
    "plaine": (96, 140, 40),
    "marais": (54, 84, 80),
}
INK_LIGHT = (238, 236, 232)
INK_DIM = (130, 128, 136)
TEXT_BACKGROUND = (22, 20, 26)

ART = (26, 70, 334, 256)
FAMILY_LINE = (30, 262, 330, 286)
STARS_Y = 302
TEXT_PANEL = (26, 318, 334, 414)


def _square(box: draw.Box) -> tuple[float, float, float]:
    left, top, right, bottom = box
    s = min(right - left, bottom - top)
    return left + (right - left - s) / 2, top + (bottom - top - s) / 2, s


def _horns(c: Canvas, box: draw.Box, color: draw.RGB) -> None:
    x, y, s = _square(box)
    c.draw.ellipse([x + 0.26 * s, y + 0.4 * s, x + 0.74 * s, y + 0.92 * s], fill=color)
    for side in (1, -1):
        base = 0.5 + side * 0.16
        points = [(base - side * 0.08, 0.52), (base + side * 0.1, 0.46), (0.5 + side * 0.42, 0.06)]
        c.draw.polygon([(x + px * s, y + py * s) for px, py in points], fill=color)


def _halo(c: Canvas, box: draw.Box, color: draw.RGB) -> None:
    x, y, s = _square(box)
    c.draw.ellipse(
        [x + 0.28 * s, y + 0.06 * s, x + 0.72 * s, y + 0.24 * s], outline=color, width=max(2, int(s / 16))
    )
    for side in (1, -1):
        wing = [(0.5, 0.42), (0.5 + side * 0.46, 0.3), (0.5 + side * 0.4, 0.62), (0.5 + side * 0.2, 0.86)]
        c.draw.polygon([(x + px * s, y + py * s) for px, py in wing], fill=color)
    c.draw.ellipse([x + 0.38 * s, y + 0.32 * s, x + 0.62 * s, y + 0.56 * s], fill=color)


def _paw(c: Canvas, box: draw.Box, color: draw.RGB) -> None:
    x, y, s = _square(box)
    c.draw.ellipse([x + 0.26 * s, y + 0.46 * s, x + 0.74 * s, y + 0.92 * s], fill=color)
    for cx, cy in ((0.18, 0.4), (0.36, 0.18), (0.64, 0.18), (0.82, 0.4)):
        c.draw.ellipse(
            [x + (cx - 0.1) * s, y + (cy - 0.12) * s, x + (cx + 0.1) * s, y + (cy + 0.12) * s], fill=color
        )


EMBLEMS = {"horns": _horns, "halo": _halo, "paw": _paw}


def _family_art(family: str) -> draw.GroupArt:
    return draw.group_art(FAMILY_ART, "family", family)


def level_of(copy: CardCopy) -> int:
    return copy.stars if 1 <= copy.stars <= MAX_LEVEL else 1


def _terrain_badge(c: Canvas, card: ImmortalsCard, palette: Palette, locale: str) -> None:
    """The favourite terrain, top left of the picture, on its terrain's colour."""
    box = (ART[0] + 8, ART[1] + 8, ART[0] + 132, ART[1] + 34)
    draw.panel(c, box, TERRAIN_COLORS.get(card.terrain, (60, 60, 66)), palette.light, radius=12)
    name = t(TERRAIN_KEYS.get(card.terrain, "immortals.terrain.unknown"), locale)
    draw.text_box(
        c,
        (box[0] + 8, box[1] + 3, box[2] - 8, box[3] - 3),
        name,
        max_size=15,
        min_size=8,
        fill=(255, 255, 255),
        align="center",
        valign="middle",
        bold=True,
    )


def _bonuses(c: Canvas, card: ImmortalsCard, level: int, palette: Palette, locale: str) -> None:
    """The unit's own bonuses, one a row; a bonus the level has not reached is dimmed."""
    draw.panel(c, TEXT_PANEL, TEXT_BACKGROUND, palette.dark)
    left, top, right, bottom = TEXT_PANEL[0] + 12, TEXT_PANEL[1] + 8, TEXT_PANEL[2] - 12, TEXT_PANEL[3] - 8
    row = (bottom - top) // len(card.bonuses)
    for index, bonus in enumerate(card.bonuses):
        effect = render_text(effect_text(bonus.stat, bonus.value), locale)
        draw.text_box(
            c,
            (left, top + index * row, right, top + (index + 1) * row),
            t("immortals.card.bonus", locale, level=bonus.level, effect=effect),
            max_size=17,
            min_size=8,
            fill=INK_LIGHT if bonus.level <= level else INK_DIM,
            valign="middle",
        )


def layout(card: Any, catalog: Any, copy: CardCopy, locale: str, audit: bool) -> Canvas:
    assert isinstance(card, ImmortalsCard)
    assert isinstance(catalog, ImmortalsCatalog)
    level = level_of(copy)
    palette = TIER_PALETTES[card.tier]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (26, 20, 28))
    colors, motif, emblem = _family_art(card.family)
    draw.art_panel(c, ART, card.id, colors, motif, palette.light)
    cx, cy = (ART[0] + ART[2]) // 2, (ART[1] + ART[3]) // 2 + 10
    box = (cx - 56, cy - 56, cx + 56, cy + 56)
    own = EMBLEMS.get(emblem)
    if own is not None:
        own(c, box, colors[2])
    else:
        draw.icon(c, emblem, box, colors[2])
    _terrain_badge(c, card, palette, locale)
    family = catalog.family(card.family)
    family_name = family.name.get(locale) if family is not None else card.family
    draw.caption(c, FAMILY_LINE, f"{family_name} · {t(TIER_KEYS[card.tier], locale)}", palette)
    draw.stars(c, (WIDTH // 2 + 30, STARS_Y), level, 18, palette.light, empty=MAX_LEVEL - level)
    draw.text_box(
        c,
        (34, STARS_Y - 10, 120, STARS_Y + 10),
        t("immortals.card.level_short", locale, level=level),
        max_size=14,
        min_size=9,
        fill=palette.light,
        valign="middle",
    )
    _bonuses(c, card, level, palette, locale)
    attack, defense = card.attack[level - 1], card.defense[level - 1]
    draw.badge(c, (80, 456), 36, f"{attack}D2", t("immortals.card.attack_short", locale), palette)
    draw.badge(c, (280, 456), 36, f"{defense}D2", t("immortals.card.defense_short", locale), palette)
    if copy.holo:
        draw.holo(c)
    return c


def color(card: Any, _copy: CardCopy) -> int:
    assert isinstance(card, ImmortalsCard)
    return TIER_COLORS[card.tier]


CARD_ART = CardArt(
    layout=layout,
    default_copy=lambda _card: CardCopy(None, 1, False),
    color=color,
    back=Palette((150, 60, 60), (30, 10, 24), accent=(255, 226, 180)),
)
