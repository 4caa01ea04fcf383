"""Each card's own picture: a figure and a second motif from game-icons.net, on a scene, in a palette.

What a card shows is curated data, one file a game: `data/art/<game>.json` names, for every card of
the catalog, its `figure` (the creature, the wizard, the unit: « Loup gris » a wolf's head), its
`motif` (a weapon, an element, an accessory, drawn in a medallion), its `palette` (the figure's
colours) and its `scene` (the background: a gradient and a large silhouette, by element, terrain, clan
or rarity), plus the game's own `icon` (the profile's wallets, a card a file forgets) and its `emblems`
(icons a layout draws beside the picture: a HOSS race, an element). The icons themselves are
`data/art/icons.json`: the path data of each icon a file names, with its author and licence, made by
tools/gen_card_icons.py from a pinned npm package (docs/card-images.md, « Artwork »).

A card a file does not name is drawn with its game's icon on a neutral scene (`Picture.generic`): a
catalog may grow before its artwork does, and the tests fail on every such card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw
from pydantic import BaseModel, ConfigDict

from services.community.card_images import vector

ART_DIR = Path(__file__).resolve().parents[3] / "data" / "art"
ICONS_FILE = ART_DIR / "icons.json"
RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@dataclass(frozen=True)
class Tint:
    """A figure's colours: lit from the top (`light`) to its feet (`dark`)."""

    light: RGB
    dark: RGB


PALETTES: dict[str, Tint] = {
    "ivory": Tint((252, 246, 230), (200, 184, 152)),
    "gold": Tint((255, 230, 130), (200, 140, 30)),
    "ember": Tint((255, 196, 110), (214, 74, 32)),
    "frost": Tint((232, 248, 255), (120, 188, 236)),
    "jade": Tint((196, 252, 206), (56, 168, 108)),
    "violet": Tint((230, 206, 255), (142, 92, 222)),
    "rose": Tint((255, 210, 226), (222, 92, 142)),
    "copper": Tint((252, 204, 160), (178, 98, 48)),
    "bone": Tint((244, 240, 226), (168, 160, 140)),
    "moss": Tint((226, 244, 164), (118, 160, 48)),
    "azure": Tint((190, 226, 255), (58, 118, 222)),
    "crimson": Tint((255, 170, 166), (192, 32, 52)),
    "silver": Tint((240, 244, 250), (146, 158, 176)),
    "amber": Tint((255, 220, 160), (222, 142, 40)),
    "teal": Tint((178, 248, 236), (38, 160, 158)),
    "sand": Tint((248, 230, 186), (190, 150, 90)),
}


@dataclass(frozen=True)
class Scene:
    """A background: a gradient from `sky` to `ground` and a large silhouette (`backdrop`, an icon)."""

    sky: RGB
    ground: RGB
    backdrop: str


SCENES: dict[str, Scene] = {
    "cottage": Scene((70, 52, 40), (30, 20, 16), "wood-cabin"),
    "village": Scene((62, 70, 96), (26, 26, 38), "medieval-village-01"),
    "forest": Scene((34, 84, 52), (10, 30, 18), "forest"),
    "grove": Scene((70, 96, 40), (20, 36, 12), "oak"),
    "garden": Scene((56, 96, 70), (18, 40, 26), "flowers"),
    "library": Scene((84, 56, 34), (34, 20, 12), "bookshelf"),
    "laboratory": Scene((44, 72, 84), (14, 26, 32), "test-tube-rack"),
    "observatory": Scene((36, 40, 96), (12, 12, 40), "observatory"),
    "starfield": Scene((46, 24, 92), (10, 6, 34), "galaxy"),
    "moonlit": Scene((40, 52, 98), (12, 16, 40), "moon"),
    "night": Scene((26, 30, 70), (8, 8, 24), "night-sky"),
    "arcane": Scene((84, 36, 110), (26, 10, 40), "magic-swirl"),
    "temple": Scene((96, 84, 60), (36, 30, 20), "greek-temple"),
    "ruins": Scene((78, 76, 70), (28, 26, 24), "ancient-ruins"),
    "lake": Scene((40, 88, 110), (10, 30, 44), "water-splash"),
    "volcano": Scene((150, 54, 24), (44, 10, 6), "volcano"),
    "embers": Scene((122, 36, 20), (36, 8, 6), "fire-zone"),
    "sea": Scene((28, 92, 150), (6, 24, 56), "big-wave"),
    "reef": Scene((20, 110, 130), (6, 34, 48), "coral"),
    "storm": Scene((70, 60, 120), (18, 14, 40), "lightning-storm"),
    "thunder": Scene((92, 80, 40), (26, 22, 10), "lightning-tree"),
    "sky": Scene((90, 140, 200), (34, 60, 110), "fluffy-cloud"),
    "heights": Scene((120, 150, 190), (40, 56, 90), "mountains"),
    "desert": Scene((176, 124, 60), (70, 40, 18), "desert"),
    "plain": Scene((96, 128, 48), (34, 48, 16), "hills"),
    "swamp": Scene((54, 82, 70), (16, 28, 22), "swamp"),
    "crypt": Scene((60, 60, 76), (18, 18, 26), "crypt-entrance"),
    "graveyard": Scene((56, 66, 70), (16, 20, 22), "graveyard"),
    "camp": Scene((108, 84, 40), (36, 26, 10), "goblin-camp"),
    "castle": Scene((70, 84, 130), (22, 26, 48), "castle"),
    "dojo": Scene((150, 52, 48), (46, 14, 14), "pagoda"),
    "harbour": Scene((30, 84, 126), (8, 26, 46), "galleon"),
    "cloister": Scene((104, 110, 118), (34, 38, 44), "church"),
    "workshop": Scene((112, 76, 40), (40, 24, 12), "factory"),
    "arena": Scene((160, 112, 60), (56, 34, 14), "coliseum"),
    "heaven": Scene((128, 120, 150), (46, 44, 78), "heaven-gate"),
    "hell": Scene((140, 30, 26), (40, 6, 8), "hell-crosses"),
}
NEUTRAL = Scene((70, 70, 78), (24, 24, 30), "magic-swirl")
NEUTRAL_TINT = PALETTES["silver"]


class CardArtwork(BaseModel):
    """One card's picture, as its game's file names it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    figure: str
    motif: str
    palette: str
    scene: str


class GameArtwork(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str
    icon: str  # the game's own icon: its wallets on /profile, the picture of a card without artwork
    emblems: dict[str, str] = {}  # icons the game's layout draws beside the picture, by its own keys
    cards: dict[str, CardArtwork]


class ArtworkError(ValueError):
    """An artwork file that names what does not exist (an icon, a palette, a scene)."""


@lru_cache(maxsize=1)
def _icons() -> dict[str, dict[str, str]]:
    data = json.loads(ICONS_FILE.read_text("utf-8"))
    icons: dict[str, dict[str, str]] = data["icons"]
    return icons


@dataclass(frozen=True)
class Credit:
    """An author of the icons the cards draw, as CC BY asks them credited."""

    name: str
    url: str
    licence: str
    icons: int


def credits() -> list[Credit]:
    """The icons' authors, most icons first (the credits page of /help)."""
    data = json.loads(ICONS_FILE.read_text("utf-8"))
    counts: dict[str, int] = {}
    for icon in data["icons"].values():
        counts[icon["author"]] = counts.get(icon["author"], 0) + 1
    found = [
        Credit(a["name"], a["url"], a["licence"], counts.get(key, 0)) for key, a in data["authors"].items()
    ]
    return sorted(found, key=lambda c: (-c.icons, c.name))


def icon_names() -> frozenset[str]:
    return frozenset(_icons())


def icon_author(name: str) -> str:
    return _icons()[name]["author"]


@lru_cache(maxsize=1024)
def _segments(name: str) -> tuple[vector.Segment, ...]:
    found = _icons().get(name)
    if found is None:
        raise ArtworkError(f"icon {name!r} is not in {ICONS_FILE.name}")
    return vector.parse(found["path"])


@lru_cache(maxsize=768)
def icon_mask(name: str, size: int) -> Image.Image:
    """The icon as a `size` × `size` mask; kept, since a game draws its own icons again and again
    (callers only read it)."""
    return vector.mask(_segments(name), size)


@lru_cache(maxsize=8)
def game_artwork(game: str) -> GameArtwork:
    """The game's file, checked: every icon, palette and scene it names exists."""
    path = ART_DIR / f"{game}.json"
    artwork = GameArtwork.model_validate_json(path.read_text("utf-8"))
    found = problems(artwork)
    if found:
        raise ArtworkError(f"data/art/{game}.json: unknown " + "; ".join(found))
    return artwork


def problems(artwork: GameArtwork) -> list[str]:
    known = icon_names()
    found = [f"icon {n!r}" for n in (artwork.icon, *artwork.emblems.values()) if n not in known]
    for card_id, card in artwork.cards.items():
        found += [f"{card_id}: icon {n!r}" for n in (card.figure, card.motif) if n not in known]
        if card.palette not in PALETTES:
            found.append(f"{card_id}: palette {card.palette!r}")
        if card.scene not in SCENES:
            found.append(f"{card_id}: scene {card.scene!r}")
    return found


@dataclass(frozen=True)
class Picture:
    """What a card's picture shows; `generic` when its game's file does not name the card."""

    figure: str
    motif: str | None
    tint: Tint
    scene: Scene
    generic: bool = False


def picture(game: str, card_id: str) -> Picture:
    artwork = game_artwork(game)
    card = artwork.cards.get(card_id)
    if card is None:
        return Picture(artwork.icon, None, NEUTRAL_TINT, NEUTRAL, generic=True)
    return Picture(card.figure, card.motif, PALETTES[card.palette], SCENES[card.scene])


def emblem(game: str, key: str) -> str:
    return game_artwork(game).emblems[key]


def paint(image: Image.Image, name: str, box: Box, color: RGB) -> None:
    """The icon `name` in one colour, centred in `box` (a square as large as the box allows)."""
    left, top, right, bottom = box
    size = min(right - left, bottom - top)
    if size <= 0:
        return
    x, y = left + (right - left - size) // 2, top + (bottom - top - size) // 2
    image.paste(color, (x, y, x + size, y + size), icon_mask(name, size))


@lru_cache(maxsize=256)
def _shaded(size: tuple[int, int], light: RGB, dark: RGB) -> Image.Image:
    top = Image.new("RGB", size, light)
    return Image.composite(Image.new("RGB", size, dark), top, Image.linear_gradient("L").resize(size))


def _rim(shape: Image.Image, reach: int = 2) -> Image.Image:
    """The shape grown by `reach` pixels every way: the shape's mask moved in eight directions and
    merged (a fifth of the time of a 5 x 5 max filter)."""
    size = shape.size
    grown = shape.copy()
    for dx, dy in ((reach, 0), (-reach, 0), (0, reach), (0, -reach), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        moved = Image.new("L", size)
        moved.paste(shape, (dx, dy))
        grown = ImageChops.lighter(grown, moved)
    return grown


def _figure(canvas: Image.Image, name: str, size: int, at: tuple[int, int], tint: Tint) -> None:
    """The figure lit from above, with a dark rim and a shadow cast down and right."""
    shape = icon_mask(name, size)
    rim = _rim(shape)
    x, y = at
    canvas.paste((0, 0, 0), (x + 5, y + 6, x + 5 + size, y + 6 + size), rim.point(lambda v: v * 0.55))
    canvas.paste(_mix(tint.dark, (0, 0, 0), 0.72), (x, y, x + size, y + size), rim)
    canvas.paste(_shaded((size, size), tint.light, tint.dark), (x, y), shape)


def _backdrop(canvas: Image.Image, scene: Scene, seed: int) -> None:
    w, h = canvas.size
    size = round(w * 0.78)
    x = (w - size) // 2 + (seed % 41) - 20
    y = h - size + size // 5
    shade = _mix(scene.ground, scene.sky, 0.55)
    mask = icon_mask(scene.backdrop, size)
    canvas.paste(shade, (x, y, x + size, y + size), mask)


def _sparkles(draw: ImageDraw.ImageDraw, size: tuple[int, int], scene: Scene, seed: int) -> None:
    """A few lights in the sky, placed from the card's id: two cards of one scene differ here too."""
    w, h = size
    light = _mix(scene.sky, (255, 255, 255), 0.35)
    value = seed
    for _ in range(7):
        value = (value * 6364136223846793005 + 1442695040888963407) % 2**64
        x, y, r = (value >> 8) % w, (value >> 24) % max(1, h // 2), 1 + (value >> 40) % 3
        draw.ellipse([x - r, y - r, x + r, y + r], fill=light)


def illustrate(image: Image.Image, box: Box, shown: Picture, seed: int, outline: RGB) -> None:
    """The picture in `box`: the scene, the figure large in its middle, the motif in a medallion at the
    bottom right. `seed` (from the card's id) moves the backdrop and the lights."""
    left, top, right, bottom = box
    image.paste(panel(shown, right - left, bottom - top, seed), (left, top))
    ImageDraw.Draw(image).rectangle([left, top, right - 1, bottom - 1], outline=outline, width=2)


@lru_cache(maxsize=128)
def panel(shown: Picture, w: int, h: int, seed: int) -> Image.Image:
    """The picture drawn, kept: a card's copies (rarities, stars, holo) and languages share it (callers
    only read it; 128 pictures of 308 x 186 are 22 MB)."""
    image = _shaded((w, h), shown.scene.sky, shown.scene.ground).copy()
    _backdrop(image, shown.scene, seed)
    draw = ImageDraw.Draw(image)
    _sparkles(draw, (w, h), shown.scene, seed)
    size = min(h - 24, 164)
    cx, cy = w // 2, h // 2
    glow = _mix(shown.scene.sky, shown.tint.dark, 0.35)
    for step, reach in enumerate((0.66, 0.56, 0.46)):
        r = round(size * reach)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=_mix(glow, shown.tint.dark, 0.12 * step))
    _figure(image, shown.figure, size, (cx - size // 2, cy - size // 2), shown.tint)
    if shown.motif is not None:
        r = 27
        mx, my = w - r - 8, h - r - 8
        draw.ellipse([mx - r, my - r, mx + r, my + r], fill=(16, 14, 20), outline=shown.tint.light, width=2)
        paint(image, shown.motif, (mx - 18, my - 18, mx + 18, my + 18), shown.tint.light)
    return image
