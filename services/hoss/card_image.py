"""How a HOSS card is drawn: a frame in its copy's rarity, its own picture (data/art/hoss.json: the
creature its name describes, a weapon or token, on its race's scene), its race and elements as
emblems, the copy's PV and ATK (its rarity, stars and holo included, as /hoss collection shows them), its rhythm,
critical hits and markers, its stars, and the holo shimmer.

A creature's numbers come from the battle engine's own function (`services.hoss.collection`), so the
card shows what the battle will use.
"""

from __future__ import annotations

from typing import Any

from core.i18n import format_decimal, format_int, format_percent, t
from engine.hoss import BP, BuffCard, CreatureCard, bp, buff_strength_bp, copy_bonus_pm
from services.community.card_images import draw
from services.community.card_images.draw import MIN_TEXT, WIDTH, Canvas, Palette
from services.community.card_images.spec import CardArt, CardCopy
from services.hoss.collection import creature_stats
from services.hoss.keys import BUFF_KEYS, CLASS_KEYS, RACE_KEYS, RANK_KEYS, RARITY_KEYS, STATUS_KEYS
from services.infra.messages import Text, render_text

RARITY_PALETTES = {
    "basique": Palette((178, 178, 184), (74, 74, 82)),
    "argent": Palette((236, 240, 246), (122, 130, 146)),
    "or": Palette((255, 218, 112), (158, 104, 18)),
    "platine": Palette((208, 246, 240), (70, 138, 140)),
    "diamant": Palette((160, 226, 255), (28, 86, 176)),
    "divin": Palette((255, 176, 238), (112, 28, 146)),
}
RARITY_COLORS = {
    "basique": 0x9A9AA2,
    "argent": 0xC8CED8,
    "or": 0xF0B93A,
    "platine": 0x7FD6CF,
    "diamant": 0x4FA8F0,
    "divin": 0xD04CE0,
}
HOLO_COLOR = 0xC0A0FF
# The colour of each race's emblem and of each element's.
RACE_COLORS: dict[str, draw.RGB] = {
    "squelette": (214, 214, 226),
    "orc": (196, 226, 110),
    "sylvestre": (150, 236, 170),
    "humain": (232, 200, 128),
}
ELEMENT_COLORS: dict[str, draw.RGB] = {
    "feu": (255, 120, 40),
    "glace": (150, 220, 255),
    "foudre": (255, 230, 70),
    "poison": (140, 220, 80),
}
GAME_KEY = "hoss"
MAX_STARS = 5
WHITE = (255, 255, 255)
INK_LIGHT = (236, 236, 240)

ART = (26, 70, 334, 262)
TYPE_LINE = (30, 268, 330, 292)
STARS_Y = 306
TEXT = (34, 324, 326, 410)


def _percent(value: float, locale: str) -> str:
    return format_percent(value, locale)


def _rarity(copy: CardCopy) -> str:
    return copy.rarity if copy.rarity in RARITY_PALETTES else "basique"


def layout(card: Any, _catalog: Any, copy: CardCopy, locale: str, audit: draw.Audit) -> Canvas:
    rarity = _rarity(copy)
    palette = RARITY_PALETTES[rarity]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (24, 24, 30))
    bonus = copy_bonus_pm(rarity, copy.stars, copy.holo)  # type: ignore[arg-type]
    if isinstance(card, CreatureCard):
        _creature(c, card, bonus, palette, locale)
    else:
        assert isinstance(card, BuffCard)
        _buff(c, card, bonus, palette, locale)
    rarity_name = t(RARITY_KEYS[rarity], locale)
    draw.stars(c, (WIDTH // 2, STARS_Y), copy.stars, 18, palette.light, empty=MAX_STARS - copy.stars)
    draw.text_box(
        c,
        (34, STARS_Y - 10, 130, STARS_Y + 10),
        rarity_name,
        max_size=14,
        min_size=MIN_TEXT,
        fill=palette.light,
        valign="middle",
    )
    if copy.holo:
        draw.holo(c)
    return c


def _creature(c: Canvas, card: CreatureCard, bonus: int, palette: Palette, locale: str) -> None:
    draw.picture(c, ART, GAME_KEY, card.id, palette.light)
    race = RACE_COLORS[card.race]
    draw.emblem(
        c, GAME_KEY, f"race:{card.race}", (ART[0] + 6, ART[1] + 6, ART[0] + 46, ART[1] + 46), race, ring=race
    )
    for index, element in enumerate(card.elements):
        color = ELEMENT_COLORS[element]
        right = ART[2] - 6 - index * 44
        draw.emblem(
            c, GAME_KEY, f"element:{element}", (right - 40, ART[1] + 6, right, ART[1] + 46), color, ring=color
        )
    kind = draw.parts(
        [t(RACE_KEYS[card.race], locale), t(CLASS_KEYS[card.cls], locale), t(RANK_KEYS[card.rank], locale)],
        locale,
    )
    draw.caption(c, TYPE_LINE, kind, palette)
    stats = creature_stats(card, bonus)
    lines: list[str] = []
    if card.cls == "defenseur":
        lines.append(draw.stat(t("hoss.label.block", locale), _percent(stats.block, locale), locale))
        reduction = _percent(stats.damage_reduction, locale)
        lines.append(draw.stat(t("hoss.label.reduction", locale), reduction, locale))
    else:
        seconds = format_decimal(round(stats.interval_s, 2), locale)
        rhythm = t("hoss.seconds", locale, value=seconds)
        lines.append(draw.stat(t("hoss.label.interval", locale), rhythm, locale))
        crit = t(
            "hoss.crit_value",
            locale,
            chance=format_decimal(round(stats.crit_chance * 100, 1), locale),
            damage=round(stats.crit_multiplier * 100),
        )
        lines.append(draw.stat(t("hoss.label.crit", locale), crit, locale))
    markers = [
        render_text(
            Text(
                "hoss.status_chance",
                {"status": Text(STATUS_KEYS[s]), "chance": format_decimal(round(p * 100, 1), locale)},
            ),
            locale,
        )
        for s, p in sorted(stats.statuses.items())
    ]
    if markers:
        lines.append(draw.parts(markers, locale))
    draw.panel(c, (TEXT[0] - 8, TEXT[1] - 6, TEXT[2] + 8, TEXT[3] + 6), (20, 20, 26), palette.dark)
    draw.text_box(c, TEXT, "\n".join(lines), max_size=15, min_size=MIN_TEXT, fill=INK_LIGHT)
    if card.cls == "defenseur":
        block = format_percent(stats.block, locale, digits=0)
        draw.badge(c, (80, 452), 36, block, t("hoss.label.block", locale), palette)
    else:
        draw.badge(
            c, (80, 452), 36, format_int(round(stats.atk), locale), t("hoss.label.atk", locale), palette
        )
    draw.badge(c, (280, 452), 36, format_int(round(stats.pv), locale), t("hoss.label.pv", locale), palette)
    draw.text_box(
        c,
        (126, 432, 234, 472),
        t("hoss.card.rank_short", locale, rank=card.rank),
        max_size=28,
        min_size=12,
        fill=palette.light,
        align="center",
        valign="middle",
        bold=True,
    )


def _buff(c: Canvas, card: BuffCard, bonus: int, palette: Palette, locale: str) -> None:
    draw.picture(c, ART, GAME_KEY, card.id, palette.light)
    draw.caption(c, TYPE_LINE, t("hoss.label.buff", locale), palette)
    strength = round(buff_strength_bp(bp(card.power), bonus) / BP * 100)  # as /hoss collection shows it
    effect = t(BUFF_KEYS[card.effect], locale, power=strength)
    draw.panel(c, (TEXT[0] - 8, TEXT[1] - 6, TEXT[2] + 8, TEXT[3] + 6), (20, 20, 26), palette.dark)
    draw.text_box(
        c, TEXT, effect, max_size=20, min_size=MIN_TEXT, fill=INK_LIGHT, align="center", valign="middle"
    )
    strength_text = format_percent(strength / 100, locale, digits=0)
    draw.badge(c, (WIDTH // 2, 452), 36, strength_text, t("hoss.label.buff", locale), palette)


def color(_card: Any, copy: CardCopy) -> int:
    return HOLO_COLOR if copy.holo else RARITY_COLORS[_rarity(copy)]


CARD_ART = CardArt(
    layout=layout,
    default_copy=lambda _card: CardCopy("basique", 0, False),
    color=color,
    back=Palette((120, 90, 200), (30, 20, 60), accent=(240, 220, 255)),
    worth=lambda card: card.rank if isinstance(card, CreatureCard) else 0,
)
