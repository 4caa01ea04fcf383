"""Chocobataille games as matches of the shared block (services/shared/matches.py): the game's view of a
match, its log, its pending jobs' owner and its panel drafts.

A game is named by its number (`matches.number`, "partie n° 12"): that is `GameRow.id`, what players see,
what buttons, commands and job payloads carry; the match id stays inside the store (`GameRow.match_id`,
which the game's own tables reference). Every change of a game is a save of the block guarded by the
version the caller loaded, so two clicks, a click and a deadline, or two deadlines can never both apply to
the same state: the second finds a newer version and changes nothing (`StaleMatch`, with Chocobataille's
message). Callers run these functions inside one write unit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from core.clock import from_db, to_db
from core.errors import BadInput, NotAllowed, NotFound
from core.json_text import json_text
from engine.choco import ChocoEngine, ChocoState
from services.shared.matches import Match, Matches, MatchRules, MatchTexts
from store.connection import Connection

# About the games played at once in one process (services/shared/kept_states.py): a turn's unit finds the
# state the previous turn saved instead of parsing its 10 kB of JSON again; the whole set is dropped beyond it.
KEPT_STATES = 64

ENGINE = ChocoEngine()
LEAGUES = ("bronze", "argent", "or")
# How a game counts (docs/choco/practice.md): a ranked game has the league's entry, results and reward; a
# friendly one and a practice one against the bot (seat 1, no player) have none of them.
RANKED, FRIENDLY, PRACTICE = "ranked", "friendly", "practice"
MODES = (RANKED, FRIENDLY, PRACTICE)

RULES: MatchRules[ChocoState] = MatchRules(
    game="choco",
    engine=ENGINE,
    texts=MatchTexts(
        stale="choco.error.stale",
        not_found="choco.error.no_game",
        not_player="choco.error.not_player",
        not_your_turn="choco.error.not_your_turn",
    ),
    numbered=True,
    answers_in_dms=True,
    kept_states=KEPT_STATES,
)
# The match steps of Chocobataille: stateless, so one value serves every container.
MATCHES: Matches[ChocoState, Match[ChocoState]] = Matches(RULES, Match)


@dataclass(frozen=True)
class GameRow:
    id: int  # the game's number, as players know it
    guild_id: int
    channel_id: int
    thread_id: int | None
    league: str
    seats: tuple[int, int | None]  # seat 1 is None in a practice game: the bot plays it
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
    match_id: int  # the shared match: the key of the game's own tables
    decks: tuple[list[str], list[str]]  # as dealt: with the seed and the log, a replay
    reward_card: int | None = None
    mode: str = RANKED

    @property
    def ranked(self) -> bool:
        return self.mode == RANKED

    @property
    def ai_seat(self) -> int | None:
        """The seat the bot plays (a practice game), or None."""
        return next((s for s, p in enumerate(self.seats) if p is None), None)

    @property
    def players(self) -> tuple[int, ...]:
        """The people of the game (the bot is none): who is pinged, told, and may see its buttons."""
        return tuple(p for p in self.seats if p is not None)

    def player(self, seat: int) -> int:
        """The person at `seat`; asking for the bot's seat is a bug (the bot is never called to act)."""
        holder = self.seats[seat]
        if holder is None:
            raise ValueError(f"game {self.id}: seat {seat} is the bot's")
        return holder

    @property
    def where(self) -> int:
        """Where the game's posts go: its thread, or the channel until the thread exists."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, player_id: int) -> int:
        if player_id not in self.players:
            raise NotAllowed("choco.error.not_player")
        return self.seats.index(player_id)

    def to_act(self) -> list[int]:
        """The seats the game waits for (both in the preparatory turn)."""
        return [] if self.status != "live" else ENGINE.current_players(self.state)


def _when(value: Any) -> datetime | None:
    return None if value is None else from_db(str(value))


def _stamp(value: datetime | None) -> str | None:
    return None if value is None else to_db(value)


def row_of(match: Match[ChocoState]) -> GameRow:
    """The game a started match holds (a pending challenge has no game yet)."""
    assert match.number is not None
    assert match.state is not None
    assert match.seed is not None
    seat0, seat1 = match.seats
    assert seat0 is not None  # the bot only ever holds seat 1
    data, result = match.data, match.result or {}
    decks = match.setup or [[], []]
    return GameRow(
        id=match.number,
        guild_id=match.server,
        channel_id=match.channel,
        thread_id=match.thread_id,
        league=match.kind,
        seats=(seat0, seat1),
        seed=match.seed,
        state=match.state,
        status=match.status,
        version=match.version,
        turn_started_at=_when(data.get("turn_started_at")),
        deadline_at=match.deadline_at,
        pass_at=_when(data.get("pass_at")),
        stage=int(data.get("stage", 0)),
        faulted_turn=data.get("faulted_turn"),
        result=result.get("result"),
        winner_seat=result.get("winner"),
        match_id=match.id,
        decks=(list(decks[0]), list(decks[1])),
        reward_card=result.get("reward_card"),
        mode=str(data.get("mode", RANKED)),
    )


def _data(game: GameRow) -> dict[str, Any]:
    """The game's own fields of its match; `mode` is written only when the game is not ranked, so a
    ranked game's row reads as it did before friendly and practice games existed."""
    data: dict[str, Any] = {
        "turn_started_at": _stamp(game.turn_started_at),
        "pass_at": _stamp(game.pass_at),
        "stage": game.stage,
        "faulted_turn": game.faulted_turn,
    }
    if game.mode != RANKED:
        data["mode"] = game.mode
    return data


def _as_match(game: GameRow) -> Match[ChocoState]:
    """The match as the block saves it, at the version `game` was read."""
    result = None
    if game.result is not None:
        result = {"result": game.result, "winner": game.winner_seat, "reward_card": game.reward_card}
    return Match(
        rules=RULES,
        id=game.match_id,
        game=RULES.game,
        kind=game.league,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        thread_id=game.thread_id,
        seats=game.seats,
        status=game.status,
        seed=game.seed,
        setup=[game.decks[0], game.decks[1]],
        state=game.state,
        data=_data(game),
        version=game.version,
        message_item=None,
        deadline_at=game.deadline_at,
        deadline_job=None,
        result=result,
        expires_at=None,
        number=game.id,
    )


def load(conn: Connection, game_id: int) -> GameRow:
    """A game named by the bot itself (a job's payload, a game it just read)."""
    return row_of(MATCHES.number_trusted(conn, game_id))


def load_here(conn: Connection, game_id: int, guild_id: int | None, player: int | None) -> GameRow:
    """A game a user names (an option, a button's custom_id, the thread), seen from where they act: in a
    server, only that server's games; in DMs (`guild_id` None), only the games `player` plays. Any other
    game is answered exactly like one that does not exist, so that another server learns nothing of it."""
    return row_of(MATCHES.load_number(conn, game_id, guild=guild_id, player=player))


def live(game: GameRow) -> GameRow:
    if game.status != "live":
        raise NotAllowed("choco.error.game_over", id=game.id)
    return game


def load_live(conn: Connection, game_id: int) -> GameRow:
    return live(load(conn, game_id))


def live_here(conn: Connection, game_id: int, guild_id: int | None, player: int | None) -> GameRow:
    return live(load_here(conn, game_id, guild_id, player))


def game_here(conn: Connection, channel_id: int | None, player: int, guild_id: int | None) -> GameRow:
    """The game of this thread, else the player's only live game on this server (in DMs: anywhere)."""
    if channel_id is not None:
        found = MATCHES.in_thread_here(conn, channel_id, guild=guild_id, player=player)
        if found is not None:
            return row_of(found)
    games = live_games_of(conn, player, guild_id)
    if len(games) == 1:
        return games[0]
    if not games:
        raise NotFound("choco.error.no_live_game")
    raise BadInput("choco.error.which_game", threads=", ".join(f"<#{g.where}>" for g in games))


def by_thread(conn: Connection, thread_id: int) -> int | None:
    found = MATCHES.in_thread(conn, thread_id)
    return None if found is None else found.number


def live_games_of(conn: Connection, player_id: int, guild_id: int | None = None) -> list[GameRow]:
    """The player's live games: those of one server, or all of them (`guild_id` None: in DMs)."""
    return [row_of(m) for m in MATCHES.live_of(conn, player_id, guild_id)]


def live_games(conn: Connection) -> list[GameRow]:
    return [row_of(m) for m in MATCHES.live(conn)]


def start(
    conn: Connection,
    now: datetime,
    match: Match[ChocoState],
    *,
    seed: int,
    decks: tuple[list[str], list[str]],
    state: ChocoState,
    channel_id: int,
) -> Match[ChocoState]:
    """The accepted challenge's match becomes the game (one save), with the game's next number, in the
    channel where the game is played; the challenge's expiry job goes with the challenge. A friendly
    challenge's mode goes with it into the game."""
    MATCHES.cancel_job(conn, match)
    data: dict[str, Any] = {"turn_started_at": None, "pass_at": None, "stage": 0, "faulted_turn": None}
    if match.data.get("mode", RANKED) != RANKED:
        data["mode"] = match.data["mode"]
    return MATCHES.start(
        conn,
        now,
        match,
        seed=seed,
        setup=[decks[0], decks[1]],
        state=state,
        data=data,
        channel_id=channel_id,
        deadline_job=None,
    )


def insert(
    conn: Connection,
    now: datetime,
    *,
    guild_id: int,
    channel_id: int,
    league: str,
    seats: tuple[int, int | None],
    seed: int,
    decks: tuple[list[str], list[str]],
    state: ChocoState,
) -> int:
    """A game without a challenge (tests, tools): its match is made and started at once. Its number."""
    match = MATCHES.create(conn, now, guild_id=guild_id, channel_id=channel_id, seats=seats, kind=league)
    return row_of(start(conn, now, match, seed=seed, decks=decks, state=state, channel_id=channel_id)).id


# The match's columns a game's save may change. The state is compared by identity (an engine's step
# returns a new state, and comparing two whole states costs more than writing one); the others by value.
_SAVED = ("status", "data", "thread_id", "deadline_at", "result")


def save(conn: Connection, game: GameRow, now: datetime, **changes: Any) -> GameRow:
    """Write `changes` (GameRow fields) if the game is still at `game.version`; the new row is returned.

    Only the match's columns that changed are written (a turn changes the state, the clock and the data,
    not the status, the thread or the result): the version guard makes the others the ones `game` holds."""
    updated = replace(game, **changes)
    before, moved = _as_match(game), _as_match(updated)
    written: dict[str, Any] = {} if moved.state is before.state else {"state": moved.state}
    for name in _SAVED:
        value = getattr(moved, name)
        if value != getattr(before, name):
            written[name] = value
    saved = MATCHES.save(conn, before, now, **written)
    return row_of(saved)


def log(
    conn: Connection,
    game: GameRow,
    now: datetime,
    actor_id: int | None,
    kind: str,
    data: dict[str, Any] | None = None,
) -> int:
    """Append to the game's log (actions, penalties, absences, referee acts): its history, in order.

    The next number is taken in the insert itself, not read first (one statement of every turn's unit).
    The entry's JSON is orjson's (keys sorted, as `json.dumps` wrote them): 15 µs less a turn's entry."""
    row = conn.execute(
        "INSERT INTO choco_game_log (match_id, seq, at, actor_id, kind, data)"
        " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM choco_game_log WHERE match_id = ? RETURNING seq",
        (game.match_id, to_db(now), actor_id, kind, json_text(data or {}), game.match_id),
    ).fetchone()
    return int(row[0])


@dataclass(frozen=True)
class LogEntry:
    seq: int
    at: datetime
    actor_id: int | None
    kind: str
    data: dict[str, Any]


def read_log(conn: Connection, game: GameRow) -> list[LogEntry]:
    rows = conn.execute(
        "SELECT seq, at, actor_id, kind, data FROM choco_game_log WHERE match_id = ? ORDER BY seq",
        (game.match_id,),
    )
    return [
        LogEntry(int(r[0]), from_db(r[1]), None if r[2] is None else int(r[2]), str(r[3]), json.loads(r[4]))
        for r in rows
    ]


# --- panel drafts --------------------------------------------------------------------------------------


def draft(conn: Connection, game: GameRow, seat: int) -> list[Any]:
    """The steps a player has put in the guided panel, as engine actions; empty if built on another version."""
    row = conn.execute(
        "SELECT version, steps FROM choco_drafts WHERE match_id = ? AND seat = ?", (game.match_id, seat)
    ).fetchone()
    if row is None or int(row[0]) != game.version:
        return []
    return [ENGINE.action_from_json(step) for step in json.loads(row[1])]


def save_draft(conn: Connection, game: GameRow, seat: int, steps: list[Any], now: datetime) -> None:
    conn.execute(
        "INSERT INTO choco_drafts (match_id, seat, version, steps, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (match_id, seat) DO UPDATE SET version = excluded.version, steps = excluded.steps,"
        " updated_at = excluded.updated_at",
        (
            game.match_id,
            seat,
            game.version,
            json.dumps([ENGINE.action_to_json(s) for s in steps]),
            to_db(now),
        ),
    )


def create_practice(
    conn: Connection,
    now: datetime,
    *,
    guild_id: int,
    channel_id: int,
    league: str,
    player: int,
    seed: int,
    decks: tuple[list[str], list[str]],
    state: ChocoState,
    request_key: str,
) -> GameRow:
    """A practice game: a match made live at once (no challenge), the player at seat 0, the bot at 1."""
    match = MATCHES.create(
        conn,
        now,
        guild_id=guild_id,
        channel_id=channel_id,
        seats=(player, None),
        kind=league,
        status="live",
        request_key=request_key,
        seed=seed,
        setup=[decks[0], decks[1]],
        state=state,
        data={"turn_started_at": None, "pass_at": None, "stage": 0, "faulted_turn": None, "mode": PRACTICE},
    )
    return row_of(match)


def by_request(conn: Connection, request_key: str) -> GameRow | None:
    found = MATCHES.by_request(conn, request_key)
    return None if found is None or found.number is None else row_of(found)
