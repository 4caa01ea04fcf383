"""Every card has its own picture: its game's artwork file names it, no two cards of a game share a
composition or look alike to a perceptual hash, and the icons are the shipped ones, drawn as a
reference SVG renderer draws them, with their authors and licence."""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
import resvg_py
from PIL import Image, ImageChops

from services.community.card_images import artwork, vector
from services.community.card_images.draw import Canvas
from services.community.card_images.spec import CardCopy
from tests.services.community.card_images.conftest import art_of

PICTURE = (0, 0, 154, 93)  # the picture's box on a card, at half size
HASH_SIDE = 16  # dHash: 16 x 16 = 256 bits
DISTINCT_GOAL = 0.99


def dhash(image: Image.Image) -> int:
    """The difference hash: the picture in grey at 17 x 16, one bit per pair of neighbours (is the left
    one brighter). Colour changes that keep the light and shade keep the hash."""
    small = image.convert("L").resize((HASH_SIDE + 1, HASH_SIDE), Image.Resampling.LANCZOS)
    pixels = small.tobytes()
    bits = 0
    for row in range(HASH_SIDE):
        line = pixels[row * (HASH_SIDE + 1) : (row + 1) * (HASH_SIDE + 1)]
        for col in range(HASH_SIDE):
            bits = bits << 1 | (line[col] > line[col + 1])
    return bits


def distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def rendered(shown: artwork.Picture, seed: int) -> Image.Image:
    image = Image.new("RGB", (PICTURE[2], PICTURE[3]))
    artwork.illustrate(image, PICTURE, shown, seed, (255, 255, 255))
    return image


@pytest.fixture(scope="module")
def hashes(catalogs: dict[str, Any]) -> dict[str, dict[str, tuple[int, int]]]:
    """game -> card -> (the picture's hash, its hash drawn with another seed)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for game, catalog in catalogs.items():
        out[game] = {}
        for index, card in enumerate(catalog.cards):
            shown = artwork.picture(game, card.id)
            out[game][card.id] = (dhash(rendered(shown, index)), dhash(rendered(shown, index + 7919)))
    return out


def noise(hashes: dict[str, dict[str, tuple[int, int]]]) -> int:
    """The threshold: the largest distance between two drawings of one composition that differ only by
    what the seed moves (the backdrop's place, the lights). Two cards this close are the same picture."""
    return max(distance(a, b) for cards in hashes.values() for a, b in cards.values())


def alike(cards: dict[str, tuple[int, int]], threshold: int) -> list[tuple[str, str, int]]:
    pairs = []
    for (one, (a, _)), (two, (b, _)) in itertools.combinations(sorted(cards.items()), 2):
        if distance(a, b) <= threshold:
            pairs.append((one, two, distance(a, b)))
    return pairs


def test_every_card_has_its_own_artwork(
    catalogs: dict[str, Any], drawn: dict[tuple[str, str, str], Canvas]
) -> None:
    """No card falls back to its game's generic picture, and no file names a card its catalog lacks."""
    assert [key for key, canvas in drawn.items() if canvas.generic] == []
    for game, catalog in catalogs.items():
        named = artwork.game_artwork(game).cards
        assert sorted(named) == sorted(card.id for card in catalog.cards), game
    assert sum(len(c.cards) for c in catalogs.values()) == 508


def test_a_card_without_artwork_is_drawn_generic(
    monkeypatch: pytest.MonkeyPatch, catalogs: dict[str, Any]
) -> None:
    """The negative control: a file that forgets a card draws it with the game's icon, flagged."""
    catalog = catalogs["dinocard"]
    card = catalog.card("leviathoz")
    complete = artwork.game_artwork("dinocard")
    cards = {k: v for k, v in complete.cards.items() if k != card.id}
    monkeypatch.setattr(artwork, "game_artwork", lambda game: complete.model_copy(update={"cards": cards}))
    art = art_of("dinocard")
    canvas = art.layout(card, catalog, art.default_copy(card), "fr", False)
    assert canvas.generic
    assert artwork.picture("dinocard", card.id).figure == complete.icon


def test_no_two_cards_of_a_game_share_a_composition(catalogs: dict[str, Any]) -> None:
    for game in catalogs:
        cards = artwork.game_artwork(game).cards.values()
        compositions = Counter((c.figure, c.motif, c.palette, c.scene) for c in cards)
        figures = Counter(c.figure for c in cards)
        assert [k for k, n in compositions.items() if n > 1] == [], game
        assert [k for k, n in figures.items() if n > 1] == [], game


def test_the_cards_of_a_game_look_distinct(hashes: dict[str, dict[str, tuple[int, int]]]) -> None:
    """Perceptual hashes of every picture, pair by pair in each game: the share of pairs farther apart
    than the threshold (`noise`) is printed and must reach 99 %."""
    threshold = noise(hashes)
    assert 0 < threshold < HASH_SIDE * HASH_SIDE // 4  # the seed moves something, not the whole picture
    report = []
    for game, cards in sorted(hashes.items()):
        pairs = len(cards) * (len(cards) - 1) // 2
        same = alike(cards, threshold)
        share = 1 - len(same) / pairs
        report.append(f"{game}: {pairs - len(same)}/{pairs} distinct pairs ({share:.2%}), alike {same}")
        assert share >= DISTINCT_GOAL, report[-1]
    print(f"dHash threshold {threshold} bits of 256;", "; ".join(report))


def test_the_hash_finds_two_cards_drawn_alike(
    catalogs: dict[str, Any], hashes: dict[str, dict[str, tuple[int, int]]]
) -> None:
    """The negative control: a card given another card's composition is a pair the test reports."""
    first, second = catalogs["pillz"].cards[:2]
    shown = artwork.picture("pillz", first.id)
    copied = dict(hashes["pillz"])
    copied[second.id] = (dhash(rendered(shown, 12345)), 0)
    assert (first.id, second.id) in {(a, b) for a, b, _ in alike(copied, noise(hashes))} | {
        (b, a) for a, b, _ in alike(copied, noise(hashes))
    }


def used_icons() -> set[str]:
    names = {scene.backdrop for scene in artwork.SCENES.values()} | {artwork.NEUTRAL.backdrop}
    for path in artwork.ART_DIR.glob("*.json"):
        if path == artwork.ICONS_FILE:
            continue
        game = artwork.GameArtwork.model_validate_json(path.read_text("utf-8"))
        names |= {game.icon, *game.emblems.values()}
        names |= {name for card in game.cards.values() for name in (card.figure, card.motif)}
    return names


def test_the_project_ships_only_the_icons_it_uses_with_authors_and_licence() -> None:
    data = json.loads(artwork.ICONS_FILE.read_text("utf-8"))
    assert set(data["icons"]) == used_icons()
    assert data["source"]["package"] == "@iconify-json/game-icons@1.2.4"
    authors = data["authors"]
    assert {icon["author"] for icon in data["icons"].values()} == set(authors)
    assert all(a["name"] and a["licence"] in ("CC BY 3.0", "CC0 1.0") for a in authors.values())
    licence = (artwork.ART_DIR / "LICENSE-CC-BY-3.0.txt").read_text("utf-8")
    assert "Attribution 3.0 Unported" in licence


def resvg_mask(path: str, size: int) -> Image.Image:
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="{size}" height="{size}">'
        f'<path fill="#fff" d="{path}"/></svg>'
    )
    return Image.open(io.BytesIO(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True))).getchannel(
        "A"
    )


def unlike_resvg(paths: Iterable[tuple[str, str]], size: int = 128, share: float = 0.05) -> list[str]:
    """The icons whose pixels differ by more than half from resvg's on more than `share` of their ink
    (anti-aliasing along edges stays far below: 3.3 % at most over the shipped icons)."""
    found = []
    for name, path in paths:
        ours = vector.mask(vector.parse(path), size)
        theirs = resvg_mask(path, size)
        wrong = sum(ImageChops.difference(ours, theirs).histogram()[128:])
        if wrong > share * max(1, sum(theirs.histogram()[128:])):
            found.append(name)
    return found


def test_every_icon_is_drawn_as_resvg_draws_it() -> None:
    data = json.loads(artwork.ICONS_FILE.read_text("utf-8"))
    assert unlike_resvg((name, icon["path"]) for name, icon in data["icons"].items()) == []


def test_a_path_relying_on_the_non_zero_rule_is_caught() -> None:
    """The negative control: two overlapping squares drawn in the same direction are one shape by SVG's
    non-zero rule and a shape with a hole by Pillow's even-odd fill, and the comparison sees it."""
    overlapping = "M64 64h256v256H64zM192 192h256v256H192z"
    assert unlike_resvg([("squares", overlapping)]) == ["squares"]


@pytest.mark.parametrize(
    ("data", "first"),
    [
        ("M10 20L30 40z", ("M", (10.0, 20.0))),
        ("m10 20l5 5h-5v-5z", ("M", (10.0, 20.0))),
        ("M0 0a10 10 0 01 20 0", ("M", (0.0, 0.0))),
        ("M1.5.5 2 2", ("M", (1.5, 0.5))),
    ],
)
def test_path_data_is_parsed(data: str, first: tuple[str, tuple[float, ...]]) -> None:
    segments = vector.parse(data)
    assert (segments[0].kind, segments[0].values) == first
    assert all(s.kind in "MLCZ" for s in segments)


def test_a_relative_line_and_an_arc_end_where_svg_says() -> None:
    segments = vector.parse("m10 20l5 5h-5v-5a10 10 0 0 1 20 0")
    assert segments[1].values == (15.0, 25.0)
    assert segments[2].values == (10.0, 25.0)
    assert segments[3].values == (10.0, 20.0)
    assert segments[-1].values[-2:] == pytest.approx((30.0, 20.0))


def test_a_malformed_path_is_refused() -> None:
    with pytest.raises(vector.PathError, match="a number was expected"):
        vector.parse("M10 L")


def test_the_artwork_files_are_checked() -> None:
    """A file naming an unknown icon, palette or scene stops with the card and the name."""
    bad = artwork.GameArtwork(
        game="x",
        icon="frog",
        cards={"c": artwork.CardArtwork(figure="no-such-icon", motif="frog", palette="plaid", scene="mars")},
    )
    problems = artwork.problems(bad)
    assert problems == ["c: icon 'no-such-icon'", "c: palette 'plaid'", "c: scene 'mars'"]


def test_the_hoss_emblems_draw_for_every_race_and_element(catalogs: dict[str, Any]) -> None:
    names = artwork.game_artwork("hoss").emblems
    races = {card.race for card in catalogs["hoss"].cards if hasattr(card, "race")}
    elements = {e for card in catalogs["hoss"].cards for e in getattr(card, "elements", ())}
    assert {f"race:{r}" for r in races} | {f"element:{e}" for e in elements} <= set(names)
    card = catalogs["hoss"].card("orc_mage_3b")
    canvas = art_of("hoss").layout(card, catalogs["hoss"], CardCopy("or", 2, False), "fr", False)
    assert not canvas.generic
