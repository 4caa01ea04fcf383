"""Two-seat games in progress, for every game: one table, one set of write-unit steps (docs/matches.md).

A game keeps no store of its own for a match: it describes itself once (`MatchRules`: its key, its
engine, the messages of its refusals) and composes these steps inside its own write units. Each step
works on the caller's connection, so the move, the save, the outbox items and the deadline job of one
use case commit together or not at all.

Every save is guarded by the version the caller read (`UPDATE ... WHERE id = ? AND version = ?`, row
count checked): two clicks, or a click and a timeout, can never both apply to the same state; the later
one raises `StaleMatch` and changes nothing. A match is reached by id only from the server it belongs
to (or from DMs, for a match played there): buttons carry bare ids, so another server's id reads exactly
like an unknown one. Saves count: a game may derive things from the version (Pillz seeds its AI's draws
with it), so each step below saves once at most and says so.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

from core.clock import from_db, to_db
from core.errors import NotAllowed, NotFound
from core.json_text import json_text, written
from engine.errors import DomainError
from engine.protocol import Engine, Event
from services.infra import scheduler as jobs
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import enqueue
from services.shared.kept_states import KeptStates
from services.shared.match_moves import Author as Author
from services.shared.match_moves import Move as Move
from services.shared.match_moves import Played as Played
from services.shared.match_sql import LIVE_NUMBER, LIVE_OF, NEXT_NUMBER, SEATS, SELECT_SEATED
from store.connection import Connection
from store.db import announce

S = TypeVar("S")


class StaleMatch(DomainError):
    """The match moved on since this was shown: a double click, or a timeout played first."""

    key = "matches.error.stale"


@dataclass(frozen=True)
class MatchTexts:
    """The message keys of the block's refusals; a game may keep its own wording."""

    stale: str = "matches.error.stale"
    stale_button: str | None = None  # the public message's button `stale` quotes ({button}), if any
    not_found: str = "matches.error.not_found"
    not_player: str = "matches.error.not_player"
    not_your_turn: str = "matches.error.not_your_turn"


@dataclass(frozen=True)
class MatchRules(Generic[S]):
    """What the block needs to know about one game: described once, in the game's package.

    `numbered`: the game shows its own number ("partie n° 12", consecutive within the game), given when
    the match starts, and users name its matches by that number (`load_number`); match ids are one
    sequence for every game. `answers_in_dms`: a player may act on their own matches from DMs (no server
    to check against then: the match must be theirs)."""

    game: str
    engine: Engine[S, Any]
    texts: MatchTexts = MatchTexts()
    numbered: bool = False
    answers_in_dms: bool = False
    kept_states: int = 0  # states kept by their JSON between two loads (services/shared/kept_states.py)


@dataclass(frozen=True)
class Match(Generic[S]):
    """One match as read in a write unit. A game may subclass it for properties over `data` (its own
    fields); the block builds rows of that class."""

    rules: MatchRules[S] = field(repr=False, compare=False)
    id: int
    game: str
    kind: str
    guild_id: int | None  # None: a match played in direct messages
    channel_id: int | None  # None: its message is shown wherever its player asked
    thread_id: int | None
    seats: tuple[int | None, ...]  # a seat is None for the AI
    status: str
    seed: int | None
    setup: Any
    state: S | None
    data: Mapping[str, Any]
    version: int
    message_item: int | None
    deadline_at: datetime | None
    deadline_job: int | None
    result: dict[str, Any] | None
    expires_at: datetime | None
    number: int | None  # the game's own number, once started (`MatchRules.numbered`)

    @property
    def server(self) -> int:
        """The server of a match made in one (a game never played in DMs reads it as a plain id)."""
        if self.guild_id is None:
            raise ValueError(f"match {self.id} belongs to no server")
        return self.guild_id

    @property
    def channel(self) -> int:
        """The channel of a match made in one (a game whose matches always have one reads it so)."""
        if self.channel_id is None:
            raise ValueError(f"match {self.id} has no channel")
        return self.channel_id

    def seat_of(self, player: int) -> int:
        """The seat `player` holds; anyone else is refused (the AI's seat belongs to nobody)."""
        for seat, holder in enumerate(self.seats):
            if holder is not None and holder == player:
                return seat
        raise NotAllowed(self.rules.texts.not_player)

    def is_ai(self, seat: int) -> bool:
        return self.seats[seat] is None

    def to_act(self) -> list[int]:
        """Whose move it is, in seat order: several for simultaneous choices, none unless live."""
        if self.status != "live" or self.state is None:
            return []
        return list(self.rules.engine.current_players(self.state))


M = TypeVar("M", bound=Match[Any])
# The messages a move's events produce, queued in the move's unit: (where, what).
Narration = Sequence[tuple[Target, MessageSpec]]
# What a save may change; the rest (seats, guild, kind...) is fixed at creation. The channel may move when a
# challenge becomes a game (a game played in the server's games channel).
_SAVED = (
    "status",
    "seed",
    "setup",
    "state",
    "data",
    "channel_id",
    "thread_id",
    "message_item",
    "deadline_at",
    "deadline_job",
    "result",
    "number",
)


def _when(value: str | None) -> datetime | None:
    return None if value is None else from_db(value)


def _column(name: str, value: Any, states: Engine[Any, Any] | KeptStates[Any]) -> Any:
    """A saved field (`_SAVED`) as its column stores it (a state kept by its JSON, `MatchRules.kept_states`)."""
    if name == "state":
        return None if value is None else states.to_json(value)
    if name in ("setup", "result"):
        return None if value is None else json_text(value)
    if name == "data":
        return json_text(dict(value))
    if name == "deadline_at":
        return None if value is None else to_db(value)
    return value


MATCHES_TOPIC = "matches"
"""What every save of a match announces, its id as key: a process keeping what a seat's controls show
(services/shared/duels.py `SecretDuels.choices`) forgets that match once the save commits, in every process."""


class Matches(Generic[S, M]):
    """The match steps of one game, bound to its rules and its row class."""

    def __init__(self, rules: MatchRules[S], row: Callable[..., M]) -> None:
        self.rules = rules
        self.row = row
        kept = rules.kept_states
        self.states: Engine[S, Any] | KeptStates[S] = KeptStates(rules.engine, kept) if kept else rules.engine

    def stale(self) -> StaleMatch:
        """The refusal of a stale click, naming the public message's button as the channel shows it."""
        button = self.rules.texts.stale_button
        return StaleMatch(self.rules.texts.stale, **({"button": Text.public(button)} if button else {}))

    # --- reading ---------------------------------------------------------------------------------------

    def _build(self, row: sqlite3.Row) -> M:
        holders = [row[f"seat_{seat}"] for seat in range(SEATS)]
        return self.row(
            rules=self.rules,
            id=int(row["id"]),
            game=str(row["game"]),
            kind=str(row["kind"]),
            guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
            channel_id=None if row["channel_id"] is None else int(row["channel_id"]),
            thread_id=None if row["thread_id"] is None else int(row["thread_id"]),
            seats=tuple(None if holder is None else int(holder) for holder in holders),
            status=str(row["status"]),
            seed=None if row["seed"] is None else int(row["seed"]),
            setup=None if row["setup"] is None else json.loads(row["setup"]),
            state=None if row["state"] is None else self.states.from_json(row["state"]),
            data=json.loads(row["data"]),
            version=int(row["version"]),
            message_item=None if row["message_item"] is None else int(row["message_item"]),
            deadline_at=_when(row["deadline_at"]),
            deadline_job=None if row["deadline_job"] is None else int(row["deadline_job"]),
            result=None if row["result"] is None else json.loads(row["result"]),
            expires_at=_when(row["expires_at"]),
            number=None if row["number"] is None else int(row["number"]),
        )

    def _select(self, conn: Connection, where: str, args: tuple[Any, ...]) -> list[M]:
        rows = conn.execute(
            f"{SELECT_SEATED} WHERE game = ? AND {where} ORDER BY id", (self.rules.game, *args)
        )
        return [self._build(r) for r in rows.fetchall()]

    def _here(self, found: list[M], ref: int, guild: int | None, player: int | None) -> M:
        """The match if it answers where the user acts: in its server, or in DMs to one of its players
        (`MatchRules.answers_in_dms`). Anything else reads exactly like an unknown id."""
        if found:
            match = found[0]
            if match.guild_id == guild:
                return match
            if guild is None and self.rules.answers_in_dms and player is not None and player in match.seats:
                return match
        raise NotFound(self.rules.texts.not_found, id=ref)

    def load(self, conn: Connection, match_id: int, *, guild: int | None, player: int | None = None) -> M:
        """A match reached from `guild`, where a user clicked or typed (None: in DMs, by `player`):
        another server's reads as unknown."""
        return self._here(self._select(conn, "id = ?", (match_id,)), match_id, guild, player)

    def load_number(
        self, conn: Connection, number: int, *, guild: int | None, player: int | None = None
    ) -> M:
        """`load` for a numbered game, by the number its players know."""
        return self._here(self._select(conn, "number = ?", (number,)), number, guild, player)

    def number_trusted(self, conn: Connection, number: int) -> M:
        """`load_trusted` by the game's number (a job's payload that names it)."""
        found = self._select(conn, "number = ?", (number,))
        if not found:
            raise NotFound(self.rules.texts.not_found, id=number)
        return found[0]

    def load_trusted(self, conn: Connection, match_id: int) -> M:
        """A match named by the bot itself (its own job's payload, a match it just read): no server to
        check against. Never for an id that came from Discord."""
        found = self._select(conn, "id = ?", (match_id,))
        if not found:
            raise NotFound(self.rules.texts.not_found, id=match_id)
        return found[0]

    def by_request(self, conn: Connection, request_key: str) -> M | None:
        """The match an interaction already made (a replayed command finds it instead of a second one)."""
        found = self._select(conn, "request_key = ?", (request_key,))
        return found[0] if found else None

    def live_of(self, conn: Connection, player: int, guild: int | None = None) -> list[M]:
        """The player's live matches: on one server, or everywhere (`guild` None)."""
        return self._select(conn, LIVE_OF, (player, guild, guild))

    def live_number(self, conn: Connection, player: int) -> int | None:
        """The number of the player's first live match of a numbered game, if any (`live_of`'s first)."""
        row = conn.execute(LIVE_NUMBER, (self.rules.game, player, None, None)).fetchone()
        return None if row is None else int(row[0])

    def live_and_next(self, conn: Connection, player: int) -> tuple[int | None, int]:
        """`live_number`, and the game's next number, in one statement: a start that allows one live match
        per player checks it and gives its new match that number (`create`'s `number`), in the same unit."""
        row = conn.execute(
            f"SELECT ({LIVE_NUMBER}), ({NEXT_NUMBER})", (self.rules.game, player, None, None, self.rules.game)
        ).fetchone()
        return None if row[0] is None else int(row[0]), int(row[1])

    def live(self, conn: Connection) -> list[M]:
        return self._select(conn, "status = 'live'", ())

    def in_thread(self, conn: Connection, thread_id: int) -> M | None:
        """The match played in this thread, if any."""
        found = self._select(conn, "thread_id = ?", (thread_id,))
        return found[0] if found else None

    def in_thread_here(
        self, conn: Connection, thread_id: int, *, guild: int | None, player: int | None
    ) -> M | None:
        """`in_thread`, checked as `load_number` checks a number the user names: one load of the match
        where finding its number, then loading it, made two."""
        found = self._select(conn, "thread_id = ?", (thread_id,))
        return self._here(found, found[0].number or 0, guild, player) if found else None

    def moves(self, conn: Connection, match_id: int, seat: int | None = None) -> list[Move]:
        rows = conn.execute(
            "SELECT seq, seat, action, author, data FROM match_moves WHERE match_id = ?"
            " AND (CAST(? AS BIGINT) IS NULL OR seat = ?) ORDER BY seq",
            (match_id, seat, seat),
        )
        return [
            Move(int(q), int(s), json.loads(a), str(w), json.loads(d)) for q, s, a, w, d in rows.fetchall()
        ]

    # --- writing ---------------------------------------------------------------------------------------

    def create(
        self,
        conn: Connection,
        now: datetime,
        *,
        guild_id: int | None,
        channel_id: int | None,
        seats: tuple[int | None, int | None],
        kind: str = "",
        status: str = "pending",
        request_key: str | None = None,
        expires_at: datetime | None = None,
        deadline_job: str | None = None,
        seed: int | None = None,
        setup: Any = None,
        state: S | None = None,
        data: Mapping[str, Any] | None = None,
        number: int | None = None,
        deadline: Mapping[str, Any] | None = None,
    ) -> M:
        """A new match at version 0. With `deadline_job` (a job kind), a job due at `expires_at` is armed
        with the match as payload (`{"match": id}`): part of the creation, not a save.

        A match with no challenge (one player against the AI) may be created 'live' with its engine's
        first state, `seed`, `setup` and `data`: no save then, and a numbered game's match takes its
        number here, as `start` would give it: the game's next (`number`: the one `live_and_next` read in
        this unit, still unique under the index `matches_number`). `deadline`: the fields `deadline`
        returned for a job scheduled in this unit (whose payload named that number), written by the insert
        where arming the match after it took a statement more."""
        numbered = status == "live" and self.rules.numbered
        if number is not None and not numbered:
            raise ValueError("a number is given to a numbered game's live match only")
        if deadline is not None and deadline_job is not None:
            raise ValueError("one deadline: a job armed here (`deadline_job`) or armed before (`deadline`)")
        at, job = (None, None) if deadline is None else (deadline["deadline_at"], deadline["deadline_job"])
        setup_json, setup_read = (None, None) if setup is None else written(setup)
        data_json, data_read = written(dict(data or {}))
        # A numbered match's number is the insert's own sub-query (`NEXT_NUMBER`) unless given: one
        # statement, not two.
        row = conn.execute(
            "INSERT INTO matches (game, kind, guild_id, channel_id, status, request_key, seed, setup, state,"
            " data, created_at, updated_at, expires_at, deadline_at, deadline_job, number) VALUES (?, ?, ?,"
            " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            f" CASE WHEN ? = 1 THEN COALESCE(CAST(? AS BIGINT), ({NEXT_NUMBER})) END) RETURNING id, number",
            (
                self.rules.game,
                kind,
                guild_id,
                channel_id,
                status,
                request_key,
                seed,
                setup_json,
                None if state is None else self.states.to_json(state),
                data_json,
                to_db(now),
                to_db(now),
                None if expires_at is None else to_db(expires_at),
                None if at is None else to_db(at),
                job,
                int(numbered),
                number,
                self.rules.game,
            ),
        ).fetchone()
        match_id, number = int(row[0]), None if row[1] is None else int(row[1])
        conn.execute(  # every seat in one statement
            "INSERT INTO match_seats (match_id, seat, player_id) VALUES "
            + ", ".join(["(?, ?, ?)"] * len(seats)),
            [value for seat, player in enumerate(seats) for value in (match_id, seat, player)],
        )
        if deadline_job is not None and expires_at is not None:
            job = jobs.schedule(conn, now, deadline_job, expires_at, {"match": match_id})
            conn.execute("UPDATE matches SET deadline_job = ? WHERE id = ?", (job, match_id))
        # The row as written, not read back: reading it parsed the state the caller holds (issue 39: a
        # HOSS ranked start parsed its new battle's state again). Setup and data are their stored JSON
        # read, as a read would give them.
        return self.row(
            rules=self.rules,
            id=match_id,
            game=self.rules.game,
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            seats=tuple(seats),
            status=status,
            seed=seed,
            setup=setup_read,
            state=state,
            data=data_read,
            version=0,
            message_item=None,
            deadline_at=None if at is None else from_db(to_db(at)),
            deadline_job=job,
            result=None,
            expires_at=None if expires_at is None else from_db(to_db(expires_at)),
            number=number,
        )

    def save(self, conn: Connection, match: M, now: datetime, **changes: Any) -> M:
        """Write `changes` (fields of `Match`) if the row is still at `match.version`: one save, version + 1;
        `StaleMatch` (the game's message) when the match moved on meanwhile. Only the changed columns are
        written: the version guard makes the others the ones `match` holds (a duel's timeout, armed in the
        save after its move, would otherwise write the whole state's JSON a second time)."""
        if unknown := set(changes) - set(_SAVED):
            raise ValueError(f"not saved by a move: {sorted(unknown)}")
        updated = replace(match, **changes, version=match.version + 1)
        values = [_column(name, getattr(updated, name), self.states) for name in changes]
        columns = "".join(f"{name} = ?, " for name in changes)
        ended = (
            to_db(now) if updated.status in ("over", "cancelled") and match.status != updated.status else None
        )
        cursor = conn.execute(
            f"UPDATE matches SET {columns}version = version + 1, updated_at = ?,"
            " ended_at = COALESCE(?, ended_at) WHERE id = ? AND version = ?",
            (*values, to_db(now), ended, match.id, match.version),
        )
        if cursor.rowcount != 1:
            raise self.stale()
        announce(conn, MATCHES_TOPIC, str(match.id))
        return updated

    def _next_number(self, conn: Connection) -> int:
        row = conn.execute(NEXT_NUMBER, (self.rules.game,)).fetchone()
        return int(row[0])

    def start(
        self,
        conn: Connection,
        now: datetime,
        match: M,
        *,
        seed: int,
        setup: Any,
        state: S,
        **changes: Any,
    ) -> M:
        """The match goes live with the engine's first state (one save, with `changes`). A numbered game's
        match takes the game's next number here: declined challenges leave no gap."""
        if self.rules.numbered:
            changes["number"] = self._next_number(conn)
        return self.save(conn, match, now, status="live", seed=seed, setup=setup, state=state, **changes)

    def play(
        self,
        conn: Connection,
        now: datetime,
        match: M,
        seat: int,
        action: Any,
        author: Author,
        *,
        version: int | None = None,
        narrate: Callable[[M, list[Event]], Narration] | None = None,
    ) -> tuple[M, list[Event]]:
        """Apply `action` for `seat` through the game's engine, log it and save the new state (one save).

        `version` is the one the player saw (carried by the button): an older one is stale. The engine's
        `IllegalAction` goes through untouched, for the game to word it; nothing is written then. The
        events, narrated by `narrate`, are queued in the outbox in this same unit."""
        if version is not None and version != match.version:
            raise self.stale()
        if match.state is None or seat not in match.to_act():
            raise NotAllowed(self.rules.texts.not_your_turn)
        engine = self.rules.engine
        state, events = engine.apply(match.state, seat, action)
        self.record(conn, now, match.id, [Played(seat, engine.action_to_json(action), author)])
        match = self.save(conn, match, now, state=state)
        for target, spec in narrate(match, events) if narrate is not None else ():
            enqueue(conn, now, target, spec)
        return match, events

    def record(self, conn: Connection, now: datetime, match_id: int, moves: Sequence[Played]) -> None:
        """Append moves a game applied itself (no save): a game that resolves several decisions between two
        saves (HOSS runs its rounds and its AI's answers until the player must decide) logs them here, in
        the unit that saves the state they led to. Each move's number is its insert's own sub-query (the
        last one + 1, the moves inserted one after the other; the PRIMARY KEY (match_id, seq) refuses a
        number taken twice): no statement reads it before. No move, no statement."""
        if not moves:
            return
        conn.executemany(
            "INSERT INTO match_moves (match_id, seq, seat, action, author, at, data) VALUES (?,"
            " (SELECT COALESCE(MAX(seq), 0) + 1 FROM match_moves WHERE match_id = ?), ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    match_id,
                    move.seat,
                    json_text(move.action),
                    move.author,
                    to_db(now),
                    json_text(dict(move.data)),
                )
                for move in moves
            ],
        )

    def post(self, conn: Connection, now: datetime, match: M, target: Target, spec: MessageSpec) -> M:
        """Post the match's public message and remember it (one save): later states edit it (`show`)."""
        return self.save(conn, match, now, message_item=enqueue(conn, now, target, spec))

    def set_message(self, conn: Connection, match_id: int, item: int, *, version: int | None = None) -> bool:
        """Make `item` (an outbox item, e.g. an interaction's response recorded as sent) the match's public
        message, without a save: which message shows the match is not game state, so controls drawn
        before it stay valid. With `version`, only while the match is still at it (what the message
        shows is still the match); returns whether it was set."""
        if version is None:
            conn.execute("UPDATE matches SET message_item = ? WHERE id = ?", (item, match_id))
            return True
        sql = "UPDATE matches SET message_item = ? WHERE id = ? AND version = ?"
        return conn.execute(sql, (item, match_id, version)).rowcount == 1

    def show(self, conn: Connection, now: datetime, match: M, target: Target, spec: MessageSpec) -> None:
        """Queue an edit of the public message to `spec` (no save); nothing before it was posted."""
        if match.message_item is not None:
            enqueue(conn, now, target, spec, edit_of=match.message_item)

    def arm(
        self,
        conn: Connection,
        now: datetime,
        match: M,
        kind: str,
        due: datetime,
        payload: Mapping[str, Any],
    ) -> M:
        """Replace the match's pending job by a `kind` job due at `due` (one save): a job of an earlier
        version is withdrawn, so it can never act on a later state. The same job still pending (its kind
        and payload) is moved instead, keeping its id (`scheduler.move`: one update, not two statements)."""
        if match.deadline_job is not None and jobs.move(conn, now, match.deadline_job, kind, due, payload):
            return self.save(conn, match, now, deadline_at=due)
        return self.save(conn, match, now, **self.deadline(conn, now, match, kind, due, payload))

    def deadline(
        self,
        conn: Connection,
        now: datetime,
        match: M,
        kind: str,
        due: datetime | None,
        payload: Mapping[str, Any],
    ) -> dict[str, Any]:
        """`arm` without its save: withdraw the match's pending job, schedule a `kind` job due at `due`
        (none when `due` is None), and return the fields for the caller's own save of this step."""
        self.cancel_job(conn, match)
        job = None if due is None else jobs.schedule(conn, now, kind, due, payload)
        return {"deadline_at": due, "deadline_job": job}

    def cancel_job(self, conn: Connection, match: M) -> None:
        """Withdraw the match's pending job, if any (no save: the caller's next save clears the field)."""
        if match.deadline_job is not None:
            jobs.cancel(conn, match.deadline_job)

    # --- several pending jobs per match (`match_jobs`: stages, reminders...) ------------------------------

    def disarm(self, conn: Connection, match_id: int) -> None:
        """Withdraw every job the match was given (`services/shared/match_jobs.py`; no save)."""
        rows = conn.execute("SELECT job_id FROM match_jobs WHERE match_id = ?", (match_id,)).fetchall()
        for (job_id,) in rows:
            jobs.cancel(conn, int(job_id))
        conn.execute("DELETE FROM match_jobs WHERE match_id = ?", (match_id,))

    def is_current(self, conn: Connection, match_id: int, job_id: int) -> bool:
        """Whether a firing job is still one of the match's: a withdrawn one must do nothing."""
        found = conn.execute(
            "SELECT 1 FROM match_jobs WHERE match_id = ? AND job_id = ?", (match_id, job_id)
        ).fetchone()
        return found is not None

    def end(self, conn: Connection, now: datetime, match: M, status: str, **changes: Any) -> M:
        """The match leaves 'pending' or 'live' for good (one save); its pending job is withdrawn."""
        self.cancel_job(conn, match)
        return self.save(conn, match, now, status=status, deadline_at=None, deadline_job=None, **changes)


__all__ = [
    "Match",
    "MatchRules",
    "MatchTexts",
    "Matches",
    "Move",
    "Narration",
    "Played",
    "StaleMatch",
]
