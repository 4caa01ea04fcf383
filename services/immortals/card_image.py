"""How an Immortal's War unit is drawn: a frame by its tier (commune, rare, légendaire), its own picture
(data/art/immortals.json: the unit, a motif, in its family's palettes, on its terrain's scene), its
favourite terrain as a badge, its level as stars (one to five), its
Attack and Defense at that level as counts of two-sided dice, and its own bonuses (from level 3), those
the level has not reached yet dimmed.

The level is the copy's `stars` (`CardCopy.stars`, 1 to 5: a unit's level is its only progress, drawn as
stars like HOSS's); `/card` shows a new copy, level 1.
"""

from __future__ import annotations

from typing import Any

from core.i18n import t
from engine.immortals import MAX_LEVEL, ImmortalsCard, ImmortalsCatalog
from services.community.card_images import draw
from services.community.card_images.draw import MIN_TEXT, WIDTH, Canvas, Palette
from services.community.card_images.spec import CardArt, CardCopy
from services.immortals.economy import GAME_KEY
from services.immortals.names import TERRAIN_KEYS, TIER_KEYS, effect_text
from services.infra.messages import render_text

TIER_PALETTES = {
    1: Palette((200, 150, 104), (84, 50, 26)),
    2: Palette((214, 224, 238), (74, 88, 124)),
    3: Palette((255, 214, 120), (110, 30, 110)),
}
TIER_COLORS = {1: 0xB88250, 2: 0xB4C0D8, 3: 0xD070C0}
TERRAIN_COLORS = {  # dark enough for white text at 4.5:1 (WCAG AA)
    "foret": (28, 84, 38),
    "desert": (122, 84, 30),
    "plaine": (58, 96, 24),
    "marais": (42, 70, 66),
}
INK_LIGHT = (238, 236, 232)
INK_DIM = (130, 128, 136)
TEXT_BACKGROUND = (22, 20, 26)

ART = (26, 70, 334, 256)
FAMILY_LINE = (30, 262, 330, 286)
STARS_Y = 302
TEXT_PANEL = (26, 318, 334, 414)


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
        min_size=MIN_TEXT,
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
            min_size=MIN_TEXT,
            fill=INK_LIGHT if bonus.level <= level else INK_DIM,
            valign="middle",
        )


def layout(card: Any, catalog: Any, copy: CardCopy, locale: str, audit: draw.Audit) -> Canvas:
    assert isinstance(card, ImmortalsCard)
    assert isinstance(catalog, ImmortalsCatalog)
    level = level_of(copy)
    palette = TIER_PALETTES[card.tier]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (26, 20, 28))
    draw.picture(c, ART, GAME_KEY, card.id, palette.light)
    _terrain_badge(c, card, palette, locale)
    family = catalog.family(card.family)
    family_name = family.name.get(locale) if family is not None else card.family
    draw.caption(c, FAMILY_LINE, draw.parts([family_name, t(TIER_KEYS[card.tier], locale)], locale), palette)
    draw.stars(c, (WIDTH // 2 + 30, STARS_Y), level, 18, palette.light, empty=MAX_LEVEL - level)
    draw.text_box(
        c,
        (34, STARS_Y - 10, 120, STARS_Y + 10),
        t("immortals.card.level_short", locale, level=level),
        max_size=14,
        min_size=MIN_TEXT,
        fill=palette.light,
        valign="middle",
    )
    _bonuses(c, card, level, palette, locale)
    attack, defense = card.attack[level - 1], card.defense[level - 1]
    attack_dice = t("immortals.card.dice", locale, count=attack)
    defense_dice = t("immortals.card.dice", locale, count=defense)
    draw.badge(c, (80, 456), 36, attack_dice, t("immortals.card.attack_short", locale), palette)
    draw.badge(c, (280, 456), 36, defense_dice, t("immortals.card.defense_short", locale), palette)
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
    worth=lambda card: card.tier,
)
