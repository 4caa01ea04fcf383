"""The registry that lets a game plug in without touching the platform.

A game's package (`services/<game>/`) exposes `GAME = GameSpec(...)` in its `__init__`; `discover()`
imports them all. The platform then knows each game's currencies (starting wallets), catalog,
engine and profile summary, and the cogs, help, `/card` and `/profile` follow.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, Protocol

import services
from core.i18n import DEFAULT_LOCALE, has
from engine.registry import EngineRegistry
from services.community.card_images.spec import CardArt, CardCopy
from services.community.drops.pool import DropPool
from services.community.lab.spec import LabGame
from services.community.leaderboard.spec import Standings
from services.community.recap.sections import SectionProvider
from services.infra.messages import Button, Text
from services.infra.timers import DailyReward, TimerSource
from store.connection import Connection


@dataclass(frozen=True)
class Currency:
    code: str  # stored in wallets.currency, e.g. "hoss_gold"
    name_key: str  # message key of its display name
    starting: int = 0  # granted once when the player is created
    earn_key: str | None = None  # message key saying how to earn more (named by "not enough" refusals)

    @property
    def amount_key(self) -> str:
        """The message key of an amount of it, a plural block of `amount` (« 1 gallion », « 3 gallions »):
        `<game>.<noun>_amount` for the code `<game>_<noun>` (`money` finds it without a registry)."""
        return amount_key(self.code)


def amount_key(code: str) -> str:
    game, _, noun = code.partition("_")
    return f"{game}.{noun}_amount"


def money(code: str, amount: int) -> Text:
    """An amount of a currency as a reader reads it within a sentence: its number written by the
    reader's language and its noun in lower case, singular or plural by that number (« 0 gallion »,
    « 1 500 gallions »); a currency without its amount message (no game declares it) is shown by its code.

    The message is found by the code's naming convention, so that rendering an amount needs no registry."""
    key = amount_key(code)
    return Text(key, {"amount": amount}) if has(key) else Text.raw(f"{amount} {code}")


@dataclass(frozen=True)
class SummaryLine:
    key: str
    params: dict[str, object] = field(default_factory=dict)


ProfileSummary = Callable[[Connection, int], list[SummaryLine]]
# How a game shows one card in /card, in the reader's language: (label, value) pairs of message Texts.
# It receives the card, the loaded catalog the card comes from (what the card only names by id, such as
# a Pillz clan, is read there: a process may hold several containers, each with its own catalog) and
# the locale.
CardFields = Callable[[Any, Any, str], list[tuple[Text, Text]]]


@dataclass(frozen=True)
class GameContext:
    """What a game's services are built from; the container hands it to `GameSpec.build`."""

    db: Any  # store.db.Database
    clock: Any  # core.clock.Clock
    catalog: Any  # the game's loaded catalog, or None
    scheduler: Any  # services.infra.scheduler.Scheduler
    rng: Any  # a random.Random for draws the players cannot predict
    registry: GameRegistry  # every game of the container (a new player gets all their starting wallets)
    default_locale: str = DEFAULT_LOCALE  # the language of a player the bot knows none of (settings)


GameFactory = Callable[[GameContext], Any]


@dataclass(frozen=True)
class CollectionEntry:
    """One entry of a player's collection, opened from a page of it: the card, the copy drawn (None: the
    card's default copy), how many copies the player owns, and what the game adds (a unit's level)."""

    card_id: str
    copy: CardCopy | None
    count: int
    note: Text | None = None


# How a game reads one entry of a player's collection from the value its page's select carries (a card
# id, or a copy id where copies differ): (connection, the game's loaded catalog, player, value). A value
# the player owns no entry for is `NotFound`: the select's value is untrusted input.
EntryReader = Callable[[Connection, Any, int, str], CollectionEntry]


@dataclass(frozen=True)
class ShownCopy:
    """A pulled copy a player may show off in public: what is drawn, and its rarity's name."""

    card_id: str
    copy: CardCopy
    rarity: Text


# Whether a copy may be shown off (services/shared/showoff.py): (connection, the game's loaded catalog,
# player, copy id) -> the copy when the player owns it, can see it (not face down) and it is of the
# game's « Or or better » rarities; else None.
ShowOffReader = Callable[[Connection, Any, int, int], ShownCopy | None]

# What one copy is worth in trades, in the game's value unit (one unit of its currency): it receives the
# game's loaded catalog, the copy's catalog id and its attributes (HOSS prices a copy by rarity and rank).
CardValue = Callable[[Any, str, dict[str, Any]], int]


@dataclass(frozen=True)
class Trading:
    """How a game's trades are measured (docs/trades.md): a copy's value, and how much value a player may
    give, and receive, per 24 hours. A game that declares nothing trades with these defaults."""

    card_value: CardValue | None = None  # None: every copy is worth `flat_card_value`
    flat_card_value: int = 100
    daily_cap: int = 20_000


@dataclass(frozen=True)
class DeckHold:
    """A copy leaving its owner (offered in a trade or gift) that one of their decks uses, and what that
    deck does without it (docs/trades.md, "Decks"): the copy that takes its place, or none."""

    copy_id: int
    deck: Text  # the deck as its owner names it, a noun phrase: « votre deck actif (emplacement 1) »
    fix: Text  # the exact command that completes the deck, said when no copy takes the place
    replacement: int | None = None  # the best copy left to take its place; None: no copy is left
    replacement_engaged: bool = False  # that copy is itself held elsewhere (another trade, an Arena deck)
    playable: bool = False  # without a replacement, the deck still plays without that card (HOSS: a Rang 2)


# Which of the player's decks use these copies of theirs, about to leave them in a trade (connection, the
# game's loaded catalog, player, copy ids): one `DeckHold` per copy and deck, in the trade window of that
# player only. Read-only.
DecksHolding = Callable[[Connection, Any, int, Sequence[int]], list[DeckHold]]
# The same, at the swap, before the copies move (connection, catalog, player, copy ids): a game whose
# decks store copies writes each replacement into the deck here, in the swap's write unit; the returned
# holds are what the giver is told. A game whose decks name cards needs none (`decks_holding` serves).
DeckRepair = Callable[[Connection, Any, int, Sequence[int]], list[DeckHold]]


@dataclass(frozen=True)
class ResetReport:
    """What an admin's reset of one player's progress in a game removed, for the audit log."""

    cards: int  # copies destroyed through the ledger
    currencies: tuple[tuple[str, int], ...] = ()  # (currency code, balance before the reset)


# A game's reset of one player's progress (the admin tool): in the caller's write unit, cards and coins
# leave through ledger movements, the game's own rows of that player are deleted.
ResetHook = Callable[[Connection, datetime, int], ResetReport]
# A game's own anonymisation at a player's erasure (player, anonymous id), run before the platform's
# generic pass, for rows the generic rules would break (an ordered pair of players under a CHECK).
AnonymiseHook = Callable[[Connection, int, int], None]


@dataclass(frozen=True)
class Reader:
    """Who reads a game's help page, as Discord reports it for this interaction."""

    player_id: int
    guild_id: int | None
    role_ids: tuple[int, ...]
    manage_guild: bool


# Whether the reader may use a game's staff commands (its referee's): the game's facade, the reader.
StaffCheck = Callable[[Any, Reader], Awaitable[bool]]


@dataclass(frozen=True)
class GameGuide:
    """A game's first steps, declared by the game so that a new one edits no shared file.

    `welcome_key` is shown privately once per player after their first command of the game (its
    parameter `starting` is the game's first currency's starting amount); `order` lists the game's
    subcommands (qualified below the group, "deck save") in the order a new player needs them, the
    others following alphabetically; `staff` names the subcommands (or their prefixes) shown only to
    readers `is_staff` accepts; `rules_pages` are the pages of `/<game> rules`, each a (title, body) pair
    of message keys of the game's locale files."""

    welcome_key: str
    about_key: str  # one line saying what the game is (the top of its /help page)
    order: tuple[str, ...] = ()
    staff: tuple[str, ...] = ()
    is_staff: StaffCheck | None = None
    rules_pages: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TournamentPairing:
    """A table of a tournament's round, for the game to start the match that decides it."""

    tournament: int
    round: int
    table: int
    guild_id: int
    channel_id: int  # the tournament's channel: where its matches are played
    players: tuple[int, int]
    deadline: datetime  # the round's: a match nobody started by then is decided by attendance
    title: Text  # the tournament as its messages name it


@dataclass(frozen=True)
class Opened:
    """The match a game started for a tournament's table. A game that computes its matches at once
    (Dinocard) returns it `decided`, with the winning seat (None: a draw). A match that could not be made
    (a player with nothing to play: no pack left) is None, with who was `present`: the table is decided as
    at a deadline."""

    match_id: int | None
    decided: bool = False
    winner: int | None = None
    present: tuple[bool, bool] | None = None


class TournamentPlay(Protocol):
    """A game's side of the tournaments (services/community/tournaments/, docs/tournaments.md). Every
    method runs inside the tournament's write unit, on its connection. A match that ends later reports
    its result itself, in the unit that ends it (`services.community.tournaments.results.match_over`)."""

    def check_entry(self, conn: Connection, now: datetime, player: int) -> None:
        """Refuse (a `DomainError` giving every reason) a player who could not play a match now."""

    def rating(self, conn: Connection, player: int) -> int:
        """The player's rating in the game, for a tournament seeded by rating (higher is better)."""

    def open_match(self, conn: Connection, now: datetime, pairing: TournamentPairing) -> Opened:
        """Start the table's match between its two players (seat 0 the first)."""

    def at_deadline(self, conn: Connection, now: datetime, match_id: int) -> tuple[bool, bool] | None:
        """The round's deadline fell (or the tournament was cancelled): a match not started yet ends, in
        the game's own way, and each seat says whether its player was there (ready); None for a match
        being played or over (its end reports its result)."""

    def buttons(self, match_id: int) -> tuple[Button, ...]:
        """The buttons of the message telling a player of their match (« Prêt », « Regarder »)."""


@dataclass(frozen=True)
class TournamentGame:
    """A game whose matches tournaments may be made of: `play` gives its side of the tournaments from the
    game's built services (`GameSpec.build`); `at_once`: its matches are decided as they open."""

    play: Callable[[Any], TournamentPlay]
    at_once: bool = False


@dataclass(frozen=True)
class GameSpec:
    key: str  # short stable id: "hoss", "pillz", ...
    name_key: str  # message key of the game's display name
    command_group: str  # base name of its slash command group
    currencies: tuple[Currency, ...] = ()
    catalog_model: type[Any] | None = None  # pydantic model of data/<key>.json
    engine: Any = None  # an engine.protocol.Engine
    profile_summary: ProfileSummary | None = None
    card_fields: CardFields | None = None
    build: GameFactory | None = None  # the game's services, reachable as `Services.games[key]`
    card_art: CardArt | None = None  # how its cards are drawn (services/<game>/card_image.py)
    # One entry of a collection, for « Voir une carte » under a page of it (services/shared/collection.py)
    collection_entry: EntryReader | None = None
    show_off: ShowOffReader | None = None  # a pull of « Or or better » shown in public, once per copy
    daily: DailyReward | None = None  # its daily reward and streak table (services/community/daily.py)
    timers: TimerSource | None = None  # the player's timers in the game, for /cooldowns and reminders
    reset: ResetHook | None = None  # /admin reset: the player's progress in this game back to a start
    # What erasure must do to the game's rows beyond what store/personal_data.py declares (docs/privacy.md).
    anonymise: AnonymiseHook | None = None
    trading: Trading = (
        Trading()
    )  # trades and gifts of its cards and currencies (services/community/trades/service.py)
    # What a trade does to the giver's decks (services/community/trades/decks.py); None: no deck uses copies
    decks_holding: DecksHolding | None = None
    repair_decks: DeckRepair | None = None
    guide: GameGuide | None = None  # its welcome, help order, staff commands and rules pages
    # What its drops hand out, with its own purchase odds (services/<game>/drops.py, docs/drops.md)
    drops: DropPool | None = None
    # Its own ranking of a server's players and the week's best: /classement serveur, the weekly recap
    standings: Standings | None = None
    # Sections of its own in a server's weekly recap (services/community/recap/sections.py)
    recap_sections: tuple[SectionProvider, ...] = ()
    tournament: TournamentGame | None = None  # tournaments of its matches (docs/tournaments.md)
    lab: LabGame | None = None  # its deck lab: many battles against the AI, for statistics (docs/lab.md)


class GameRegistry:
    """The games one container knows, fixed once built: their currencies, commands and hooks.

    The container builds one (`GameRegistry.discover()`) and hands it to the services that read the
    games; tests build one of exactly the games they need. Two registries in one process do not see
    each other."""

    def __init__(self, specs: Iterable[GameSpec] = ()) -> None:
        by_key: dict[str, GameSpec] = {}
        for spec in specs:
            existing = by_key.get(spec.key)
            if existing is not None and existing is not spec:
                raise ValueError(f"game {spec.key!r} registered twice")
            by_key[spec.key] = spec
        self._games: tuple[GameSpec, ...] = tuple(sorted(by_key.values(), key=lambda g: g.key))
        self._by_key: Mapping[str, GameSpec] = MappingProxyType(by_key)

    @classmethod
    def discover(cls) -> GameRegistry:
        """Every game package (`services/<game>/`) that declares a `GAME`."""
        return cls(discover_specs())

    def with_games(self, *specs: GameSpec) -> GameRegistry:
        """A new registry of these games and this one's (this one is left as it is)."""
        return GameRegistry((*self._games, *specs))

    def all_games(self) -> list[GameSpec]:
        return list(self._games)

    def get(self, key: str) -> GameSpec | None:
        return self._by_key.get(key)

    def engines(self) -> EngineRegistry:
        """Its games' engines (`GameSpec.engine`), by name."""
        return EngineRegistry(g.engine for g in self._games if g.engine is not None)

    def name(self, key: str) -> Text:
        """The game's name, or its key for a game this registry does not have (a finished tournament of
        a game since removed)."""
        spec = self._by_key.get(key)
        return Text(spec.name_key) if spec is not None else Text.raw(key)

    def currency(self, code: str) -> Currency | None:
        return next((c for c in self.currencies() if c.code == code), None)

    def of_group(self, command_group: str) -> GameSpec | None:
        """The game whose slash command group is `command_group`."""
        return next((g for g in self._games if g.command_group == command_group), None)

    def currencies(self) -> list[Currency]:
        return [c for g in self._games for c in g.currencies]


# Packages of services/ that are not a game.
NOT_GAMES = ("infra", "community", "shared")


def discover_specs() -> list[GameSpec]:
    """Import every game package (`services/<game>/`) and return those that declare a `GAME`."""
    found = []
    for info in pkgutil.iter_modules(services.__path__):
        if not info.ispkg or info.name in NOT_GAMES:
            continue
        module = importlib.import_module(f"services.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            found.append(spec)
    return found
