"""Loading the card catalogs in `data/` at start-up, and the index behind `/card` autocomplete.

A broken catalog must stop the bot with a message a catalog editor can act on without reading a
traceback: the file, the card (by id when it has one, else its zero-based index in `cards`), the field
and the reason, e.g. `data/hoss.json: card "sylvan_archer" (#3): field "pv": Input should be greater
than or equal to 1`. `load_all` reports every broken file at once, one problem per line.

The models live in `engine/` (pure); the file reading lives here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails
from rapidfuzz import fuzz, process

from engine.cards import CardBase, CatalogBase, LocalizedText
from services.infra.games import GameSpec

DATA_DIR = Path(__file__).resolve().parents[2] / "data"

CatalogT = TypeVar("CatalogT", bound=CatalogBase[Any])


class CatalogError(Exception):
    """A catalog file that cannot be used; the message is meant for the person running the bot."""


def load_catalog(path: Path, model: type[CatalogT]) -> CatalogT:
    """Read and validate one catalog file; raises `CatalogError` naming the file, card and field."""
    shown = _shown(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise CatalogError(f"{shown}: file not found") from None
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{shown}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise CatalogError(f"{shown}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise CatalogError(
            f"{shown}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except _DuplicateKey as exc:
        raise CatalogError(f'{shown}: invalid JSON: key "{exc.key}" appears twice in one object') from None
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        raise CatalogError("\n".join(_describe(shown, data, err) for err in exc.errors())) from None


def load_all(data_dir: Path, specs: Iterable[GameSpec]) -> dict[str, CatalogBase[Any]]:
    """Every game's catalog, keyed by game; one `CatalogError` listing all the problems found."""
    catalogs: dict[str, CatalogBase[Any]] = {}
    problems: list[str] = []
    for spec in specs:
        if spec.catalog_model is None:
            continue
        path = data_dir / f"{spec.key}.json"
        try:
            catalog = load_catalog(path, spec.catalog_model)
        except CatalogError as exc:
            problems.append(str(exc))
            continue
        if catalog.game != spec.key:
            problems.append(f'{_shown(path)}: field "game": expected "{spec.key}", found "{catalog.game}"')
            continue
        catalogs[spec.key] = catalog
    if problems:
        raise CatalogError("\n".join(problems))
    return catalogs


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys silently; in a catalog that hides a typo.
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _shown(path: Path) -> str:
    """The path as the operator knows it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def _describe(shown: str, data: Any, err: ErrorDetails) -> str:
    loc: list[Any] = list(err["loc"])
    ctx = err.get("ctx") or {}
    if loc == ["cards"] and isinstance(ctx.get("card_index"), int):
        # Checks over the whole list (duplicate ids) say which card and field in their context.
        loc = ["cards", ctx["card_index"], *([ctx["field"]] if ctx.get("field") else [])]
    parts = [shown]
    if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
        index = loc[1]
        card_id = _raw_card_id(data, index)
        parts.append(f'card "{card_id}" (#{index})' if card_id else f"card #{index}")
        loc = loc[2:]
    if loc:
        parts.append(f'field "{".".join(str(part) for part in loc)}"')
    parts.append(err["msg"])
    return ": ".join(parts)


def _raw_card_id(data: Any, index: int) -> str | None:
    try:
        card_id = data["cards"][index]["id"]
    except (KeyError, IndexError, TypeError):
        return None
    return card_id if isinstance(card_id, str) and card_id else None


# --- /card autocomplete ---------------------------------------------------------------------------------

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ß": "ss"})
_NOT_WORD = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Text as compared for search: no case, no accents, punctuation as single spaces.

    So "Œil-de-Lynx" is found by "oeil de lynx" and "L’Archer" by "l'archer". Remembered: the names of
    the catalogs are folded again at every sort of a collection page (24 copies, ~25 µs each).
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_WORD.sub(" ", bare).strip()


@dataclass(frozen=True)
class CardRef:
    """One autocomplete suggestion; `key` is the value to send back because names are not unique."""

    game: str
    card_id: str
    name: LocalizedText

    @property
    def key(self) -> str:
        return f"{self.game}:{self.card_id}"

    def name_in(self, locale: str | None) -> str:
        return self.name.get(locale)


class CardIndex:
    """Every card of every loaded catalog, searchable by name in the reader's language."""

    def __init__(self, catalogs: Mapping[str, CatalogBase[Any]]) -> None:
        self._catalogs = dict(catalogs)
        self._cards: dict[tuple[str, str], CardBase] = {}
        self._refs: list[CardRef] = []
        for game in sorted(catalogs):
            for card in catalogs[game].cards:
                self._cards[(game, card.id)] = card
                self._refs.append(CardRef(game=game, card_id=card.id, name=card.name))
        # Folded names per language, computed once: autocomplete runs on every keystroke.
        self._folded = {lang: [fold(ref.name.get(lang)) for ref in self._refs] for lang in ("fr", "en")}

    def __len__(self) -> int:
        return len(self._refs)

    def search(self, query: str, locale: str | None, limit: int = 25) -> list[CardRef]:
        """Cards whose name contains `query`: names starting with it first, then a word starting with it,
        then anywhere; alphabetical within each group. An empty query lists cards alphabetically."""
        lang = _lang(locale)
        needle = fold(query)
        ranked: list[tuple[int, str, str, str, CardRef]] = []
        for ref, name in zip(self._refs, self._folded[lang], strict=True):
            if name.startswith(needle):
                rank = 0
            elif f" {needle}" in f" {name}":
                rank = 1
            elif needle in name:
                rank = 2
            else:
                continue
            ranked.append((rank, name, ref.game, ref.card_id, ref))
        ranked.sort(key=lambda item: item[:4])
        return [item[4] for item in ranked[: max(limit, 0)]]

    def suggest(self, query: str, locale: str | None, game: str | None = None) -> list[str]:
        """The card names (in the reader's language) nearest to `query`, of one game or of all."""
        lang = _lang(locale)
        names = sorted({ref.name.get(lang) for ref in self._refs if game is None or ref.game == game})
        return closest(query, names)

    def get(self, game: str, card_id: str) -> CardBase | None:
        """The full card model (the game's own subclass), for rendering."""
        return self._cards.get((game, card_id))

    def catalog(self, game: str) -> CatalogBase[Any] | None:
        """The loaded catalog of `game`: a game's `/card` fields may name what its cards refer to by id."""
        return self._catalogs.get(game)

    def ref(self, game: str, card_id: str) -> CardRef | None:
        card = self._cards.get((game, card_id))
        return None if card is None else CardRef(game=game, card_id=card.id, name=card.name)

    def resolve(self, value: str, locale: str | None) -> CardRef | None:
        """What the user meant: an autocomplete key ("game:id"), or a name typed in full without picking."""
        game, sep, card_id = value.partition(":")
        if sep and (ref := self.ref(game, card_id)) is not None:
            return ref
        wanted = fold(value)
        if not wanted:
            return None
        for lang in (_lang(locale), "fr", "en"):
            for ref, name in zip(self._refs, self._folded[lang], strict=True):
                if name == wanted:
                    return ref
        return None


def _lang(locale: str | None) -> str:
    return "en" if (locale or "").split("-")[0].split("_")[0].lower() == "en" else "fr"


# --- "did you mean" ---------------------------------------------------------------------------------------

SUGGESTIONS = 3  # names offered after a name that matches no card
SUGGESTION_CUTOFF = 70  # rapidfuzz WRatio (0-100) under which a name is too far to be offered
SUGGESTION_SPREAD = 10  # and a name this much further than the best one is noise beside it


def closest(query: str, names: Iterable[str], limit: int = SUGGESTIONS) -> list[str]:
    """The names nearest to what was typed, best first (case, accents and punctuation ignored): the
    "did you mean" of every refusal that names an unknown card. Nothing when nothing is close."""
    folded = {name: fold(name) for name in names}
    needle = fold(query)
    if not needle:
        return []
    found = process.extract(
        needle, folded, scorer=fuzz.WRatio, processor=None, limit=limit, score_cutoff=SUGGESTION_CUTOFF
    )
    if not found:
        return []
    best = found[0][1]
    return [name for _, score, name in found if score >= best - SUGGESTION_SPREAD]
