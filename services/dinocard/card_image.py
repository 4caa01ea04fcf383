"""How a Dinocard card is drawn: a frame by rarity (commune, inhabituelle, rare), its own picture
(data/art/dinocard.json: the dinoz, spell or object, a motif, on its element's scene), its type as a
badge, its cost as bubbles (of its element, then grey ones, as the rulebook's « billes »), its
capacities in the reader's language and, for a dinoz, its force, éclosion and endurance. A dinoz
without capacities gets a taller picture in place of the text."""

from __future__ import annotations

from typing import Any

from core.i18n import format_int, t
from engine.dinocard import DinocardCard
from services.community.card_images import draw
from services.community.card_images.draw import MIN_TEXT, Canvas, Palette
from services.community.card_images.spec import CardArt, CardCopy
from services.dinocard.economy import GAME_KEY
from services.dinocard.keys import ABILITY_KEYS, ELEMENT_KEYS, RARITY_KEYS, TYPE_KEYS

RARITY_PALETTES = {
    "commune": Palette((206, 204, 198), (78, 78, 84)),
    "inhabituelle": Palette((178, 222, 246), (40, 86, 130)),
    "rare": Palette((252, 216, 112), (142, 88, 10)),
}
RARITY_COLORS = {"commune": 0xA8A8A4, "inhabituelle": 0x5A9BD0, "rare": 0xE8B440}
# The colour of an element's cost bubbles.
BUBBLES: dict[str, draw.RGB] = {
    "feu": (236, 84, 40),
    "bois": (74, 172, 62),
    "eau": (52, 132, 224),
    "foudre": (244, 204, 44),
    "ciel": (190, 224, 250),
}
GREY_BUBBLE = (150, 150, 156)
INK_LIGHT = (238, 236, 230)
TEXT_BACKGROUND = (22, 22, 26)

# (picture, element and rarity line, text panel): a dinoz keeps the bottom for its three badges, other
# types have no badge and a taller picture, a dinoz without capacities has no text.
DINOZ = ((26, 70, 334, 250), (30, 256, 330, 280), (26, 288, 334, 410))
SPELL = ((26, 70, 334, 296), (30, 302, 330, 326), (26, 334, 334, 478))
PLAIN_DINOZ = ((26, 70, 334, 380), (30, 386, 330, 410), None)
BUBBLE_RADIUS = 11


def _cost(c: Canvas, card: DinocardCard, art: draw.Box, bubble: draw.RGB) -> None:
    """The cost, top left of the picture: a bubble of the element per coloured energy, then grey ones."""
    colours = [bubble] * card.cost.colored + [GREY_BUBBLE] * card.cost.grey
    r = BUBBLE_RADIUS
    for index, fill in enumerate(colours):
        cx, cy = art[0] + 8 + r + index * (2 * r + 4), art[1] + 8 + r
        c.draw.ellipse([cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2], fill=(12, 12, 16))
        c.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=(255, 255, 255), width=2)
        c.draw.ellipse([cx - r / 2 - 2, cy - r / 2 - 2, cx - r / 2 + 3, cy - r / 2 + 3], fill=(255, 255, 255))


def _type_badge(c: Canvas, card: DinocardCard, art: draw.Box, palette: Palette, locale: str) -> None:
    """The type, top right of the picture, in a badge of the rarity's colours."""
    box = (art[2] - 132, art[1] + 8, art[2] - 8, art[1] + 34)
    draw.panel(c, box, palette.dark, palette.light, radius=12)
    draw.text_box(
        c,
        (box[0] + 8, box[1] + 3, box[2] - 8, box[3] - 3),
        t(TYPE_KEYS[card.type], locale),
        max_size=15,
        min_size=MIN_TEXT,
        fill=palette.accent,
        align="center",
        valign="middle",
        bold=True,
    )


def abilities(card: DinocardCard, locale: str) -> str:
    """The capacities, one a line, in the reader's language (the catalog's vocabulary)."""
    return "\n".join(t(ABILITY_KEYS[a.kind], locale, value=a.value) for a in card.abilities)


def layout(card: Any, _catalog: Any, copy: CardCopy, locale: str, audit: draw.Audit) -> Canvas:
    assert isinstance(card, DinocardCard)
    rarity = copy.rarity if copy.rarity in RARITY_PALETTES else card.rarity
    palette = RARITY_PALETTES[rarity]
    c = draw.canvas(audit=audit)
    draw.frame(c, palette)
    draw.title(c, card.name.get(locale), palette, (24, 22, 20))
    bubble = BUBBLES.get(card.element, GREY_BUBBLE)
    art, kind_line, panel = (DINOZ if card.abilities else PLAIN_DINOZ) if card.type == "dinoz" else SPELL
    draw.picture(c, art, GAME_KEY, card.id, palette.light)
    _type_badge(c, card, art, palette, locale)
    _cost(c, card, art, bubble)
    kind = draw.parts([t(ELEMENT_KEYS[card.element], locale), t(RARITY_KEYS[rarity], locale)], locale)
    draw.caption(c, kind_line, kind, palette)
    if panel is not None:
        draw.panel(c, panel, TEXT_BACKGROUND, palette.dark)
        text = (panel[0] + 12, panel[1] + 8, panel[2] - 12, panel[3] - 8)
        align = "left" if card.type == "dinoz" else "center"
        draw.text_box(
            c,
            text,
            abilities(card, locale),
            max_size=20,
            min_size=MIN_TEXT,
            fill=INK_LIGHT,
            align=align,
            valign="middle",
        )
    if card.type == "dinoz":
        stats = (card.force, card.eclosion, card.endurance)
        labels = (
            "dinocard.card.force_short",
            "dinocard.card.eclosion_short",
            "dinocard.card.endurance_short",
        )
        for x, value, label in zip((74, 180, 286), stats, labels, strict=True):
            assert value is not None  # a dinoz has all three (engine.dinocard validates the catalog)
            draw.badge(c, (x, 452), 34, format_int(value, locale), t(label, locale), palette)
    if copy.holo:
        draw.holo(c)
    return c


def color(card: Any, copy: CardCopy) -> int:
    assert isinstance(card, DinocardCard)
    return RARITY_COLORS.get(copy.rarity or card.rarity, RARITY_COLORS[card.rarity])


CARD_ART = CardArt(
    layout=layout,
    default_copy=lambda card: CardCopy(card.rarity, 0, False),
    color=color,
    back=Palette((240, 172, 64), (72, 30, 10), accent=(255, 240, 204)),
    worth=lambda card: list(RARITY_PALETTES).index(card.rarity),
)
