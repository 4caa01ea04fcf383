"""Trades and gifts of cards and currency between two players of a server (docs/trades.md).

Any game whose `GameSpec` declares currencies, and whose cards are rows of the shared `cards` table, can be
traded: the platform reaches it only through the registry (its currencies, its `Trading` rules, its
catalog in the card index), so a new game trades without an edit here.

The rules this module keeps:
- an offered copy is locked (`cards.locked_by = 'trade:<id>'`) until the trade ends, so it cannot be sold,
  sacrificed, locked in an Arena deck or offered twice; a copy already locked (an Arena deck) is refused;
- any change of an offer bumps the trade's `version` and so voids both confirmations; a confirmation
  names the version it saw, and the swap runs when both confirmed the current one;
- the swap is one write unit, under the idempotency key `trade:<id>:swap`: every copy moves through
  `ledger.transfer_locked_card` and every amount through a guarded debit and a credit, or nothing moves;
- abuse control: both players have been members of the server for `MIN_MEMBERSHIP`, and in 24 hours a
  player gives, and receives, at most the game's `Trading.daily_cap` of value (checked at the swap);
- an open trade expires through a scheduler job (`trade:expire`), which releases its copies once;
- a party's erasure (`/privacy delete`) cancels every open trade and gift of theirs in its own unit, and
  the other party is told (`end_for_erasure`, then `tell_erased` once the ids are anonymous);
- each party reads a card in their language with its name in the other's beside it where they differ
  (`_other_language`, services/community/card_names.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from core.clock import Clock, from_db, to_db
from core.errors import BadInput, CardUnavailable, NotAllowed
from core.i18n import DEFAULT_LOCALE
from core.message_guard import echo
from services.community.card_names import reading_languages
from services.community.trades import decks as trade_decks
from services.community.trades.store import (
    ERASED,
    Trade,
    TradeKind,
    TradeStatus,
    load,
    load_trusted,
    lock_name,
    moved_since,
    of_player,
    open_count,
    open_of,
)
from services.community.trades.window import changed_notice, ended_notice, log, status_text, window
from services.infra import ledger
from services.infra.catalogs import CardIndex, fold
from services.infra.erased import is_erased, mention
from services.infra.games import GameRegistry, GameSpec
from services.infra.messages import MessageSpec, Number, Target, Text
from services.infra.outbox import enqueue
from services.infra.players import ensure_player
from services.infra.scheduler import Job, Scheduler, cancel, schedule
from store.connection import Connection
from store.db import Database
from store.idempotency import once

EXPIRE_JOB = "trade:expire"
TRADE_TTL = timedelta(hours=1)
GIFT_TTL = timedelta(minutes=15)
MIN_MEMBERSHIP = timedelta(days=7)
CAP_WINDOW = timedelta(hours=24)
MAX_ITEMS = 10  # per side: the window stays one embed field per side
MAX_OPEN = 5  # open trades and gifts a player may be party to at once
HISTORY_LIMIT = 15
Languages = dict[int, str] | None  # the reading languages a unit read already (`reading_languages`)

_Change = Callable[[Connection, Trade], None]


def tradable(spec: GameSpec | None) -> GameSpec:
    """The game a trade is about: it must exist and declare a currency (its cards are `cards` rows)."""
    if spec is None or not spec.currencies:
        raise BadInput("trades.error.game")
    return spec


class TradeService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        registry: GameRegistry,
        scheduler: Scheduler,
        cards: CardIndex,
        default_locale: str = DEFAULT_LOCALE,
    ) -> None:
        self.db = db
        self.clock = clock
        self.registry = registry
        self.cards = cards
        self.default_locale = default_locale  # the language of a player the bot knows none of
        scheduler.on(EXPIRE_JOB, self._expire)

    # --- opening ----------------------------------------------------------------------------------------

    def _member_for_long_enough(
        self, conn: Connection, now: datetime, player_id: int, since: datetime | None, key: str
    ) -> None:
        """Discord's join date of the member in this server; the player's first use of the bot when Discord
        gave none (as Chocobataille's league does)."""
        if since is None:
            row = conn.execute("SELECT created_at FROM players WHERE id = ?", (player_id,)).fetchone()
            since = now if row is None else from_db(row[0])
        if now - since < MIN_MEMBERSHIP:
            opens = int((since + MIN_MEMBERSHIP).timestamp())
            raise NotAllowed(key, days=MIN_MEMBERSHIP.days, name=f"<@{player_id}>", opens=f"<t:{opens}:R>")

    def _create(
        self,
        conn: Connection,
        now: datetime,
        kind: TradeKind,
        where: tuple[int, int | None],
        parties: tuple[int, int],
        game: str,
        joined: tuple[datetime | None, datetime | None],
    ) -> Trade:
        proposer, partner = parties
        if proposer == partner:
            raise BadInput("trades.error.self")
        tradable(self.registry.get(game))
        for player in parties:
            ensure_player(conn, player, now, self.registry)
        self._member_for_long_enough(conn, now, proposer, joined[0], "trades.error.too_new.you")
        self._member_for_long_enough(conn, now, partner, joined[1], "trades.error.too_new.them")
        for player, key in ((proposer, "trades.error.too_many.you"), (partner, "trades.error.too_many.them")):
            if open_count(conn, player) >= MAX_OPEN:
                raise NotAllowed(key, count=MAX_OPEN, name=f"<@{player}>")
        expires = now + (TRADE_TTL if kind == "trade" else GIFT_TTL)
        row = conn.execute(
            "INSERT INTO trades (kind, game, guild_id, channel_id, proposer_id, partner_id, created_at,"
            " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (kind, game, where[0], where[1], proposer, partner, to_db(now), to_db(expires)),
        ).fetchone()
        trade_id = int(row[0])
        job = schedule(conn, now, EXPIRE_JOB, expires, {"trade": trade_id})
        conn.execute("UPDATE trades SET expiry_job = ? WHERE id = ?", (job, trade_id))
        return self._reload(conn, trade_id)

    async def open(
        self,
        guild_id: int,
        channel_id: int | None,
        proposer: int,
        partner: int,
        game: str,
        joined: tuple[datetime | None, datetime | None] = (None, None),
    ) -> Trade:
        """A trade window for both; `joined` is each one's join date in this server (None: unknown)."""
        now = self.clock.now()

        def unit(conn: Connection) -> Trade:
            trade = self._create(
                conn, now, "trade", (guild_id, channel_id), (proposer, partner), game, joined
            )
            theirs = self._other_language(conn, trade, partner)
            notice = changed_notice(
                trade, partner, proposer, self.cards, self.registry, other_language=theirs
            )
            self._tell(conn, now, trade, partner, notice)
            return trade

        return await self.db.write(unit)

    async def gift(
        self,
        guild_id: int,
        channel_id: int | None,
        giver: int,
        recipient: int,
        game: str,
        card: str | None,
        amount: int | None,
        joined: tuple[datetime | None, datetime | None] = (None, None),
        locale: str | None = None,
    ) -> Trade:
        """A gift waiting for its giver's confirmation, its copy locked meanwhile."""
        if card is None and not amount:
            raise BadInput("trades.error.gift_empty")
        now = self.clock.now()

        def unit(conn: Connection) -> Trade:
            trade = self._create(conn, now, "gift", (guild_id, channel_id), (giver, recipient), game, joined)
            if card is not None:
                self._add_card(conn, trade, giver, card, locale)
            if amount:
                self._set_amount(conn, trade, giver, amount, None)
            return self._reload(conn, trade.id)

        return await self.db.write(unit)

    # --- offers -----------------------------------------------------------------------------------------

    async def add_card(
        self, guild_id: int | None, trade_id: int, player: int, card: str, locale: str | None = None
    ) -> Trade:
        """Offer a copy, named by its number (`#12` or `12`) or by its card's name (the lowest-numbered
        free copy of that card then)."""
        return await self._change(
            guild_id, trade_id, player, lambda c, t: self._add_card(c, t, player, card, locale)
        )

    async def remove_card(self, guild_id: int | None, trade_id: int, player: int, copy_id: int) -> Trade:
        def change(conn: Connection, trade: Trade) -> None:
            if not any(i.card_id == copy_id for i in trade.offered_by(player)):
                raise BadInput("trades.error.not_offered", copy=copy_id)
            conn.execute("DELETE FROM trade_items WHERE trade_id = ? AND card_id = ?", (trade.id, copy_id))
            ledger.set_card_lock(conn, [copy_id], player, None)

        return await self._change(guild_id, trade_id, player, change)

    async def set_amount(
        self, guild_id: int | None, trade_id: int, player: int, amount: int, currency: str | None = None
    ) -> Trade:
        """Offer `amount` of the game's currency (0 withdraws it); the balance is checked again at the swap."""
        return await self._change(
            guild_id, trade_id, player, lambda c, t: self._set_amount(c, t, player, amount, currency)
        )

    def _add_card(self, conn: Connection, trade: Trade, player: int, card: str, locale: str | None) -> None:
        copy_id = self._copy_of(conn, trade, player, card, locale)
        row = conn.execute(
            "SELECT game, card_key, attrs, locked_by FROM cards WHERE id = ? AND owner_id = ?",
            (copy_id, player),
        ).fetchone()
        if row is None or row["game"] != trade.game:
            raise CardUnavailable("trades.error.card_not_yours", copy=copy_id)
        if row["locked_by"] is not None:
            raise CardUnavailable("trades.error.card_locked", copy=copy_id)
        self._check_room(trade, player)
        value = self._card_value(trade.game, str(row["card_key"]), str(row["attrs"]))
        ledger.set_card_lock(conn, [copy_id], player, trade.lock)
        conn.execute(
            "INSERT INTO trade_items (trade_id, giver_id, card_id, amount, value) VALUES (?, ?, ?, 1, ?)",
            (trade.id, player, copy_id, value),
        )

    def _copy_of(self, conn: Connection, trade: Trade, player: int, card: str, locale: str | None) -> int:
        text = card.strip().removeprefix("#").strip()
        if text.isdigit() and text.isascii() and len(text) < 19:
            return int(text)
        catalog = self.cards.catalog(trade.game)
        wanted = fold(card)
        keys = [
            c.id
            for c in (catalog.cards if catalog is not None else [])
            if wanted and wanted in (fold(c.name.get(locale)), fold(c.name.fr), fold(c.name.en), fold(c.id))
        ]
        if not keys:
            raise BadInput("trades.error.card_unknown", card=echo(card, 100))
        marks = ",".join("?" * len(keys))
        row = conn.execute(
            f"SELECT MIN(id) FROM cards WHERE owner_id = ? AND game = ? AND locked_by IS NULL AND card_key IN ({marks})",
            (player, trade.game, *keys),
        ).fetchone()
        if row is None or row[0] is None:
            raise CardUnavailable("trades.error.no_free_copy", card=echo(card, 100))
        return int(row[0])

    def _card_value(self, game: str, card_key: str, attrs: str) -> int:
        rules = tradable(self.registry.get(game)).trading
        if rules.card_value is None:
            return rules.flat_card_value
        return max(0, int(rules.card_value(self.cards.catalog(game), card_key, _attrs(attrs))))

    def _set_amount(
        self, conn: Connection, trade: Trade, player: int, amount: int, currency: str | None
    ) -> None:
        codes = [c.code for c in tradable(self.registry.get(trade.game)).currencies]
        code = currency or codes[0]
        if code not in codes:
            raise BadInput("trades.error.currency")
        if amount < 0:
            raise BadInput("trades.error.amount")
        conn.execute(
            "DELETE FROM trade_items WHERE trade_id = ? AND giver_id = ? AND currency = ?",
            (trade.id, player, code),
        )
        if amount == 0:
            return
        held = ledger.balance(conn, player, code)
        if held < amount:
            raise BadInput("trades.error.amount_over", amount=Number(amount), balance=Number(held))
        self._check_room(trade, player)
        conn.execute(
            "INSERT INTO trade_items (trade_id, giver_id, currency, amount, value) VALUES (?, ?, ?, ?, ?)",
            (trade.id, player, code, amount, amount),
        )

    @staticmethod
    def _check_room(trade: Trade, player: int) -> None:
        if len(trade.offered_by(player)) >= MAX_ITEMS:
            raise BadInput("trades.error.too_many_items", count=MAX_ITEMS)

    async def _change(self, guild_id: int | None, trade_id: int, player: int, change: _Change) -> Trade:
        """One change of `player`'s offer: applied, the version bumped (both confirmations void), and the
        other party sent the new window."""
        now = self.clock.now()

        def unit(conn: Connection) -> Trade:
            trade = self._open_trade(conn, trade_id, guild_id, player)
            if trade.kind != "trade":
                raise NotAllowed("trades.error.gift_fixed")
            change(conn, trade)
            cursor = conn.execute(
                "UPDATE trades SET version = version + 1, proposer_confirmed = NULL, partner_confirmed = NULL"
                " WHERE id = ? AND status = 'open' AND version = ?",
                (trade.id, trade.version),
            )
            if cursor.rowcount != 1:
                raise NotAllowed("trades.error.stale")
            after = self._reload(conn, trade.id)
            self._tell_changed(conn, now, after, player)
            return after

        return await self.db.write(unit)

    # --- confirming, cancelling, expiring ------------------------------------------------------------------

    async def confirm(
        self, guild_id: int | None, trade_id: int, player: int, version: int, key: str
    ) -> Trade:
        """Confirm the offers as of `version`; when both parties (a gift: its giver) confirmed the current
        version, everything moves in this unit. A repeated click (same `key`) on the trade as it stands
        answers like the first; the key includes the trade's current version, so the same window clicked
        again after a change is checked afresh (and refused as stale) instead of replayed."""
        now = self.clock.now()
        return await self.db.write(
            lambda conn: self._confirm_once(conn, now, guild_id, trade_id, player, version, key)
        )

    async def confirm_window(
        self, guild_id: int | None, trade_id: int, player: int, version: int, key: str
    ) -> MessageSpec:
        """`confirm`, answered with the window `player` then reads, drawn in the confirmation's unit: the
        button's reply costs no read of its own after the write."""
        now = self.clock.now()

        def unit(conn: Connection) -> MessageSpec:
            read: dict[int, str] = {}  # the languages the unit read: the DMs' and the window's, once
            trade = self._confirm_once(conn, now, guild_id, trade_id, player, version, key, read)
            return self._window(conn, trade, player, read)

        return await self.db.write(unit)

    def _confirm_once(
        self,
        conn: Connection,
        now: datetime,
        guild_id: int | None,
        trade_id: int,
        player: int,
        version: int,
        key: str,
        read: dict[int, str] | None = None,
    ) -> Trade:
        trade = load(conn, trade_id, guild_id, player)
        confirmed: list[Trade] = []

        def confirm_now() -> int:
            confirmed.append(self._confirm(conn, now, trade, player, version, read))
            return trade.id

        once(conn, f"trade:confirm:{key}:{trade.version}", now, confirm_now)
        # a repeated click answers with the trade as it stands
        return confirmed[0] if confirmed else load(conn, trade_id, guild_id, player)

    def _confirm(
        self, conn: Connection, now: datetime, trade: Trade, player: int, version: int, read: Languages
    ) -> Trade:
        """`trade`, read by `player` in this unit, confirmed as of `version`; returns it as the unit leaves
        it (each of its changes here is known, so it is not read again; `read`: the languages it read)."""
        if trade.status != "open":
            raise NotAllowed("trades.error.closed", trade=trade.id, status=status_text(trade))
        if trade.kind == "gift" and player != trade.proposer_id:
            raise NotAllowed("trades.error.gift_giver_only")
        if version != trade.version:
            raise NotAllowed("trades.error.stale")
        if not trade.items:
            raise BadInput("trades.error.empty")
        column = "proposer_confirmed" if player == trade.proposer_id else "partner_confirmed"
        conn.execute(f"UPDATE trades SET {column} = ? WHERE id = ?", (version, trade.id))
        if player == trade.proposer_id:
            trade = replace(trade, proposer_confirmed=version)
        else:
            trade = replace(trade, partner_confirmed=version)
        if trade.kind == "gift" or all(trade.has_confirmed(p) for p in (trade.proposer_id, trade.partner_id)):

            def swap() -> int:
                nonlocal trade
                trade = self._swap(conn, now, trade, player, read)
                return trade.id

            # its key is written by the unit that ends the trade: an open trade never finds it
            once(conn, f"trade:{trade.id}:swap", now, swap)
        else:
            self._tell_changed(conn, now, trade, player, read)
        return trade

    def _swap(self, conn: Connection, now: datetime, trade: Trade, by: int, read: Languages = None) -> Trade:
        self._check_cap(conn, now, trade)
        done = self._finish(conn, now, trade, "done", by)
        decks = trade_decks.repair(conn, trade, self.cards, self.registry)  # before the copies move
        why = ledger.Movement(trade.kind, ref=trade.lock)
        for item in trade.items:
            receiver = trade.other(item.giver_id)
            if item.card_id is not None:
                ledger.transfer_locked_card(conn, now, item.card_id, item.giver_id, receiver, trade.lock, why)
            else:
                currency = item.currency or ""
                ledger.debit(
                    conn, now, item.giver_id, self.registry.currency(currency) or currency, item.amount, why
                )
                ledger.credit(conn, now, receiver, currency, item.amount, why)
        parties = reading_languages(conn, (trade.proposer_id, trade.partner_id), self.default_locale, read)
        self._tell_end(conn, now, done, parties)
        for giver, notice in trade_decks.notices(trade, decks, self.cards, parties):
            self._tell(conn, now, trade, giver, notice)
        return done

    def _check_cap(self, conn: Connection, now: datetime, trade: Trade) -> None:
        cap = tradable(self.registry.get(trade.game)).trading.daily_cap
        since = to_db(now - CAP_WINDOW)
        for player in (trade.proposer_id, trade.partner_id):
            given, received = moved_since(conn, player, trade.game, since)
            gives, gets = trade.value_given(player), trade.value_given(trade.other(player))
            if given + gives > cap or received + gets > cap:
                raise NotAllowed(
                    "trades.error.cap",
                    name=f"<@{player}>",
                    cap=Number(cap),
                    used=Number(max(given, received)),
                )

    async def cancel(self, guild_id: int | None, trade_id: int, player: int) -> Trade:
        """Either party ends an open trade (a gift: its giver); its copies are free again."""
        now = self.clock.now()

        def unit(conn: Connection) -> Trade:
            trade = self._open_trade(conn, trade_id, guild_id, player)
            if trade.kind == "gift" and player != trade.proposer_id:
                raise NotAllowed("trades.error.gift_giver_only")
            ended = self._finish(conn, now, trade, "cancelled", player)
            self._tell_end(conn, now, ended)
            return ended

        return await self.db.write(unit)

    def _expire(self, conn: Connection, job: Job, now: datetime) -> None:
        """The job's unit: an open trade ends 'expired' once; one already ended is left as it is."""
        trade = load_trusted(conn, int(job.payload["trade"]))
        if trade is None or trade.status != "open":
            return
        self._tell_end(conn, now, self._finish(conn, now, trade, "expired", None))

    def end_for_erasure(self, conn: Connection, now: datetime, player: int) -> list[int]:
        """Inside the erasure's unit, before any id changes: every open trade and gift of `player` ends
        'cancelled' for that reason, its copies free and its confirmations void; returns their ids, for
        `tell_erased` once the erasure has made the player anonymous."""
        ended = open_of(conn, player)
        for trade in ended:
            self._finish(conn, now, trade, "cancelled", None, ERASED)
        return [trade.id for trade in ended]

    def tell_erased(self, conn: Connection, now: datetime, trade_ids: list[int]) -> None:
        """The other party of each trade `end_for_erasure` cancelled hears why, with the window (which now
        names an anonymous player); a gift's recipient never knew of it, and hears nothing."""
        for trade_id in trade_ids:
            trade = self._reload(conn, trade_id)
            for party in (trade.proposer_id, trade.partner_id):
                if not is_erased(party) and not trade.hidden_from(party):
                    theirs = self._other_language(conn, trade, party)
                    self._tell(
                        conn, now, trade, party, ended_notice(trade, party, self.cards, self.registry, theirs)
                    )

    def _finish(
        self,
        conn: Connection,
        now: datetime,
        trade: Trade,
        status: TradeStatus,
        by: int | None,
        reason: str | None = None,
    ) -> Trade:
        """End the open `trade` as read in this unit (a guarded update: a trade changed or ended meanwhile
        is stale); returns it as ended, as a read would now find it."""
        ended_at = to_db(now)
        cursor = conn.execute(
            "UPDATE trades SET status = ?, ended_at = ?, ended_by = ?, end_reason = ?"
            " WHERE id = ? AND status = 'open' AND version = ?",
            (status, ended_at, by, reason, trade.id, trade.version),
        )
        if cursor.rowcount != 1:
            raise NotAllowed("trades.error.stale")
        if status != "done":
            ledger.release_lock(conn, lock_name(trade.id))
        if trade.expiry_job is not None:
            cancel(conn, trade.expiry_job)
        return replace(trade, status=status, ended_at=from_db(ended_at), ended_by=by, end_reason=reason)

    # --- reading ------------------------------------------------------------------------------------------

    async def show(self, guild_id: int | None, trade_id: int, player: int, *, admin: bool = False) -> Trade:
        return await self.db.read(lambda conn: load(conn, trade_id, guild_id, player, admin=admin))

    async def history(
        self, guild_id: int, player: int, *, of: int | None = None, admin: bool = False
    ) -> MessageSpec:
        """A player's own trades in this server; a server admin may read anyone's, or the whole server's."""
        if of is not None and of != player and not admin:
            raise NotAllowed("trades.error.history_admin")
        whose = player if of is None and not admin else of
        title = (
            Text("trades.log.title_server")
            if whose is None
            else Text("trades.log.title", {"name": mention(whose)})
        )
        found = await self.db.read(lambda conn: of_player(conn, guild_id, whose, HISTORY_LIMIT))
        return log(found, self.cards, self.registry, title)

    async def window(self, trade: Trade, viewer: int) -> MessageSpec:
        """The window `viewer` reads, with the warnings about their own decks while the trade is open."""

        return await self.db.read(lambda conn: self._window(conn, trade, viewer))

    def _window(self, conn: Connection, trade: Trade, viewer: int, read: Languages = None) -> MessageSpec:
        theirs = self._other_language(conn, trade, viewer, read)
        notes = trade_decks.warnings(conn, trade, viewer, self.cards, self.registry, theirs)
        return window(trade, viewer, self.cards, self.registry, notes, theirs)

    # --- helpers --------------------------------------------------------------------------------------------

    @staticmethod
    def _reload(conn: Connection, trade_id: int) -> Trade:
        trade = load_trusted(conn, trade_id)
        if trade is None:
            raise RuntimeError(f"trade {trade_id} vanished inside its unit")
        return trade

    @staticmethod
    def _open_trade(conn: Connection, trade_id: int, guild_id: int | None, player: int) -> Trade:
        trade = load(conn, trade_id, guild_id, player)
        if trade.status != "open":
            raise NotAllowed("trades.error.closed", trade=trade_id, status=status_text(trade))
        return trade

    def _other_language(
        self, conn: Connection, trade: Trade, viewer: int, read: Languages = None
    ) -> str | None:
        """The language of the party `viewer` trades with, whose card names stand beside theirs; none for
        a party who erased their data (the window names nobody then), nor for an admin reading the trade
        (they trade with nobody)."""
        other = trade.other(viewer)
        if viewer not in (trade.proposer_id, trade.partner_id) or is_erased(other):
            return None
        return reading_languages(conn, (other,), self.default_locale, read)[other]

    def _tell_changed(
        self, conn: Connection, now: datetime, trade: Trade, actor: int, read: Languages = None
    ) -> None:
        """The other party's DM after `actor` changed an offer or confirmed: the window again."""
        other = trade.other(actor)
        theirs = self._other_language(conn, trade, other, read)
        notes = trade_decks.warnings(conn, trade, other, self.cards, self.registry, theirs)
        self._tell(
            conn,
            now,
            trade,
            other,
            changed_notice(trade, other, actor, self.cards, self.registry, notes, theirs),
        )

    @staticmethod
    def _tell(conn: Connection, now: datetime, trade: Trade, player: int, spec: MessageSpec) -> None:
        enqueue(conn, now, Target("dm", player, trade.channel_id, guild_id=trade.guild_id), spec)

    def _tell_end(self, conn: Connection, now: datetime, trade: Trade, read: Languages = None) -> None:
        # a gift's recipient hears of it only when it arrives
        told = (
            (trade.proposer_id,)
            if trade.kind == "gift" and trade.status != "done"
            else (trade.proposer_id, trade.partner_id)
        )
        for player in told:
            theirs = self._other_language(conn, trade, player, read)
            self._tell(
                conn, now, trade, player, ended_notice(trade, player, self.cards, self.registry, theirs)
            )


def _attrs(raw: str) -> dict[str, Any]:
    data = json.loads(raw or "{}")
    return data if isinstance(data, dict) else {}
