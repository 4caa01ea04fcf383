"""Card images as a use case: a card's PNG from the cache, or drawn once and cached.

Drawing is CPU work (10 to 30 ms a card): it runs in a worker thread (`asyncio.to_thread`) so the event
loop, and discord.py's heartbeat with it, never waits on it; concurrent requests for one key in a
process share one drawing, and processes sharing the folder meet at the cache's atomic rename.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from PIL import Image

from core.errors import NotFound
from core.i18n import catalogs, normalize_locale, t
from core.message_guard import echo
from services.community.card_images import draw, lab_chart, profile, tournament
from services.community.card_images import figures as figure_tiles
from services.community.card_images.cache import DiskCache
from services.community.card_images.draw import STRIP_SCALE
from services.community.card_images.lab_chart import LAB_CHART
from services.community.card_images.profile import BestCard, ProfileCard
from services.community.card_images.spec import CardArt, CardCopy
from services.infra import games
from services.infra.games import GameRegistry
from services.infra.messages import Picture, StripCard

RENDER_VERSION = 3  # the shared helpers' version; each game's CardArt has its own
_SAFE = re.compile(r"^[a-z0-9_-]{1,64}$")
SCALED_KEPT = 96  # half-size cards kept decoded for sheets (~136 KB each)
STRIP_CARDS_KEPT = 128  # cards kept decoded at a strip's size (~87 KB each at 40 %)
SHEETS_KEPT = 16  # whole sheets kept as PNG (a booster's all face down is the same for every buyer)
STRIPS_KEPT = 64  # whole strips kept as PNG (a Pillz line-up is sent again at each move of its duel)
IMAGES_KEPT = 64  # whole cards kept as PNG for /card and the « Voir une carte » selects (~45 KB each)


@cache
def _texts_digest(lang: str) -> str:
    """The language's message catalog, in a card's file name: a face's labels and numbers are written from
    it, so a text corrected there is drawn again rather than served from the folder."""
    raw = json.dumps(catalogs()[lang], sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:8]


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Kept(Generic[K, V]):
    """The last `size` values by key, shared by the worker threads that draw (hence the lock); a value
    computed twice by two threads at once is the same value."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, key: K) -> V | None:
        """The value kept for `key`, if any (without making it)."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        return None

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value


def _sheet_key(
    game: str, cells: Sequence[tuple[str, CardCopy] | None], locale: str | None, columns: int
) -> tuple[Any, ...]:
    return (game, tuple(cells), normalize_locale(locale), columns)


def _strip_key(
    game: str, cards: Sequence[StripCard], locale: str | None, scale: float, figures: bool
) -> tuple[Any, ...]:
    return (game, tuple(cards), normalize_locale(locale), scale, figures)


def _half_back(label: str, art: CardArt) -> Image.Image:
    return draw.half(draw.back(label, art.back))


@dataclass(frozen=True)
class CardImage:
    filename: str  # the attachment's name: the embed shows it as attachment://<filename>
    data: bytes
    color: int  # the embed's colour, from the copy's rarity


@dataclass(frozen=True)
class _Request:
    game: str
    card: Any
    catalog: Any
    art: CardArt
    copy: CardCopy
    locale: str
    name: str  # the cache file's name


class CardImages:
    def __init__(self, folder: Path, catalogs: Mapping[str, Any], registry: GameRegistry) -> None:
        self.registry = registry
        self.cache = DiskCache(folder)
        self._catalogs = dict(catalogs)
        self._digests: dict[tuple[str, str], str] = {}
        self._inflight: dict[str, asyncio.Future[CardImage]] = {}
        # A booster's picture is drawn at every purchase and flip: its cells, already scaled, and the
        # whole sheets are kept, so that a flip scales and decodes only the card it turned over.
        self._scaled: _Kept[tuple[str, ...], Image.Image] = _Kept(SCALED_KEPT)
        self._sheets: _Kept[tuple[Any, ...], bytes] = _Kept(SHEETS_KEPT)
        # A Pillz seat's line-up is the same four cards for the whole duel, and goes with the controls at
        # every "Jouer": composing it again decoded, scaled and encoded four cards each time.
        self._strips: _Kept[tuple[Any, ...], bytes] = _Kept(STRIPS_KEPT)
        # Each duel deals new line-ups, but from the same catalog: a new strip takes its cards already
        # decoded and scaled when they were in an earlier one, and only encodes the picture (decoding and
        # scaling were half of a strip's drawing: 29 strips in 120 Pillz moves).
        self._strip_cards: _Kept[tuple[str, float], Image.Image] = _Kept(STRIP_CARDS_KEPT)
        # A hand's figures: each card's tile quantized once, so a turn's new hand only lays out and deflates.
        self._tiles: _Kept[str, figure_tiles.PaletteTile] = _Kept(STRIP_CARDS_KEPT)
        # A card looked at (/card, « Voir une carte ») is the same file at every look: kept by its cache
        # name (which changes with the card, its copy, the language and the drawing's versions), it is
        # sent without a worker thread reading the folder again.
        self._images: _Kept[str, CardImage] = _Kept(IMAGES_KEPT)

    def art(self, game: str) -> CardArt | None:
        spec = self.registry.get(game)
        return spec.card_art if spec is not None else None

    def request(self, game: str, card_id: str, copy: CardCopy | None, locale: str | None) -> _Request:
        """Resolve what to draw; an unknown game, card or a game without images is `NotFound`."""
        art = self.art(game)
        catalog = self._catalogs.get(game)
        card = catalog.card(card_id) if catalog is not None else None
        if art is None or card is None:
            raise NotFound("error.card_not_found", name=echo(card_id))
        chosen = copy if copy is not None else art.default_copy(card)
        rarity = chosen.rarity or "-"
        if not (_SAFE.match(card_id) and (rarity == "-" or _SAFE.match(rarity)) and 0 <= chosen.stars <= 9):
            raise NotFound("error.card_not_found", name=echo(card_id))
        lang = normalize_locale(locale)
        digest = self._digest(game, card, catalog)
        finish = "holo" if chosen.holo else "plain"
        texts = _texts_digest(lang)
        name = (
            f"{game}/{card_id}.{rarity}.{chosen.stars}.{finish}.{lang}"
            f".v{RENDER_VERSION}-{art.version}-{digest}-{texts}.png"
        )
        return _Request(game, card, catalog, art, chosen, lang, name)

    def _digest(self, game: str, card: Any, catalog: Any) -> str:
        """The card's data and its catalog's version in the file name: an edited card is drawn again."""
        key = (game, card.id)
        digest = self._digests.get(key)
        if digest is None:
            raw = f"{getattr(catalog, 'version', 0)}:{card.model_dump_json()}".encode()
            digest = self._digests[key] = hashlib.sha256(raw).hexdigest()[:10]
        return digest

    def draw(self, request: _Request, *, audit: bool = False) -> draw.Canvas:
        return request.art.layout(request.card, request.catalog, request.copy, request.locale, audit)

    def image_now(self, game: str, card_id: str, copy: CardCopy | None, locale: str | None) -> CardImage:
        """The card's image, from the cache or drawn and stored (synchronous: run it in a thread)."""
        request = self.request(game, card_id, copy, locale)
        data = self.cache.get(request.name)
        if data is None:
            data = draw.png(self.draw(request).image)
            self.cache.put(request.name, data)
        return CardImage(f"{game}-{card_id}.png", data, request.art.color(request.card, request.copy))

    async def image(self, game: str, card_id: str, copy: CardCopy | None, locale: str | None) -> CardImage:
        """`image_now` in a worker thread, or the image kept from an earlier call; concurrent calls for one
        key share one drawing."""
        name = self.request(game, card_id, copy, locale).name
        kept = self._images.known(name)
        if kept is not None:
            return kept
        pending = self._inflight.get(name)
        if pending is None:
            pending = asyncio.ensure_future(asyncio.to_thread(self.image_now, game, card_id, copy, locale))
            self._inflight[name] = pending
            pending.add_done_callback(lambda _done: self._inflight.pop(name, None))
        image = await asyncio.shield(pending)
        return self._images.get(name, lambda: image)

    def sheet_now(
        self, game: str, cells: Sequence[tuple[str, CardCopy] | None], locale: str | None, columns: int
    ) -> bytes:
        """Cards side by side at half size (a booster's opening); None is a face-down card."""
        spec = self.registry.get(game)
        art = spec.card_art if spec is not None else None
        if spec is None or art is None:
            raise NotFound("error.card_not_found", name=echo(game))
        key = _sheet_key(game, cells, locale, columns)
        return self._sheets.get(key, partial(self._draw_sheet, spec, art, cells, locale, columns))

    def _draw_sheet(
        self,
        spec: games.GameSpec,
        art: CardArt,
        cells: Sequence[tuple[str, CardCopy] | None],
        locale: str | None,
        columns: int,
    ) -> bytes:
        images: list[Image.Image | None] = []
        for cell in cells:
            if cell is None:
                label = t(spec.name_key, locale)
                images.append(self._scaled.get(("back", spec.key, label), partial(_half_back, label, art)))
                continue
            card_id, copy = cell
            name = self.request(spec.key, card_id, copy, locale).name
            images.append(
                self._scaled.get((name,), partial(self._scaled_card, spec.key, card_id, copy, locale, 0.5))
            )
        return draw.png(draw.sheet(images, columns))

    async def sheet(
        self, game: str, cells: Sequence[tuple[str, CardCopy] | None], locale: str | None, columns: int = 3
    ) -> bytes:
        # a sheet already drawn (a new HOSS booster's six backs) needs no thread hop
        kept = self._sheets.known(_sheet_key(game, cells, locale, columns))
        if kept is not None:
            return kept
        return await asyncio.to_thread(self.sheet_now, game, list(cells), locale, columns)

    def strip_now(
        self,
        game: str,
        cards: Sequence[StripCard],
        locale: str | None,
        scale: float = STRIP_SCALE,
        figures: bool = False,
    ) -> bytes:
        """Cards side by side at `scale` (a pull shown off), or their figures in rows of four (`figures`:
        a hand, a line-up, `figures.py`), composed from the cached cards. The PNG's description names the
        cards in order (the picture's text alternative; the message keeps its text too): hidden-information
        scans read attached files, so a strip sent to the wrong reader is caught by the names it carries."""
        key = _strip_key(game, cards, locale, scale, figures)
        return self._strips.get(key, partial(self._draw_strip, game, list(cards), locale, scale, figures))

    def _draw_strip(
        self, game: str, cards: Sequence[StripCard], locale: str | None, scale: float, figures: bool
    ) -> bytes:
        images, tiles, names = [], [], []
        for card in cards:
            copy = CardCopy(card.rarity, card.stars, card.holo)
            request = self.request(game, card.card_id, copy, locale)
            name = request.card.name.get(request.locale)
            if figures:
                tiles.append(
                    (request.name, self._tiles.get(request.name, partial(self._tile, request, name)))
                )
            else:
                make = partial(self._scaled_card, game, card.card_id, copy, locale, scale)
                images.append(self._strip_cards.get((request.name, scale), make))
            names.append(name)
        if figures:
            return figure_tiles.picture_png(tiles, " · ".join(names))
        return draw.png(draw.strip(images, scale=scale), description=" · ".join(names))

    def _tile(self, request: _Request, name: str) -> figure_tiles.PaletteTile:
        color = request.art.color(request.card, request.copy)
        return figure_tiles.quantized(figure_tiles.tile(request.game, request.card.id, name, color).image)

    def _scaled_card(
        self, game: str, card_id: str, copy: CardCopy, locale: str | None, scale: float
    ) -> Image.Image:
        return draw.half(Image.open(io.BytesIO(self.image_now(game, card_id, copy, locale).data)), scale)

    def profile_now(self, shown: ProfileCard, locale: str | None) -> bytes:
        """The profile's picture (card_images/profile.py), kept by what it shows: a /profile asked again
        with nothing changed is the same bytes, not a new drawing."""
        empty = t("profile.not_played", locale)
        return self._strips.get(
            ("profile", shown, empty), lambda: draw.png(profile.picture(shown, empty).image)
        )

    async def profile(self, shown: ProfileCard, locale: str | None) -> bytes:
        return await asyncio.to_thread(self.profile_now, shown, locale)

    async def picture(self, picture: Picture, locale: str | None) -> bytes:
        """A picture drawn from its data (a tournament's bracket or standings, a lab's chart), in a worker
        thread."""
        if picture.kind == LAB_CHART:
            return await asyncio.to_thread(lab_chart.png, picture.data, locale)
        return await asyncio.to_thread(tournament.png, picture.kind, picture.data, locale)

    def best_cards(
        self, owned: Sequence[tuple[str, str]], locale: str | None, count: int = 4
    ) -> tuple[BestCard, ...]:
        """The `count` cards of `owned` (game, card id) its games prize most (`CardArt.worth`), at most one
        per game while other games have cards, as each game's collection draws them."""
        ranked: list[tuple[int, int, str, Any, CardArt]] = []
        for game, card_id in owned:
            art, catalog = self.art(game), self._catalogs.get(game)
            card = catalog.card(card_id) if catalog is not None else None
            if art is not None and card is not None:
                ranked.append((art.worth(card), len(ranked), game, card, art))
        ranked.sort(key=lambda item: (-item[0], item[1]))
        chosen: list[tuple[str, Any, CardArt]] = []
        for worth_first in (True, False):
            for _worth, _order, game, card, art in ranked:
                if len(chosen) == count or any(c[1] is card for c in chosen):
                    continue
                if worth_first and any(c[0] == game for c in chosen):
                    continue
                chosen.append((game, card, art))
        lang = normalize_locale(locale)
        return tuple(
            BestCard(game, card.id, card.name.get(lang), art.color(card, art.default_copy(card)))
            for game, card, art in chosen
        )

    async def strip(
        self,
        game: str,
        cards: Sequence[StripCard],
        locale: str | None,
        scale: float = STRIP_SCALE,
        figures: bool = False,
    ) -> bytes:
        # a strip already drawn (a Pillz line-up at each opening of the controls) needs no thread hop
        kept = self._strips.known(_strip_key(game, cards, locale, scale, figures))
        if kept is not None:
            return kept
        return await asyncio.to_thread(self.strip_now, game, list(cards), locale, scale, figures)
