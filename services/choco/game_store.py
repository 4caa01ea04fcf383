"""Chocobataille games in the database: one row per game, its log, its pending jobs and its panel drafts.

Every change of a game is a conditional UPDATE on `version` (the version the caller loaded), so two clicks,
a click and a deadline, or two deadlines can never both apply to the same state: the second finds a newer
version and changes nothing (`StaleGame`). Callers run these functions inside one write unit.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from core.clock import from_db, to_db
from core.errors import NotAllowed, NotFound
from engine.choco import ENGINE as CHOCO_ENGINE
from engine.choco import ChocoState
from engine.errors import DomainError

ENGINE = CHOCO_ENGINE
LEAGUES = ("bronze", "argent", "or")


class StaleGame(DomainError):
    """The game changed since it was read (a double click, or a deadline that fired meanwhile)."""

    key = "choco.error.stale"


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    league: str
    seats: tuple[int, int]
    seed: int
    state: ChocoState
    status: str
    version: int
    turn_started_at: datetime | None
    deadline_at: datetime | None
    pass_at: datetime | None
    stage: int
    faulted_turn: int | None
    result: str | None
    winner_seat: int | None

    @property
    def where(self) -> int:
        """Where the game's posts go: its thread, or the channel until the thread exists."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, player_id: int) -> int:
        if player_id not in self.seats:
            raise NotAllowed("choco.error.not_player")
        return self.seats.index(player_id)

    def to_act(self) -> list[int]:
        """The seats the game waits for (both in the preparatory turn)."""
        return [] if self.status != "live" else ENGINE.current_players(self.state)


def _when(value: str | None) -> datetime | None:
    return None if value is None else from_db(value)


def _row(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=None if row["thread_id"] is None else int(row["thread_id"]),
        league=str(row["league"]),
        seats=(int(row["seat0_id"]), int(row["seat1_id"])),
        seed=int(row["seed"]),
        state=ENGINE.from_json(row["state"]),
        status=str(row["status"]),
        version=int(row["version"]),
        turn_started_at=_when(row["turn_started_at"]),
        deadline_at=_when(row["deadline_at"]),
        pass_at=_when(row["pass_at"]),
        stage=int(row["stage"]),
        faulted_turn=None if row["faulted_turn"] is None else int(row["faulted_turn"]),
        result=row["result"],
        winner_seat=None if row["winner_seat"] is None else int(row["winner_seat"]),
    )


def load(conn: sqlite3.Connection, game_id: int) -> GameRow:
    row = conn.execute("SELECT * FROM choco_games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("choco.error.no_game", id=game_id)
    return _row(row)


def load_here(conn: sqlite3.Connection, game_id: int, guild_id: int | None, player: int | None) -> GameRow:
    """A game a user names (an option, a button's custom_id, the thread), seen from where they act: in a
    server, only that server's games; in DMs (`guild_id` None), only the games `player` plays. Any other
    game is answered exactly like one that does not exist, so that another server learns nothing of it."""
    game = load(conn, game_id)
    own = guild_id is None and player is not None and player in game.seats
    if game.guild_id != guild_id and not own:
        raise NotFound("choco.error.no_game", id=game_id)
    return game


def live(game: GameRow) -> GameRow:
    if game.status != "live":
        raise NotAllowed("choco.error.game_over", id=game.id)
    return game


def load_live(conn: sqlite3.Connection, game_id: int) -> GameRow:
    return live(load(conn, game_id))


def live_here(conn: sqlite3.Connection, game_id: int, guild_id: int | None, player: int | None) -> GameRow:
    return live(load_here(conn, game_id, guild_id, player))


def by_thread(conn: sqlite3.Connection, thread_id: int) -> int | None:
    row = conn.execute("SELECT id FROM choco_games WHERE thread_id = ?", (thread_id,)).fetchone()
    return None if row is None else int(row[0])


def live_games_of(conn: sqlite3.Connection, player_id: int, guild_id: int | None = None) -> list[GameRow]:
    """The player's live games: those of one server, or all of them (`guild_id` None: in DMs)."""
    rows = conn.execute(
        "SELECT * FROM choco_games WHERE status = 'live' AND (seat0_id = ? OR seat1_id = ?)"
        " AND (? IS NULL OR guild_id = ?) ORDER BY id",
        (player_id, player_id, guild_id, guild_id),
    )
    return [_row(r) for r in rows]


def insert(
    conn: sqlite3.Connection,
    now: datetime,
    *,
    guild_id: int,
    channel_id: int,
    league: str,
    seats: tuple[int, int],
    seed: int,
    decks: tuple[list[str], list[str]],
    state: ChocoState,
) -> int:
    cursor = conn.execute(
        "INSERT INTO choco_games (guild_id, channel_id, league, seat0_id, seat1_id, seed, decks, state,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            league,
            seats[0],
            seats[1],
            seed,
            json.dumps(list(decks)),
            ENGINE.to_json(state),
            to_db(now),
            to_db(now),
        ),
    )
    return int(cursor.lastrowid or 0)


def save(conn: sqlite3.Connection, game: GameRow, now: datetime, **changes: Any) -> GameRow:
    """Write `changes` (GameRow fields) if the row is still at `game.version`; the new row is returned."""
    updated = replace(game, **changes, version=game.version + 1)
    values = {
        "thread_id": updated.thread_id,
        "state": ENGINE.to_json(updated.state),
        "status": updated.status,
        "turn_started_at": None if updated.turn_started_at is None else to_db(updated.turn_started_at),
        "deadline_at": None if updated.deadline_at is None else to_db(updated.deadline_at),
        "pass_at": None if updated.pass_at is None else to_db(updated.pass_at),
        "stage": updated.stage,
        "faulted_turn": updated.faulted_turn,
        "result": updated.result,
        "winner_seat": updated.winner_seat,
    }
    columns = ", ".join(f"{name} = ?" for name in values)
    ended = to_db(now) if updated.status != "live" and game.status == "live" else None
    cursor = conn.execute(
        f"UPDATE choco_games SET {columns}, version = version + 1, updated_at = ?,"
        " ended_at = COALESCE(?, ended_at) WHERE id = ? AND version = ?",
        (*values.values(), to_db(now), ended, game.id, game.version),
    )
    if cursor.rowcount != 1:
        raise StaleGame()
    return updated


def log(
    conn: sqlite3.Connection,
    game_id: int,
    now: datetime,
    actor_id: int | None,
    kind: str,
    data: dict[str, Any] | None = None,
) -> int:
    """Append to the game's log (actions, penalties, absences, referee acts): its history, in order."""
    row = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM choco_game_log WHERE game_id = ?", (game_id,))
    seq = int(row.fetchone()[0])
    conn.execute(
        "INSERT INTO choco_game_log (game_id, seq, at, actor_id, kind, data) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, seq, to_db(now), actor_id, kind, json.dumps(data or {}, sort_keys=True)),
    )
    return seq


@dataclass(frozen=True)
class LogEntry:
    seq: int
    at: datetime
    actor_id: int | None
    kind: str
    data: dict[str, Any]


def read_log(conn: sqlite3.Connection, game_id: int) -> list[LogEntry]:
    rows = conn.execute(
        "SELECT seq, at, actor_id, kind, data FROM choco_game_log WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    return [
        LogEntry(int(r[0]), from_db(r[1]), None if r[2] is None else int(r[2]), str(r[3]), json.loads(r[4]))
        for r in rows
    ]


# --- panel drafts --------------------------------------------------------------------------------------


def draft(conn: sqlite3.Connection, game: GameRow, seat: int) -> list[Any]:
    """The steps a player has put in the guided panel, as engine actions; empty if built on another version."""
    row = conn.execute(
        "SELECT version, steps FROM choco_drafts WHERE game_id = ? AND seat = ?", (game.id, seat)
    ).fetchone()
    if row is None or int(row[0]) != game.version:
        return []
    return [ENGINE.action_from_json(step) for step in json.loads(row[1])]


def save_draft(conn: sqlite3.Connection, game: GameRow, seat: int, steps: list[Any], now: datetime) -> None:
    conn.execute(
        "INSERT INTO choco_drafts (game_id, seat, version, steps, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET version = excluded.version, steps = excluded.steps,"
        " updated_at = excluded.updated_at",
        (
            game.id,
            seat,
            game.version,
            json.dumps([ENGINE.action_to_json(s) for s in steps]),
            to_db(now),
        ),
    )
