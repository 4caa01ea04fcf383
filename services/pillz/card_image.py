"""How a Pillz character is drawn: a frame by its stars (one to five, drawn as shapes), its clan's colours,
pattern and emblem, a crown for a clan leader, its power (P) and damage (D), and its ability."""

from __future__ import annotations

from typing import Any

from core.i18n import t
from engine.pillz import PillzCard, PillzCatalog
from services.pillz.names import ABILITY_KEYS, clan_name
from services.platform.card_images import draw
from services.platform.card_images.draw import WIDTH, Canvas, Palette
from services.platform.card_images.spec import CardArt, CardCopy

STAR_PALETTES = {
    1: Palette((176, 150, 120), (70, 56, 40)),
    2: Palette((210, 220, 232), (90, 100, 120)),
    3: Palette((250, 210, 100), (140, 96, 20)),
    4: Palette((255, 120, 120), (120, 20, 40)),
    5: Palette((170, 240, 255), (70, 30, 150)),
}
STAR_COLORS = {1: 0x96785A, 2: 0xB4BECC, 3: 0xF0C040, 4: 0xE05060, 5: 0x8A6CF0}
# A clan's look: art colours (light, dark, shapes), pattern, emblem. A clan not listed (a catalog adding
# one) gets colours and a pattern drawn from its id.
CLAN_ART: dict[str, draw.GroupArt] = {
    "ashigaru": (((170, 40, 40), (40, 10, 10), (250, 230, 200)), "rays", "fan"),
    "corsaires": (((20, 90, 140), (6, 28, 52), (240, 210, 140)), "waves", "anchor"),
    "moines": (((120, 140, 150), (36, 44, 56), (240, 244, 250)), "rings", "moon"),
    "mecanos": (((150, 100, 50), (50, 30, 14), (220, 190, 120)), "scales", "gear"),
    "sorcieres": (((80, 120, 60), (20, 36, 20), (200, 160, 240)), "dots", "cauldron"),
    "gladiateurs": (((180, 130, 60), (70, 30, 10), (250, 220, 150)), "shards", "laurel"),
}
WHITE = (255, 255, 255)
INK_LIGHT = (238, 238, 242)
GOLD = (255, 214, 90)

ART = (26, 70, 334, 256)
CLAN_LINE = (30, 262, 330, 286)
STARS_Y = 302
TEXT_PANEL = (26, 318, 334, 414)
TEXT = (38, 326, 322, 406)


def _clan_art(clan: str) -> draw.GroupArt:
    return draw.group_art(CLAN_ART, "clan", clan)


def layout(card: Any, catalog: Any, copy: CardCopy, locale: str, audit: bool) -> Canvas:
    assert isinstance(card, PillzCard)
    assert isinstance(catalog, PillzCatalog)
    stars = copy.stars if 1 <= copy.stars <= 5 else card.stars
    palette = STAR_PALETTES[stars]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (22, 22, 28))
    colors, motif, emblem = _clan_art(card.clan)
    draw.art_panel(c, ART, card.id, colors, motif, palette.light)
    cx, cy = (ART[0] + ART[2]) // 2, (ART[1] + ART[3]) // 2
    draw.icon(c, emblem, (cx - 58, cy - 58, cx + 58, cy + 58), colors[2])
    if card.leader:
        c.draw.ellipse(
            [ART[2] - 48, ART[1] + 6, ART[2] - 6, ART[1] + 48], fill=(16, 12, 8), outline=GOLD, width=2
        )
        draw.icon(c, "crown", (ART[2] - 42, ART[1] + 12, ART[2] - 12, ART[1] + 42), GOLD)
    draw.caption(c, CLAN_LINE, clan_name(catalog, card.clan, locale), palette)
    draw.stars(c, (WIDTH // 2, STARS_Y), stars, 20, palette.light)
    if card.ability is not None or card.leader:
        draw.panel(c, TEXT_PANEL, (20, 20, 26), palette.dark)
    if card.ability is not None:
        ability = card.ability
        text = f"{ability.name.get(locale)}\n{t(ABILITY_KEYS[ability.kind], locale, value=ability.value)}"
        if card.leader:
            text = f"{t('pillz.card.leader', locale)}\n{text}"
        draw.text_box(c, TEXT, text, max_size=17, min_size=8, fill=INK_LIGHT)
    elif card.leader:
        draw.text_box(c, TEXT, t("pillz.card.leader", locale), max_size=17, min_size=8, fill=INK_LIGHT)
    draw.badge(c, (80, 452), 36, str(card.power), t("pillz.card.power_short", locale), palette)
    draw.badge(c, (280, 452), 36, str(card.damage), t("pillz.card.damage_short", locale), palette)
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
)
