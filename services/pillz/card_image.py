"""How a Pillz character is drawn: a frame by its stars (one to five, drawn as shapes), its own picture
(data/art/pillz.json: the character, an accessory, on its clan's scene), a crown for a clan leader,
its power (P) and damage (D), and its ability."""

from __future__ import annotations

from typing import Any

from core.i18n import format_int, t
from engine.pillz import PillzCard, PillzCatalog
from services.community.card_images import draw
from services.community.card_images.draw import MIN_TEXT, WIDTH, Canvas, Palette
from services.community.card_images.spec import CardArt, CardCopy
from services.pillz.economy import GAME_KEY
from services.pillz.names import ABILITY_KEYS, clan_name

STAR_PALETTES = {
    1: Palette((176, 150, 120), (70, 56, 40)),
    2: Palette((210, 220, 232), (90, 100, 120)),
    3: Palette((250, 210, 100), (140, 96, 20)),
    4: Palette((255, 120, 120), (120, 20, 40)),
    5: Palette((170, 240, 255), (70, 30, 150)),
}
STAR_COLORS = {1: 0x96785A, 2: 0xB4BECC, 3: 0xF0C040, 4: 0xE05060, 5: 0x8A6CF0}
WHITE = (255, 255, 255)
INK_LIGHT = (238, 238, 242)
GOLD = (255, 214, 90)

ART = (26, 70, 334, 256)
CLAN_LINE = (30, 262, 330, 286)
STARS_Y = 302
TEXT_PANEL = (26, 318, 334, 414)
TEXT = (38, 326, 322, 406)


def layout(card: Any, catalog: Any, copy: CardCopy, locale: str, audit: draw.Audit) -> Canvas:
    assert isinstance(card, PillzCard)
    assert isinstance(catalog, PillzCatalog)
    stars = copy.stars if 1 <= copy.stars <= 5 else card.stars
    palette = STAR_PALETTES[stars]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (22, 22, 28))
    draw.picture(c, ART, GAME_KEY, card.id, palette.light)
    if card.leader:
        draw.emblem(
            c, GAME_KEY, "leader", (ART[2] - 48, ART[1] + 6, ART[2] - 6, ART[1] + 48), GOLD, ring=GOLD
        )
    draw.caption(c, CLAN_LINE, clan_name(catalog, card.clan, locale), palette)
    draw.stars(c, (WIDTH // 2, STARS_Y), stars, 20, palette.light)
    if card.ability is not None or card.leader:
        draw.panel(c, TEXT_PANEL, (20, 20, 26), palette.dark)
    if card.ability is not None:
        ability = card.ability
        text = f"{ability.name.get(locale)}\n{t(ABILITY_KEYS[ability.kind], locale, value=ability.value)}"
        if card.leader:
            text = f"{t('pillz.card.leader', locale)}\n{text}"
        draw.text_box(c, TEXT, text, max_size=17, min_size=MIN_TEXT, fill=INK_LIGHT)
    elif card.leader:
        draw.text_box(c, TEXT, t("pillz.card.leader", locale), max_size=17, min_size=MIN_TEXT, fill=INK_LIGHT)
    draw.badge(c, (80, 452), 36, format_int(card.power, locale), t("pillz.card.power_short", locale), palette)
    draw.badge(
        c, (280, 452), 36, format_int(card.damage, locale), t("pillz.card.damage_short", locale), palette
    )
    if copy.holo:
        draw.holo(c)
    return c


def color(card: Any, copy: CardCopy) -> int:
    assert isinstance(card, PillzCard)
    return STAR_COLORS[copy.stars if 1 <= copy.stars <= 5 else card.stars]


CARD_ART = CardArt(
    layout=layout,
    default_copy=lambda card: CardCopy(None, card.stars, False),
    color=color,
    back=Palette((60, 180, 160), (10, 40, 50), accent=(220, 255, 240)),
    worth=lambda card: card.stars,
)
