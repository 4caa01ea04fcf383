"""The card image cache: a hit returns the same bytes without drawing, concurrent requests of one key
draw once per process and leave one whole file, a torn file is drawn again, and the file name follows
the card's data."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from core import i18n
from core.errors import NotFound
from core.i18n import t
from services.community.card_images import cache as disk
from services.community.card_images import draw, service
from services.community.card_images.service import CardImages
from services.community.card_images.spec import CardCopy
from services.infra.games import GameRegistry
from services.infra.messages import StripCard
from tests.support.registries import every_game


@pytest.fixture
def images(tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry) -> CardImages:
    return CardImages(tmp_path / "cards", catalogs, registry)


def count_drawings(monkeypatch: pytest.MonkeyPatch, images: CardImages) -> list[str]:
    drawn: list[str] = []
    original = images.draw

    def counting(request: Any, *, audit: bool = False) -> Any:
        drawn.append(request.name)
        return original(request, audit=audit)

    monkeypatch.setattr(images, "draw", counting)
    return drawn


def pngs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_a_hit_returns_the_same_bytes_without_drawing(
    monkeypatch: pytest.MonkeyPatch, images: CardImages
) -> None:
    drawn = count_drawings(monkeypatch, images)
    first = images.image_now("hoss", "orc_mage_1", CardCopy("or", 2, True), "fr")
    second = images.image_now("hoss", "orc_mage_1", CardCopy("or", 2, True), "fr")
    assert second.data == first.data
    assert len(drawn) == 1
    assert disk.is_png(first.data)
    assert first.filename == "hoss-orc_mage_1.png"
    assert first.color == 0xC0A0FF  # holo


async def test_a_card_looked_at_again_is_not_read_from_the_folder(
    monkeypatch: pytest.MonkeyPatch, images: CardImages
) -> None:
    """/card sends a card's file at every look: the second look neither draws nor reads the folder."""
    drawn = count_drawings(monkeypatch, images)
    reads: list[str] = []
    folder = images.cache.get

    def reading(name: str) -> bytes | None:
        reads.append(name)
        return folder(name)

    monkeypatch.setattr(images.cache, "get", reading)
    first = await images.image("hoss", "orc_mage_1", None, "fr")
    again = await images.image("hoss", "orc_mage_1", None, "fr")
    other = await images.image("hoss", "orc_mage_1", CardCopy("or", 2, False), "fr")
    assert again == first
    assert other.data != first.data
    assert (len(drawn), len(reads)) == (2, 2)  # one of each per distinct picture


def test_each_part_of_the_key_is_its_own_file(images: CardImages) -> None:
    base = ("hoss", "orc_mage_1")
    for copy, locale in [
        (CardCopy("or", 2, False), "fr"),
        (CardCopy("or", 2, True), "fr"),
        (CardCopy("or", 3, False), "fr"),
        (CardCopy("divin", 2, False), "fr"),
        (CardCopy("or", 2, False), "en"),
    ]:
        images.image_now(*base, copy, locale)
    images.image_now("hoss", "orc_mage_2a", CardCopy("or", 2, False), "fr")
    assert len(pngs(images.cache.folder)) == 6


async def test_concurrent_requests_in_a_process_draw_once(
    monkeypatch: pytest.MonkeyPatch, images: CardImages
) -> None:
    drawn = count_drawings(monkeypatch, images)
    results = await asyncio.gather(
        *(images.image("pillz", "ashigaru-taisho-hayate", None, "fr") for _ in range(20))
    )
    assert len({r.data for r in results}) == 1
    assert len(drawn) == 1
    assert len(pngs(images.cache.folder)) == 1


def test_concurrent_processes_leave_one_whole_file(tmp_path: Path, catalogs: dict[str, Any]) -> None:
    """Eight services on one folder (as eight processes would be) draw the same key at the same moment:
    each gets a whole PNG, and the folder holds one file, with no temporary file left behind."""
    folder = tmp_path / "shared"
    services = [CardImages(folder, catalogs, every_game()) for _ in range(8)]
    start = threading.Barrier(len(services))
    results: list[bytes] = []

    def render(service: CardImages) -> None:
        start.wait()
        results.append(service.image_now("choco", "eclair_de_poche", None, "en").data)

    threads = [threading.Thread(target=render, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    files = pngs(folder)
    assert len(files) == 1
    assert not files[0].name.startswith(".tmp-")
    assert len(results) == 8
    assert set(results) == {files[0].read_bytes()}
    assert disk.is_png(results[0])


def test_a_torn_file_is_drawn_again(monkeypatch: pytest.MonkeyPatch, images: CardImages) -> None:
    whole = images.image_now("choco", "eclair_de_poche", None, "fr").data
    (path,) = pngs(images.cache.folder)
    path.write_bytes(whole[: len(whole) // 2])
    drawn = count_drawings(monkeypatch, images)
    assert images.image_now("choco", "eclair_de_poche", None, "fr").data == whole
    assert len(drawn) == 1
    assert path.read_bytes() == whole


def test_an_edited_card_gets_a_new_file(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    catalog = catalogs["pillz"]
    card = catalog.cards[1]
    edited = catalog.model_copy(
        update={
            "cards": (
                *catalog.cards[:1],
                card.model_copy(update={"power": card.power + 1}),
                *catalog.cards[2:],
            )
        }
    )
    before = CardImages(tmp_path, catalogs, registry).request("pillz", card.id, None, "fr").name
    after = (
        CardImages(tmp_path, {**catalogs, "pillz": edited}, registry)
        .request("pillz", card.id, None, "fr")
        .name
    )
    assert before != after


def test_a_corrected_label_gets_a_new_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    """A face's labels come from the message catalog: a text corrected there (HOSS's « ATK » label) is
    a new file, not a picture served from the folder with the former text."""
    before = CardImages(tmp_path, catalogs, registry).request("hoss", "orc_mage_1", None, "en").name
    french_before = CardImages(tmp_path, catalogs, registry).request("hoss", "orc_mage_1", None, "fr").name
    corrected = {lang: dict(table) for lang, table in i18n.catalogs().items()}
    corrected["en"]["hoss.label.atk"] = "ATTACK"
    monkeypatch.setattr(service, "catalogs", lambda: corrected)
    service._texts_digest.cache_clear()
    try:
        after = CardImages(tmp_path, catalogs, registry).request("hoss", "orc_mage_1", None, "en").name
        french = CardImages(tmp_path, catalogs, registry).request("hoss", "orc_mage_1", None, "fr").name
    finally:
        service._texts_digest.cache_clear()
    assert after != before
    assert french == french_before  # the French catalog did not change


@pytest.mark.parametrize(
    ("game", "card_id", "copy"),
    [
        ("hoss", "nope", None),
        ("nogame", "x", None),
        ("hoss", "orc_mage_1", CardCopy("../x", 0, False)),
        ("hoss", "orc_mage_1", CardCopy("or", 42, False)),
    ],
)
def test_unknown_cards_and_copies_are_not_found(
    images: CardImages, game: str, card_id: str, copy: CardCopy | None
) -> None:
    with pytest.raises(NotFound, match="card_not_found"):
        images.request(game, card_id, copy, "fr")


def test_a_booster_sheet_shows_backs_and_cards(images: CardImages) -> None:
    cells = [("orc_guerrier_1", CardCopy("basique", 0, False)), None, None]
    hidden = images.sheet_now("hoss", [None, None, None], "fr", 3)
    shown = images.sheet_now("hoss", cells, "fr", 3)
    assert disk.is_png(hidden)
    assert hidden != shown


def test_a_kept_sheet_is_the_picture_drawn_from_full_size_cards(images: CardImages) -> None:
    """The cells kept scaled and the whole sheets kept give the very bytes of scaling every card afresh."""
    cells = [("orc_guerrier_1", CardCopy("basique", 0, False)), None, ("orc_mage_1", CardCopy("or", 0, True))]
    spec = every_game().get("hoss")
    art = spec.card_art if spec is not None else None
    assert art is not None
    assert spec is not None
    full = [
        Image.open(io.BytesIO(images.image_now("hoss", c[0], c[1], "fr").data))
        if c is not None
        else draw.back(t(spec.name_key, "fr"), art.back)
        for c in cells
    ]
    expected = draw.png(draw.sheet(full, 3))
    assert images.sheet_now("hoss", cells, "fr", 3) == expected
    for path in images.cache.folder.rglob("*.png"):
        path.unlink()  # kept: the second sheet reads no card from the disk
    assert images.sheet_now("hoss", cells, "fr", 3) == expected
    assert not list(images.cache.folder.rglob("*.png"))  # no card drawn again
    one_more = [*cells[:1], ("orc_guerrier_1", CardCopy("basique", 0, False)), *cells[2:]]
    assert images.sheet_now("hoss", one_more, "fr", 3) != expected


def test_a_kept_strip_is_the_strip_drawn_afresh(images: CardImages) -> None:
    """A line-up sent again (each move of a Pillz duel) is the very bytes of composing it again."""
    cards = [StripCard("orc_guerrier_1"), StripCard("orc_mage_1", "or", 2, True)]
    first = images.strip_now("hoss", cards, "fr")
    assert disk.is_png(first)
    for path in images.cache.folder.rglob("*.png"):
        path.unlink()  # kept: the second strip reads no card from the disk
    assert images.strip_now("hoss", cards, "fr") == first
    assert not list(images.cache.folder.rglob("*.png"))
    assert images.strip_now("hoss", cards, "en") != first  # the names in its description
    assert images.strip_now("hoss", cards[::-1], "fr") != first


def test_a_new_strip_of_cards_seen_before_is_the_strip_drawn_from_full_size_cards(images: CardImages) -> None:
    """A new line-up takes the cards an earlier one decoded and scaled: the very bytes of scaling every
    card afresh, and no card read from the disk again."""
    earlier = [StripCard("orc_guerrier_1"), StripCard("orc_mage_1", "or", 2, True)]
    images.strip_now("hoss", earlier, "fr")
    later = earlier[::-1]
    full = [
        Image.open(
            io.BytesIO(images.image_now("hoss", c.card_id, CardCopy(c.rarity, c.stars, c.holo), "fr").data)
        )
        for c in later
    ]
    names = " · ".join(images.request("hoss", c.card_id, None, "fr").card.name.get("fr") for c in later)
    expected = draw.png(draw.strip(full), description=names)
    for path in images.cache.folder.rglob("*.png"):
        path.unlink()
    assert images.strip_now("hoss", later, "fr") == expected
    assert not list(images.cache.folder.rglob("*.png"))  # no card drawn or read again


async def test_a_strip_already_drawn_is_answered_without_a_thread(
    images: CardImages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pillz line-up is sent at each opening of the controls: once drawn, the same strip in the same
    language takes no hop to a worker thread (a new language or line-up still does)."""
    hops: list[object] = []
    original = asyncio.to_thread

    async def counted(function: Any, *args: Any) -> Any:
        hops.append(function)
        return await original(function, *args)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    cards = [StripCard("orc_guerrier_1"), StripCard("orc_mage_1", "or", 2, True)]
    first = await images.strip("hoss", cards, "fr", figures=True)
    assert await images.strip("hoss", cards, "fr", figures=True) == first
    assert len(hops) == 1
    assert await images.strip("hoss", cards, "en", figures=True) != first
    assert len(hops) == 2


async def test_a_sheet_already_drawn_is_answered_without_a_thread(
    images: CardImages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new HOSS booster shows the same six backs: once drawn, that sheet takes no worker thread."""
    hops: list[object] = []
    original = asyncio.to_thread

    async def counted(function: Any, *args: Any) -> Any:
        hops.append(function)
        return await original(function, *args)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    backs: list[tuple[str, CardCopy] | None] = [None] * 6
    first = await images.sheet("hoss", backs, "fr")
    assert await images.sheet("hoss", backs, "fr") == first
    assert len(hops) == 1
    shown = [("orc_guerrier_1", CardCopy("basique", 0, False)), *backs[1:]]
    assert await images.sheet("hoss", shown, "fr") != first
    assert len(hops) == 2
