"""How a Chocobataille card is drawn: a bronze, silver or gold frame with one or two pips for its level
(the rulebook's six rarities), its own picture (data/art/choco.json: the figure its name suggests,
« Odile Corbeau » a raven, with a wizard's accessory, on a scene by type and rarity), a mark for a
wizard with an effect, its PA and PV, and its effect (name, trigger, text)."""

from __future__ import annotations

from typing import Any

from core.i18n import format_int, t
from engine.choco import ChocoCard
from services.choco.economy import GAME_KEY
from services.choco.names import RARITY_KEYS, TRIGGER_KEYS, TYPE_KEYS
from services.community.card_images import draw
from services.community.card_images.draw import MIN_TEXT, WIDTH, Canvas, Palette
from services.community.card_images.spec import CardArt, CardCopy

RARITY_PALETTES = {
    "bronze_1": Palette((214, 150, 96), (96, 54, 26)),
    "bronze_2": Palette((236, 160, 88), (120, 58, 12)),
    "argent_1": Palette((214, 220, 230), (104, 110, 124)),
    "argent_2": Palette((240, 246, 255), (86, 100, 140)),
    "or_1": Palette((246, 214, 120), (150, 104, 24)),
    "or_2": Palette((255, 232, 120), (170, 90, 0)),
}
RARITY_COLORS = {
    "bronze_1": 0xB8733A,
    "bronze_2": 0xD27A2C,
    "argent_1": 0xB4BAC6,
    "argent_2": 0xD8E0F0,
    "or_1": 0xE0B040,
    "or_2": 0xFFC820,
}
WHITE = (255, 255, 255)
GOLD = (255, 214, 90)
INK_LIGHT = (238, 234, 228)

ART = (26, 70, 334, 256)
TYPE_LINE = (30, 262, 330, 286)
TEXT_PANEL = (26, 294, 334, 414)
TALL_ART = (26, 70, 334, 380)
TALL_TYPE_LINE = (30, 388, 330, 412)
TEXT = (38, 302, 322, 406)


def layout(card: Any, _catalog: Any, copy: CardCopy, locale: str, audit: draw.Audit) -> Canvas:
    assert isinstance(card, ChocoCard)
    rarity = copy.rarity if copy.rarity in RARITY_PALETTES else card.rarity
    palette = RARITY_PALETTES[rarity]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (30, 20, 16))
    # A normal wizard has no text: its picture takes the text's place.
    art, kind_line = (ART, TYPE_LINE) if card.effect is not None else (TALL_ART, TALL_TYPE_LINE)
    draw.picture(c, art, GAME_KEY, card.id, palette.light)
    if card.type == "effect":
        draw.emblem(
            c, GAME_KEY, "effect", (art[2] - 46, art[1] + 6, art[2] - 6, art[1] + 46), GOLD, ring=GOLD
        )
    kind = draw.parts([t(TYPE_KEYS[card.type], locale), t(RARITY_KEYS[rarity], locale)], locale)
    draw.caption(c, kind_line, kind, palette)
    middle = (kind_line[1] + kind_line[3]) // 2
    for index in range(2 if rarity.endswith("_2") else 1):  # the level of the colour, as pips
        x = WIDTH - 44 - index * 16
        c.draw.polygon(
            [(x, middle - 8), (x + 6, middle), (x, middle + 8), (x - 6, middle)], fill=palette.light
        )
    if card.effect is not None:
        effect = card.effect
        draw.panel(c, TEXT_PANEL, (24, 18, 14), palette.dark)
        trigger = t(TRIGGER_KEYS[effect.trigger], locale)
        named = t("cards.face.named", locale, name=effect.name.get(locale), detail=trigger)
        text = f"{named}\n{effect.text.get(locale)}"
        draw.text_box(c, TEXT, text, max_size=17, min_size=MIN_TEXT, fill=INK_LIGHT)
    if card.pa is not None and card.pv is not None:
        draw.badge(c, (80, 452), 36, format_int(card.pa, locale), t("choco.label.pa", locale), palette)
        draw.badge(c, (280, 452), 36, format_int(card.pv, locale), t("choco.label.pv", locale), palette)
    if copy.holo:
        draw.holo(c)
    return c


def color(card: Any, copy: CardCopy) -> int:
    assert isinstance(card, ChocoCard)
    return RARITY_COLORS.get(copy.rarity or card.rarity, RARITY_COLORS[card.rarity])


CARD_ART = CardArt(
    layout=layout,
    default_copy=lambda card: CardCopy(card.rarity, 0, False),
    color=color,
    back=Palette((120, 70, 40), (40, 20, 10), accent=(250, 220, 170)),
    worth=lambda card: list(RARITY_PALETTES).index(card.rarity),
)
