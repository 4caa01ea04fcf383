"""Players exist from their first use, with the starting wallets every game defines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from core.clock import Clock, from_db, to_db
from core.errors import BadInput
from core.settings import SUPPORTED_LOCALES
from services.community.tournaments.titles import titles
from services.infra import ledger
from services.infra.games import Currency, GameRegistry, SummaryLine
from services.infra.keyed_cache import KeyedCache
from store.connection import Connection
from store.db import Database, announce
from store.idempotency import once


def ensure_player(conn: Connection, player_id: int, now: datetime, registry: GameRegistry) -> bool:
    """Create the player if new and grant the starting wallets of `registry`'s games; returns True when
    created. Call in a write unit."""
    cursor = conn.execute(
        "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
        (player_id, to_db(now)),
    )
    if cursor.rowcount != 1:
        return False
    for currency in registry.currencies():
        if currency.starting > 0:
            ledger.credit(
                conn, now, player_id, currency.code, currency.starting, ledger.Movement("starting_grant")
            )
    return True


def ensure_starting_grant(conn: Connection, now: datetime, player_id: int, currency: Currency) -> None:
    """Grant a starting wallet to a player created before its game declared the currency.

    New players get it from `ensure_player`; an older player has no `starting_grant` row for it yet, so
    their first use of the game grants it, once (the check and the credit share the caller's unit)."""
    ensure_starting_grants(conn, now, player_id, (currency,))


def ensure_starting_grants(
    conn: Connection, now: datetime, player_id: int, currencies: Sequence[Currency]
) -> None:
    """`ensure_starting_grant` for several currencies, checked in one statement (/daily makes sure of
    every game's wallet at once): one `EXISTS` per currency, each stopping at the player's first grant
    row as a look-up of its own would, where one scan for them all would read the player's whole ledger."""
    granting = [c for c in currencies if c.starting > 0]
    if not granting:
        return
    found = conn.execute(
        "SELECT "
        + ", ".join(
            [
                "EXISTS (SELECT 1 FROM ledger WHERE player_id = ? AND currency = ? AND reason = 'starting_grant')"
            ]
            * len(granting)
        ),
        [value for currency in granting for value in (player_id, currency.code)],
    ).fetchone()
    for currency, granted in zip(granting, found, strict=True):
        if not granted:
            ledger.credit(
                conn, now, player_id, currency.code, currency.starting, ledger.Movement("starting_grant")
            )


@dataclass(frozen=True)
class Profile:
    player_id: int
    joined: datetime
    wallets: list[tuple[str, int]]  # (currency name key, balance), in registry order
    summaries: list[tuple[str, list[SummaryLine]]]  # (game name key, lines)
    titles: list[SummaryLine] = field(default_factory=list)  # tournaments' podiums, latest first
    # (game name key, ((currency code, balance), ...)): the wallets game by game, as the profile lists them
    # (« Pillz duel : 300 pièces » reads unlike « Pièces : 300 » beside « Pièces d'or : 100 »)
    purses: list[tuple[str, tuple[tuple[str, int], ...]]] = field(default_factory=list)


def _profile(conn: Connection, player_id: int, registry: GameRegistry) -> Profile | None:
    row = conn.execute("SELECT created_at FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        return None
    held = ledger.balances(conn, player_id)
    wallets = [(c.name_key, held.get(c.code, 0)) for c in registry.currencies()]
    summaries = [
        (g.name_key, g.profile_summary(conn, player_id))
        for g in registry.all_games()
        if g.profile_summary is not None
    ]
    purses = [
        (g.name_key, tuple((c.code, held.get(c.code, 0)) for c in g.currencies))
        for g in registry.all_games()
        if g.currencies
    ]
    return Profile(player_id, from_db(row[0]), wallets, summaries, titles(conn, player_id, registry), purses)


# What a unit that changes a player's cached columns announces, with the player's id as key: every process
# sharing the database forgets that player after the commit (`Database.subscribe_keys`).
LOCALE_TOPIC = "players"


def _welcome_key(player_id: int, game: str) -> str:
    return f"welcome:{game}:{player_id}"


def welcome_claimed(conn: Connection, player_id: int, game: str) -> bool:
    """Whether a command of `game` by the player succeeded already (its welcome was given)."""
    row = conn.execute("SELECT 1 FROM idempotency WHERE key = ?", (_welcome_key(player_id, game),)).fetchone()
    return row is not None


def forget_everywhere(conn: Connection, player_id: int) -> None:
    """Call in the write unit that changes a player's languages or deletes the player."""
    announce(conn, LOCALE_TOPIC, str(player_id))


# What a unit that changes a line of a player's /profile announces, with the player's id as key: a game's
# record or rank, its profile row appearing or going (`summary_changed`). Balances announce
# `ledger.WALLETS_TOPIC`; a player's deletion, `LOCALE_TOPIC`.
PROFILE_TOPIC = "profile"
PROFILE_CACHE_SIZE = 20_000  # profiles remembered, the oldest forgotten first


def summary_changed(conn: Connection, player_id: int) -> None:
    """Call in the write unit that changes what a game's `profile_summary` reads for the player."""
    announce(conn, PROFILE_TOPIC, str(player_id))


LOCALE_CACHE_SIZE = 100_000  # players remembered; about 20 MB at most, the oldest forgotten first


@dataclass(frozen=True)
class _Known:
    chosen: str | None  # the /settings language (players.locale)
    seen: str | None  # the last Discord language stored (players.last_locale)


class LocaleCache(KeyedCache[_Known]):
    """Players this process knows exist, with their stored languages: a command from one of them whose
    Discord language did not change needs no write (`PlayerService.touch`), which is most commands.

    Correct with one writer per database (store/db.py): every change of a cached column goes through this
    process's writer, and the unit that makes it calls `forget` (in the writer's thread), so the command
    after a /settings change reads the database again. A lookup that raced with a `forget` (its write ran
    before the change but returned after it) is not stored: `generation` moved in between.

    Several processes (PostgreSQL, docs/deployment.md "Several processes"): the unit that changes a
    player also announces `LOCALE_TOPIC` with the player's id, and every process forgets that player once
    the commit is known: this one right after it (units run side by side there, so a command's read
    between the in-unit `forget` and the commit may have cached the former language), the others when
    the NOTIFY reaches them. A lookup racing with it is refused by `generation`, as above.
    """

    def __init__(self, capacity: int = LOCALE_CACHE_SIZE) -> None:
        super().__init__(capacity)


class PlayerService:
    # Tests set it: each profile answered from memory is compared with a fresh read, and a difference
    # raises (a write that changes a profile without announcing it).
    check_kept_profiles = False

    def __init__(self, db: Database, clock: Clock, registry: GameRegistry) -> None:
        self.db = db
        self.clock = clock
        self.registry = registry
        self.locales = LocaleCache()
        db.subscribe_keys(LOCALE_TOPIC, self.locales.changed)
        # A player's profile, kept until a commit announces a change of one of its lines.
        self.profiles: KeyedCache[Profile] = KeyedCache(PROFILE_CACHE_SIZE)
        for topic in (PROFILE_TOPIC, ledger.WALLETS_TOPIC, LOCALE_TOPIC):
            db.subscribe_keys(topic, self.profiles.changed)
        # The cards a player holds (the profile's best cards), kept until a change of one of their copies.
        self.owned: KeyedCache[tuple[tuple[str, str], ...]] = KeyedCache(PROFILE_CACHE_SIZE)
        for topic in (ledger.CARDS_TOPIC, LOCALE_TOPIC):
            db.subscribe_keys(topic, self.owned.changed)
        self.welcomed: set[tuple[int, str]] = set()  # (player, game) whose welcome marker is claimed
        self.shown: set[tuple[int, str]] = set()  # (player, game) whose welcome was shown, not yet claimed

    async def ensure(self, player_id: int) -> None:
        now = self.clock.now()
        await self.db.write(lambda conn: ensure_player(conn, player_id, now, self.registry))

    async def owned_cards(self, player_id: int) -> tuple[tuple[str, str], ...]:
        """(game, card id) of every card the player holds, once each: the best of them go on the
        profile's picture. Kept like the profile (a change of a copy announces `ledger.CARDS_TOPIC` with
        its owner), so a known player's /profile still makes no database trip."""

        def unit(conn: Connection) -> tuple[tuple[str, str], ...]:
            rows = conn.execute(
                "SELECT DISTINCT game, card_key FROM cards WHERE owner_id = ? ORDER BY game, card_key",
                (player_id,),
            ).fetchall()
            return tuple((str(game), str(card)) for game, card in rows)

        return await self.owned.get_or_read(player_id, lambda: self.db.read(unit))

    async def profile(self, player_id: int, *, create: bool) -> Profile | None:
        """Your own profile creates you; someone else's profile is only shown if they already play.

        A plain read first: the player almost always exists already (the command's `touch` made them), and
        a read does not wait for the single writer's turn. Only a missing player with ``create`` takes a
        write unit, which ensures them and reads the profile together.

        A profile read is kept (`profiles`) until a commit announces a change of one of its lines: a
        balance (`ledger.WALLETS_TOPIC`), a game's summary (`PROFILE_TOPIC`, `summary_changed`), the
        player's deletion (`LOCALE_TOPIC`). Its read is about ten statements, each of which lets go of
        the interpreter's lock; kept, a /profile makes no database trip.
        """
        kept = self.profiles.get(player_id)
        if kept is not None:
            if self.check_kept_profiles:
                fresh = await self.db.read(lambda conn: _profile(conn, player_id, self.registry))
                if fresh != kept:
                    raise AssertionError(f"kept profile of {player_id} is stale: {kept!r} != {fresh!r}")
            return kept
        generation = self.profiles.generation
        found = await self.db.read(lambda conn: _profile(conn, player_id, self.registry))
        if found is not None:
            self.profiles.put(player_id, found, generation)
        if found is not None or not create:
            return found
        now = self.clock.now()

        def unit(conn: Connection) -> Profile | None:
            ensure_player(conn, player_id, now, self.registry)
            return _profile(conn, player_id, self.registry)

        return await self.db.write(unit)

    async def claim_welcome(self, player_id: int, game: str) -> bool:
        """After a command of `game` that showed its welcome succeeded: records that the welcome was given
        (one write; True for the command that recorded it), so that no later command owes it."""
        now = self.clock.now()
        key = _welcome_key(player_id, game)
        fresh = await self.db.write(lambda conn: once(conn, key, now, lambda: True)[1])
        self._welcomed(player_id, game)
        self.shown.discard((player_id, game))
        return bool(fresh)

    def take_welcome(self, player_id: int, game: str) -> bool:
        """Whether a command of `game` that owes its welcome shows it now: once per process until a
        command succeeds and records it (a refused command records nothing: a refusal leaves no trace).
        Checked and marked in one step of the event loop, so two first commands at once show it once; a
        command that read "owed" while another's claim was committing (PostgreSQL runs both at once) finds
        the claim here."""
        if (player_id, game) in self.shown or (player_id, game) in self.welcomed:
            return False
        if len(self.shown) >= LOCALE_CACHE_SIZE:
            self.shown.clear()
        self.shown.add((player_id, game))
        return True

    def welcome_shown(self, player_id: int, game: str) -> bool:
        """This process showed the player `game`'s welcome and nothing recorded it yet."""
        return (player_id, game) in self.shown

    def _welcomed(self, player_id: int, game: str) -> None:
        if len(self.welcomed) >= LOCALE_CACHE_SIZE:
            self.welcomed.clear()
        self.welcomed.add((player_id, game))

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        if locale not in (None, *SUPPORTED_LOCALES):
            raise BadInput("error.bad_input")
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            ensure_player(conn, player_id, now, self.registry)
            conn.execute("UPDATE players SET locale = ? WHERE id = ?", (locale, player_id))
            self.locales.forget(player_id)  # in the unit: the next command reads what this one wrote
            forget_everywhere(conn, player_id)  # and after the commit, in every process (LocaleCache)

        await self.db.write(unit)

    async def locale_of(self, player_id: int) -> str | None:
        def unit(conn: Connection) -> str | None:
            row = conn.execute("SELECT locale FROM players WHERE id = ?", (player_id,)).fetchone()
            return row[0] if row else None

        return await self.db.read(unit)

    async def touch(self, player_id: int, discord_locale: str | None) -> str | None:
        """First use creates the player; remembers their Discord language for later DMs.

        Returns the language they chose with /settings, or None to follow Discord. A player this process
        already knows, whose Discord language is the one stored, costs no database trip at all.
        """
        chosen, _ = await self.touch_in_game(player_id, discord_locale, None)
        return chosen

    async def touch_in_game(
        self, player_id: int, discord_locale: str | None, game: str | None
    ) -> tuple[str | None, bool]:
        """`touch`, and for a command of `game`, whether the game's welcome is still owed: until a
        command of that game succeeds and `claim_welcome` records it. The marker is an idempotency key
        (`welcome:<game>:<player>`), exactly "once per key", so it needs no table of its own. It is only
        read here: a refused command leaves no trace (the welcome it shows is not recorded). Once this
        process has claimed the player's welcome in that game, a command with an unchanged language
        writes nothing (the locale cache, and the pairs already welcomed)."""
        seen = discord_locale if discord_locale in ("fr", "en") else None
        known = self.locales.get(player_id)
        welcomed = game is None or (player_id, game) in self.welcomed
        if known is not None and seen in (None, known.seen) and welcomed:
            return known.chosen, False
        now = self.clock.now()
        generation = self.locales.generation

        def unit(conn: Connection) -> tuple[_Known | None, bool]:
            ensure_player(conn, player_id, now, self.registry)
            row = conn.execute(
                "UPDATE players SET last_locale = COALESCE(?, last_locale) WHERE id = ?"
                " RETURNING locale, last_locale",
                (seen, player_id),
            ).fetchone()
            first = game is not None and not welcome_claimed(conn, player_id, game)
            return (_Known(row[0], row[1]) if row else None), first

        stored, first = await self.db.write(unit)
        if game is not None and not first:
            self._welcomed(player_id, game)
        if stored is None:
            return None, first
        self.locales.put(player_id, stored, generation)
        return stored.chosen, first
