"""Admin tools: the owners' corrections of a player's wallets, copies and progress, the server managers'
bans and paused games, and the audit log every one of them writes (docs/admin.md).

Each tool is one write unit that makes its change and its audit row together, so the log cannot miss
an action that happened nor show one that rolled back. Coins and copies move only through
`services.infra.ledger`, the admin's reason in the movement's `ref`. A tool answering a slash command
is keyed by the interaction (`store.idempotency.once`), so a command Discord delivers twice acts once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from core.clock import Clock, from_db, to_db
from core.errors import BadInput, NotAllowed, NotFound
from core.message_guard import echo
from services.infra import games, ledger
from services.infra.access import ACCESS_TOPIC, AccessCache, read_access
from services.infra.catalogs import CardIndex
from services.infra.games import GameRegistry
from services.infra.messages import Text
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database, announce
from store.idempotency import once

PAGE_SIZE = 10
REASON_MAX = 200
AMOUNT_MAX = 1_000_000


@dataclass(frozen=True)
class Actor:
    """Who runs a tool, where, and the interaction that asked (the idempotency key)."""

    user_id: int
    guild_id: int | None
    request: int


@dataclass(frozen=True)
class LedgerLine:
    id: int
    at: datetime
    currency: str | None
    card: str | None  # "game:card_key" of the copy
    delta: int
    balance_after: int | None
    reason: str
    ref: str | None


@dataclass(frozen=True)
class AuditLine:
    id: int
    at: datetime
    actor_id: int
    action: str
    target_id: int | None
    game: str | None
    details: dict[str, Any]


T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    lines: list[T]
    page: int  # 1-based, clamped to the last page
    pages: int


def write_audit(
    conn: Connection,
    now: datetime,
    actor: Actor,
    action: str,
    *,
    target: int | None = None,
    game: str | None = None,
    **details: Any,
) -> int:
    row = conn.execute(
        "INSERT INTO admin_audit (at, guild_id, actor_id, action, target_id, game, details)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            to_db(now),
            actor.guild_id,
            actor.user_id,
            action,
            target,
            game,
            json.dumps(details, sort_keys=True),
        ),
    ).fetchone()
    return int(row[0])


def _reason(text: str) -> str:
    cleaned = " ".join(text.split())[:REASON_MAX]
    if not cleaned:
        raise BadInput("admin.error.reason")
    return cleaned


def _amount(amount: int) -> int:
    if not 1 <= amount <= AMOUNT_MAX:
        raise BadInput("admin.error.amount", max=AMOUNT_MAX)
    return amount


def _currency(registry: GameRegistry, code: str) -> str:
    if code not in {c.code for c in registry.currencies()}:
        raise BadInput("admin.error.currency", currency=echo(code))
    return code


def _game(registry: GameRegistry, key: str) -> games.GameSpec:
    spec = registry.get(key)
    if spec is None:
        raise BadInput("admin.error.game", game=echo(key))
    return spec


def _pages(total: int, page: int) -> tuple[int, int]:
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 1), pages)
    return page, pages


class AdminService:
    def __init__(self, db: Database, clock: Clock, registry: GameRegistry, cards: CardIndex) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.cards = cards
        self.access = AccessCache()
        db.subscribe_keys(ACCESS_TOPIC, self.access.changed)

    async def _once(self, actor: Actor, tool: str, work: Any) -> Any:
        now = self.clock.now()

        def unit(conn: Connection) -> Any:
            return once(conn, f"admin:{tool}:{actor.request}", now, lambda: work(conn, now))[0]

        return await self.db.write(unit)

    # --- owners: a player's wallets, copies and progress ---------------------------------------------

    async def grant(self, actor: Actor, player: int, currency: str, amount: int, reason: str) -> int:
        """The new balance."""
        code, amount, why = _currency(self.registry, currency), _amount(amount), _reason(reason)

        def work(conn: Connection, now: datetime) -> int:
            ensure_player(conn, player, now, self.registry)
            after = ledger.credit(conn, now, player, code, amount, ledger.Movement("admin_grant", why))
            write_audit(conn, now, actor, "grant", target=player, currency=code, amount=amount, reason=why)
            return after

        return int(await self._once(actor, "grant", work))

    async def take(self, actor: Actor, player: int, currency: str, amount: int, reason: str) -> int:
        """The new balance; refused (InsufficientFunds) when the player holds less."""
        code, amount, why = _currency(self.registry, currency), _amount(amount), _reason(reason)

        def work(conn: Connection, now: datetime) -> int:
            ensure_player(conn, player, now, self.registry)
            after = ledger.debit(
                conn,
                now,
                player,
                self.registry.currency(code) or code,
                amount,
                ledger.Movement("admin_take", why),
            )
            write_audit(conn, now, actor, "take", target=player, currency=code, amount=amount, reason=why)
            return after

        return int(await self._once(actor, "take", work))

    async def give_card(self, actor: Actor, player: int, game: str, card_key: str, reason: str) -> int:
        """The new copy's id; a copy without attributes, like the games' own basic copies."""
        why = _reason(reason)
        _game(self.registry, game)
        if self.cards.get(game, card_key) is None:
            raise NotFound("error.card_not_found", name=echo(f"{game}:{card_key}"))

        def work(conn: Connection, now: datetime) -> int:
            ensure_player(conn, player, now, self.registry)
            copy = ledger.mint_card(
                conn, now, player, game, card_key, ledger.Movement("admin_give_card", why)
            )
            write_audit(
                conn, now, actor, "give_card", target=player, game=game, card=card_key, copy=copy, reason=why
            )
            return copy

        return int(await self._once(actor, "give_card", work))

    async def remove_card(self, actor: Actor, player: int, copy: int, reason: str) -> str:
        """The removed copy's "game:card_key"; refused (CardUnavailable) unless the player owns it unlocked."""
        why = _reason(reason)

        def work(conn: Connection, now: datetime) -> str:
            row = conn.execute(
                "SELECT game, card_key FROM cards WHERE id = ? AND owner_id = ?", (copy, player)
            )
            found = row.fetchone()
            ledger.destroy_card(conn, now, copy, player, ledger.Movement("admin_remove_card", why))
            write_audit(conn, now, actor, "remove_card", target=player, game=found[0], copy=copy, reason=why)
            return f"{found[0]}:{found[1]}"

        return str(await self._once(actor, "remove_card", work))

    async def reset(self, actor: Actor, player: int, game: str, reason: str) -> games.ResetReport:
        """The player's progress in one game back to a new player's, through the game's own hook."""
        spec, why = _game(self.registry, game), _reason(reason)
        hook = spec.reset
        if hook is None:
            raise BadInput("admin.error.no_reset", game=echo(game))

        def work(conn: Connection, now: datetime) -> dict[str, Any]:
            ensure_player(conn, player, now, self.registry)
            report = hook(conn, now, player)
            taken = dict(report.currencies)
            write_audit(
                conn,
                now,
                actor,
                "reset",
                target=player,
                game=game,
                cards=report.cards,
                coins=taken,
                reason=why,
            )
            return {"cards": report.cards, "currencies": [list(c) for c in report.currencies]}

        done = await self._once(actor, "reset", work)
        return games.ResetReport(int(done["cards"]), tuple((str(c), int(n)) for c, n in done["currencies"]))

    async def ledger_page(self, actor: Actor, player: int, page: int) -> Page[LedgerLine]:
        """Newest first. Reading someone's ledger is an action too: it is logged."""
        now = self.clock.now()

        def unit(conn: Connection) -> Page[LedgerLine]:
            total = int(
                conn.execute("SELECT COUNT(*) FROM ledger WHERE player_id = ?", (player,)).fetchone()[0]
            )
            shown, pages = _pages(total, page)
            rows = conn.execute(
                "SELECT ledger.id, at, currency, cards.game, cards.card_key, delta, balance_after, reason, ref"
                " FROM ledger LEFT JOIN cards ON cards.id = ledger.card_id WHERE player_id = ?"
                " ORDER BY ledger.id DESC LIMIT ? OFFSET ?",
                (player, PAGE_SIZE, (shown - 1) * PAGE_SIZE),
            ).fetchall()
            write_audit(conn, now, actor, "ledger_view", target=player, page=shown)
            lines = [
                LedgerLine(
                    r[0], from_db(r[1]), r[2], f"{r[3]}:{r[4]}" if r[3] else None, r[5], r[6], r[7], r[8]
                )
                for r in rows
            ]
            return Page(lines, shown, pages)

        return await self.db.write(unit)

    # --- server managers: bans, pauses and the audit log of their server -----------------------------

    async def ban(self, actor: Actor, player: int, reason: str) -> None:
        guild, why = self._guild(actor), _reason(reason)
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            added = conn.execute(
                "INSERT INTO guild_bans (guild_id, player_id, banned_by, reason, banned_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, player_id) DO NOTHING",
                (guild, player, actor.user_id, why, to_db(now)),
            )
            if added.rowcount != 1:
                raise BadInput("admin.error.already_banned")
            write_audit(conn, now, actor, "ban", target=player, reason=why)
            self._forget_access(conn, guild)

        await self.db.write(unit)

    async def unban(self, actor: Actor, player: int) -> None:
        guild = self._guild(actor)
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            gone = conn.execute(
                "DELETE FROM guild_bans WHERE guild_id = ? AND player_id = ?", (guild, player)
            )
            if gone.rowcount != 1:
                raise BadInput("admin.error.not_banned")
            write_audit(conn, now, actor, "unban", target=player)
            self._forget_access(conn, guild)

        await self.db.write(unit)

    async def pause(self, actor: Actor, game: str, *, paused: bool) -> None:
        guild, key = self._guild(actor), _game(self.registry, game).key
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            if paused:
                changed = conn.execute(
                    "INSERT INTO game_pauses (guild_id, game, paused_by, paused_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, game) DO NOTHING",
                    (guild, key, actor.user_id, to_db(now)),
                )
            else:
                changed = conn.execute(
                    "DELETE FROM game_pauses WHERE guild_id = ? AND game = ?", (guild, key)
                )
            if changed.rowcount != 1:
                raise BadInput("admin.error.already_paused" if paused else "admin.error.not_paused")
            write_audit(conn, now, actor, "pause" if paused else "resume", game=key)
            self._forget_access(conn, guild)

        await self.db.write(unit)

    async def audit_page(self, guild_id: int, page: int) -> Page[AuditLine]:
        """The server's log, newest first."""

        def unit(conn: Connection) -> Page[AuditLine]:
            sql = "SELECT COUNT(*) FROM admin_audit WHERE guild_id = ?"
            shown, pages = _pages(int(conn.execute(sql, (guild_id,)).fetchone()[0]), page)
            rows = conn.execute(
                "SELECT id, at, actor_id, action, target_id, game, details FROM admin_audit WHERE guild_id = ?"
                " ORDER BY id DESC LIMIT ? OFFSET ?",
                (guild_id, PAGE_SIZE, (shown - 1) * PAGE_SIZE),
            ).fetchall()
            lines = [AuditLine(r[0], from_db(r[1]), r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]
            return Page(lines, shown, pages)

        return await self.db.read(unit)

    async def check_access(self, guild_id: int, game: str, player_id: int) -> None:
        """Before any command or button of a game in a server: refused when the game is paused there or
        the player is banned there."""

        access = await self.access.get_or_read(
            guild_id, lambda: self.db.read(lambda conn: read_access(conn, guild_id))
        )
        refusal = access.refusal(game, player_id)
        if refusal is not None:
            spec = self.registry.get(game)
            raise NotAllowed(refusal, game=Text(spec.name_key) if spec is not None else Text.raw(game))

    def _forget_access(self, conn: Connection, guild_id: int) -> None:
        """In the unit that changes the server's pauses or bans: forgotten here at once, and in every
        process once the commit is known (services/infra/access.py)."""
        self.access.forget(guild_id)
        announce(conn, ACCESS_TOPIC, str(guild_id))

    @staticmethod
    def _guild(actor: Actor) -> int:
        if actor.guild_id is None:
            raise NotAllowed("error.guild_only")
        return actor.guild_id
