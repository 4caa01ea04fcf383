"""Every card of every catalog, drawn in both languages: the right size, no text outside its box, and no
two cards alike."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from services.community.card_images import draw
from services.community.card_images import text as typo
from services.community.card_images.draw import Canvas
from services.community.card_images.spec import CardCopy
from services.infra import games
from tests.services.community.card_images.conftest import HOSS_RARITIES, LOCALES, art_of
from tests.support.registries import every_game


def without_images(specs: list[games.GameSpec]) -> list[str]:
    """The games that have cards (a catalog) but do not say how to draw them."""
    return [s.key for s in specs if s.catalog_model is not None and s.card_art is None]


def test_every_game_with_a_catalog_draws_its_cards(catalogs: dict[str, Any]) -> None:
    """Found from the registry, not listed: a new game with a catalog and no `card_art` fails here, and
    every game with images is drawn by the tests below."""
    specs = every_game().all_games()
    assert without_images(specs) == []
    assert sorted(catalogs) == sorted(s.key for s in specs if s.catalog_model is not None)
    assert len(catalogs) >= 2  # the tests below compare games, so the registry was really read


def test_a_game_with_a_catalog_and_no_images_is_found() -> None:
    """The negative control of the test above: a registered game without `card_art` is reported."""
    spec = games.GameSpec(key="zz_no_art", name_key="x", command_group="zz", catalog_model=dict)
    assert without_images(every_game().with_games(spec).all_games()) == ["zz_no_art"]
    assert without_images(every_game().all_games()) == []


def test_every_card_has_the_card_size(drawn: dict[tuple[str, str, str], Canvas]) -> None:
    assert {c.image.size for c in drawn.values()} == {(draw.WIDTH, draw.HEIGHT)}
    assert {c.image.mode for c in drawn.values()} == {"RGB"}


def test_no_text_leaves_its_box(drawn: dict[tuple[str, str, str], Canvas]) -> None:
    outside: list[tuple[object, ...]] = []
    for key, canvas in drawn.items():
        assert canvas.placed, key  # the audit saw the texts
        for placed in canvas.placed:
            left, top, right, bottom = placed.box
            if placed.ink is None:
                outside.append((key, placed.text, "nothing drawn"))
                continue
            ink_left, ink_top, ink_right, ink_bottom = placed.ink
            # one pixel of antialiasing either side of a glyph's advance is tolerated horizontally
            if ink_left < left - 1 or ink_top < top or ink_right > right + 1 or ink_bottom > bottom:
                outside.append((key, placed.text, placed.box, placed.ink))
    assert outside == []


def test_every_name_is_written_whole(
    catalogs: dict[str, Any], drawn: dict[tuple[str, str, str], Canvas]
) -> None:
    """A name shrinks rather than being cut: the title never ends with the ellipsis."""
    cut = [key for key, canvas in drawn.items() if canvas.placed[0].text.endswith("…")]
    assert cut == []
    for (game, card_id, locale), canvas in drawn.items():
        card = catalogs[game].card(card_id)
        assert canvas.placed[0].text == card.name.get(locale)


def test_no_two_cards_look_alike(drawn: dict[tuple[str, str, str], Canvas]) -> None:
    for locale in LOCALES:
        digests = [hashlib.sha256(c.image.tobytes()).hexdigest() for k, c in drawn.items() if k[2] == locale]
        assert len(digests) == len(set(digests)) == len(drawn) // 2


def test_the_languages_differ_where_the_text_does(
    catalogs: dict[str, Any], drawn: dict[tuple[str, str, str], Canvas]
) -> None:
    """Every game's cards are drawn in the reader's language: a card whose texts differ between French
    and English (most of every game's: names, labels) has two pictures, and each game has such cards."""
    same_picture = []
    translated: dict[str, int] = dict.fromkeys(catalogs, 0)
    for game, catalog in catalogs.items():
        for card in catalog.cards:
            french, english = drawn[(game, card.id, "fr")], drawn[(game, card.id, "en")]
            if [p.text for p in french.placed] == [p.text for p in english.placed]:
                continue  # nothing to translate (a Pillz character with a one-word name, no ability)
            translated[game] += 1
            if french.image.tobytes() == english.image.tobytes():
                same_picture.append((game, card.id))
    assert same_picture == []
    assert {
        game: count * 2 > len(catalogs[game].cards) for game, count in translated.items()
    } == dict.fromkeys(catalogs, True)


def test_each_hoss_rarity_and_holo_is_its_own_picture(catalogs: dict[str, Any]) -> None:
    art, catalog = art_of("hoss"), catalogs["hoss"]
    card = catalog.card("orc_guerrier_1")
    pictures = {}
    for rarity in HOSS_RARITIES:
        for holo in (False, True):
            canvas = art.layout(card, catalog, CardCopy(rarity, 3, holo), "fr", True)
            pictures[(rarity, holo)] = canvas.image
            assert all(p.ink is not None for p in canvas.placed)
    assert len({p.tobytes() for p in pictures.values()}) == len(pictures)


def test_the_holo_shimmer_is_visible(catalogs: dict[str, Any]) -> None:
    """Not a faint tint: the shimmer moves the average pixel by more than 10 levels of 255."""
    catalog = catalogs["hoss"]
    card = catalog.card("sq_mage_1")
    plain = art_of("hoss").layout(card, catalog, CardCopy("or", 2, False), "fr", False).image
    holo = art_of("hoss").layout(card, catalog, CardCopy("or", 2, True), "fr", False).image
    difference = ImageStat.Stat(ImageChops.difference(plain, holo)).mean
    assert sum(difference) / 3 > 10


def test_stars_are_drawn(catalogs: dict[str, Any]) -> None:
    catalog = catalogs["hoss"]
    card = catalog.card("sq_mage_1")
    images = [
        art_of("hoss").layout(card, catalog, CardCopy("argent", s, False), "fr", False).image
        for s in range(6)
    ]
    assert len({i.tobytes() for i in images}) == 6


def test_the_png_is_a_card_sized_png(catalogs: dict[str, Any]) -> None:
    for game, catalog in catalogs.items():
        card = catalog.cards[0]
        art = art_of(game)
        data = draw.png(art.layout(card, catalog, art.default_copy(card), "fr", False).image)
        check_png(data)


def check_png(data: bytes) -> None:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == (360, 504)
    assert 10_000 < len(data) < 200_000


def test_the_audit_catches_a_text_that_overflows(
    monkeypatch: pytest.MonkeyPatch, catalogs: dict[str, Any]
) -> None:
    """The negative control of `test_no_text_leaves_its_box`: with a fit that never shrinks nor wraps,
    a long effect text is seen leaving its box."""
    monkeypatch.setattr(
        typo, "fit", lambda text, w, h, top, low, bold=False: typo.Fitted((text.replace("\n", " "),), top)
    )
    catalog = catalogs["choco"]
    card = next(c for c in catalog.cards if c.effect is not None and len(c.effect.text.fr) > 60)
    canvas = art_of("choco").layout(card, catalog, CardCopy(card.rarity), "fr", True)
    overflowing = [p for p in canvas.placed if p.ink is not None and p.ink[2] > p.box[2] + 1]
    assert overflowing
