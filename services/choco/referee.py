"""The human referee's overrides: extend a deadline, cancel a penalty, end or cancel a game.

Who may: members holding the server's referee role (set with /setup referee-role), or with Manage Server,
in the server of the game (a game of another server does not exist for them); never a player of the game
itself. Every act is written in the game's log with who did it, and announced in the game's thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from core.clock import Clock, to_db
from core.errors import BadInput, NotAllowed
from engine.choco import ChocoCatalog, forgive_pass, restore_destroyed
from engine.errors import IllegalAction
from services.choco import posts
from services.choco.deadlines import disarm, shift
from services.choco.flow import Flow
from services.choco.game_store import GameRow, LogEntry, live, load_here, log, read_log, save
from services.choco.leagues import guild_choco_settings
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database

MAX_EXTENSION_HOURS = 24 * 14
PENALTY_KINDS = ("penalty_24h", "penalty_72h")


# What the log may show of a live game: the seed, the decks and the declared steps (which name hand cards
# by instance) rebuild the hands and the draw order, so they wait for the end of the game.
PUBLIC_DATA = frozenset(
    {"challenge", "thread", "hours", "reason", "until", "seat", "seconds", "result", "winner", "reward"}
    | {"penalty", "events"}
)


@dataclass(frozen=True)
class Referee:
    """Who acts, where, as Discord says it at the time of the click (roles are re-read on every command):
    the roles and Manage Server are those of `guild_id`, the server where the command runs."""

    user_id: int
    guild_id: int
    role_ids: tuple[int, ...]
    manage_guild: bool


def authorize(conn: Connection, game_id: int, referee: Referee) -> GameRow:
    """The game, if the referee may act on it. A game of another server is answered like a game that does
    not exist: the rights a member holds in one server give nothing in another."""
    game = load_here(conn, game_id, referee.guild_id, None)
    if referee.user_id in game.seats:
        raise NotAllowed("choco.error.referee_is_player")
    role = guild_choco_settings(conn, game.guild_id).referee_role_id
    if not referee.manage_guild and (role is None or role not in referee.role_ids):
        raise NotAllowed("choco.error.not_referee")
    return game


def public_event(event: dict[str, Any]) -> dict[str, Any] | None:
    """An event as the table saw it: none if private (a draw); a pioche card a deck attack wounded
    without destroying it stays unnamed, as in the thread."""
    if event.get("visible_to") is not None:
        return None
    if event.get("kind") == "deck_attacked" and not event["data"].get("killed"):
        return {**event, "data": {k: v for k, v in event["data"].items() if k != "card_id"}}
    return event


def log_entry(entry: LogEntry, full: bool) -> dict[str, object]:
    """One log entry for a referee: the full record once the game is over, else its public part."""
    data = dict(entry.data)
    if not full:
        data = {k: v for k, v in data.items() if k in PUBLIC_DATA}
        if "events" in data:
            data["events"] = [e for e in map(public_event, data["events"]) if e is not None]
    return {
        "seq": entry.seq,
        "at": to_db(entry.at),
        "actor": entry.actor_id,
        "kind": entry.kind,
        "data": data,
    }


def open_penalties(conn: Connection, game: GameRow) -> list[tuple[int, str, int]]:
    """(log seq, kind, seat) of the penalties no referee has cancelled yet, oldest first."""
    entries = read_log(conn, game)
    cancelled = {int(e.data.get("penalty", 0)) for e in entries if e.kind == "referee_cancel_penalty"}
    return [
        (e.seq, e.kind, int(e.data["seat"]))
        for e in entries
        if e.kind in PENALTY_KINDS and e.seq not in cancelled
    ]


class ChocoReferee:
    def __init__(self, db: Database, clock: Clock, catalog: ChocoCatalog, rng: random.Random) -> None:
        self.db = db
        self.clock = clock
        self.flow = Flow(catalog, rng)

    async def may_referee(self, referee: Referee) -> bool:
        """Whether this member may referee this server's games (/help shows them the referee commands)."""

        def unit(conn: Connection) -> bool:
            role = guild_choco_settings(conn, referee.guild_id).referee_role_id
            return referee.manage_guild or (role is not None and role in referee.role_ids)

        return await self.db.read(unit)

    async def read_log(self, game_id: int, referee: Referee) -> list[dict[str, object]]:
        """The game's log for a referee: while the game is live, only what the table saw (no seed, no
        deck, no declared step, no drawn card); once it is over or cancelled, the full record."""

        def unit(conn: Connection) -> list[dict[str, object]]:
            game = authorize(conn, game_id, referee)
            full = game.status != "live"
            return [log_entry(e, full) for e in read_log(conn, game)]

        return await self.db.read(unit)

    async def extend(self, game_id: int, referee: Referee, hours: int) -> GameRow:
        if not 1 <= hours <= MAX_EXTENSION_HOURS:
            raise BadInput("choco.error.extension_hours", maximum=MAX_EXTENSION_HOURS)
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            game = live(authorize(conn, game_id, referee))
            game = shift(conn, now, game, timedelta(hours=hours))
            log(conn, game, now, referee.user_id, "referee_extend", {"hours": hours})
            text = Text(
                "choco.referee.extended",
                {"referee": f"<@{referee.user_id}>", "hours": hours, "deadline": posts.deadline_text(game)},
            )
            posts.notice(conn, now, game, text)
            return game

        return await self.db.write(unit)

    async def cancel_penalty(self, game_id: int, referee: Referee) -> str:
        """Cancel the latest penalty not yet cancelled: a card destroyed at 24 h comes back to the pile it
        left (if still in the graveyard); a turn passed at 72 h stays passed but no longer counts towards
        the disqualification. Returns the kind cancelled."""
        now = self.clock.now()

        def unit(conn: Connection) -> str:
            game = live(authorize(conn, game_id, referee))
            pending = open_penalties(conn, game)
            if not pending:
                raise NotAllowed("choco.error.no_penalty")
            seq, kind, seat = pending[-1]
            try:
                if kind == "penalty_24h":
                    event = _destroyed(conn, game, seq)
                    state, events = restore_destroyed(
                        game.state, seat, str(event["card"]), str(event["from"])
                    )
                else:
                    state, events = forgive_pass(game.state, seat)
            except IllegalAction as error:
                raise NotAllowed("choco.error.penalty_gone") from error
            note = Text("choco.referee.penalty_cancelled", {"referee": f"<@{referee.user_id}>"})
            self.flow.advance(
                conn,
                now,
                game,
                state,
                events,
                actor=referee.user_id,
                kind="referee_cancel_penalty",
                data={"penalty": seq},
                notes=[note],
            )
            return kind

        return await self.db.write(unit)

    async def end_game(self, game_id: int, referee: Referee, winner_id: int | None) -> GameRow:
        """End the game with the referee's verdict (a winner, one of the players, or a draw): results and
        reward as usual."""
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            game = live(authorize(conn, game_id, referee))
            if winner_id is not None and winner_id not in game.seats:
                raise NotAllowed("choco.error.winner_not_player")
            winner = None if winner_id is None else game.seats.index(winner_id)
            log(conn, game, now, referee.user_id, "referee_end", {"winner": winner})
            who = f"<@{referee.user_id}>"
            if winner is None:
                note = Text("choco.referee.ended_draw", {"referee": who})
            else:
                note = Text("choco.referee.ended_win", {"referee": who, "player": posts.names(game)[winner]})
            return self.flow.finish(
                conn,
                now,
                game,
                before=game.state,
                events=[],
                notes=[note],
                referee_winner=winner,
                by_referee=True,
            )

        return await self.db.write(unit)

    async def cancel_game(self, game_id: int, referee: Referee) -> GameRow:
        """Cancel the game: no result, no reward, as if it had not been played."""
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            game = live(authorize(conn, game_id, referee))
            disarm(conn, game)
            game = save(
                conn, game, now, status="cancelled", result="cancelled", deadline_at=None, pass_at=None
            )
            log(conn, game, now, referee.user_id, "referee_cancel", {})
            text = Text("choco.referee.cancelled", {"referee": f"<@{referee.user_id}>"})
            posts.notice(conn, now, game, text, archive=True)
            return game

        return await self.db.write(unit)


def _destroyed(conn: Connection, game: GameRow, seq: int) -> dict[str, object]:
    """The card a 24 h penalty destroyed, from the log (a penalty on empty piles destroyed nothing)."""
    entry = next(e for e in read_log(conn, game) if e.seq == seq)
    event = next((e for e in entry.data.get("events", []) if e["kind"] == "penalty_destroyed"), None)
    if event is None:
        raise NotAllowed("choco.error.penalty_gone")
    return dict(event["data"])
