"""A player's wishlist (`/souhaits`): up to 10 cards per game, any game's card found by name; and what it
is for (docs/drops.md, "Wishlists"): a drop of a wished card mentions the player on its post
(services/community/drops/service.py), and a wished card shown off (« Montrer ») in a server where the
player plays is told to them by DM, at most once per card and Paris day (`notify_shown`, run in the
show-off's unit). Both stop when the player turns their wishlist alerts off (`/paramètres souhaits`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from core.errors import NotAllowed, NotFound
from services.community.wishlists.store import wishers_here
from services.infra import outbox
from services.infra.catalogs import CardIndex, CardRef
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Target, Text
from services.infra.players import ensure_player
from services.shared.collecting import card_not_found
from store.connection import Connection
from store.db import Database

MAX_PER_GAME = 10
MAX_SHOWN_NOTICES = 50  # DMs one show-off may send (the earliest wishes first)


@dataclass(frozen=True)
class Wish:
    ref: CardRef


@dataclass(frozen=True)
class Added:
    ref: CardRef
    fresh: bool  # False: it was on the list already
    count: int  # cards of its game on the list now


def _count(conn: Connection, player_id: int, game: str) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM wishlists WHERE player_id = ? AND game = ?", (player_id, game)
    ).fetchone()
    return int(row[0])


def _card_text(ref: CardRef) -> Text:
    return Text.per_locale({"fr": ref.name.fr, "en": ref.name.en})


class WishlistService:
    def __init__(
        self, db: Database, clock: Clock, registry: GameRegistry, cards: CardIndex, zone: ZoneInfo
    ) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.cards = cards
        self.zone = zone

    def resolve(self, typed: str, locale: str | None) -> CardRef:
        """The card a player picked (an autocomplete value "game:id") or typed by its full name."""
        ref = self.cards.resolve(typed, locale)
        if ref is None:
            raise card_not_found(typed, self.cards.suggest(typed, locale))
        return ref

    async def add(self, player_id: int, typed: str, locale: str | None) -> Added:
        ref = self.resolve(typed, locale)
        now = self.clock.now()

        def unit(conn: Connection) -> Added:
            ensure_player(conn, player_id, now, self.registry)
            count = _count(conn, player_id, ref.game)
            inserted = conn.execute(
                "INSERT INTO wishlists (player_id, game, card_key, added_at) SELECT ?, ?, ?, ?"
                " WHERE (SELECT COUNT(*) FROM wishlists WHERE player_id = ? AND game = ?) < ?"
                " ON CONFLICT (player_id, game, card_key) DO NOTHING",
                (player_id, ref.game, ref.card_id, to_db(now), player_id, ref.game, MAX_PER_GAME),
            ).rowcount
            if inserted:
                return Added(ref, True, count + 1)
            listed = conn.execute(
                "SELECT 1 FROM wishlists WHERE player_id = ? AND game = ? AND card_key = ?",
                (player_id, ref.game, ref.card_id),
            ).fetchone()
            if listed is None:
                raise NotAllowed("wishlist.error.full", game=self.registry.name(ref.game), count=MAX_PER_GAME)
            return Added(ref, False, count)

        return await self.db.write(unit)

    async def remove(self, player_id: int, typed: str, locale: str | None) -> CardRef:
        ref = self.resolve(typed, locale)

        def unit(conn: Connection) -> int:
            return conn.execute(
                "DELETE FROM wishlists WHERE player_id = ? AND game = ? AND card_key = ?",
                (player_id, ref.game, ref.card_id),
            ).rowcount

        if not await self.db.write(unit):
            raise NotFound("wishlist.error.not_listed", card=_card_text(ref))
        return ref

    async def wishes(self, player_id: int) -> list[Wish]:
        """The player's wishes, by game key then the order they were added."""

        def unit(conn: Connection) -> list[tuple[str, str]]:
            rows = conn.execute(
                "SELECT game, card_key FROM wishlists WHERE player_id = ? ORDER BY game, added_at, card_key",
                (player_id,),
            ).fetchall()
            return [(str(game), str(card)) for game, card in rows]

        found = await self.db.read(unit)
        return [Wish(ref) for game, card in found if (ref := self.cards.ref(game, card)) is not None]

    async def set_alerts(self, player_id: int, on: bool) -> None:
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            ensure_player(conn, player_id, now, self.registry)
            conn.execute("UPDATE players SET wish_alerts = ? WHERE id = ?", (int(on), player_id))

        await self.db.write(unit)


def notify_shown(
    conn: Connection,
    now: datetime,
    today: date,
    guild_id: int,
    channel_id: int,
    shower: int,
    ref: CardRef,
    registry: GameRegistry,
) -> list[int]:
    """In the show-off's unit: a DM to each player of the server who wishes for the card (alerts on, not
    the one showing it), unless they were told of that card already today. Returns who is told."""
    told = []
    for player in wishers_here(
        conn, guild_id, ref.game, ref.card_id, today, limit=MAX_SHOWN_NOTICES, without=shower
    ):
        conn.execute(
            "DELETE FROM wish_notices WHERE player_id = ? AND day < ?",
            (player, (today - timedelta(days=1)).isoformat()),
        )
        fresh = conn.execute(
            "INSERT INTO wish_notices (player_id, game, card_key, day) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (player_id, game, card_key, day) DO NOTHING",
            (player, ref.game, ref.card_id, today.isoformat()),
        ).rowcount
        if fresh:
            told.append(player)
            message = MessageSpec(
                content=Text(
                    "wishlist.dm.shown",
                    {
                        "player": f"<@{shower}>",
                        "card": _card_text(ref),
                        "game": registry.name(ref.game),
                        "channel": f"<#{channel_id}>",
                    },
                )
            )
            outbox.enqueue(conn, now, Target("dm", player, guild_id=None), message)
    return told
