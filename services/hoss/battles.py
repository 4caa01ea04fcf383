"""Ranked battles in the database: the battle row, driving the engine between the player's pauses, the
decision deadline, the end of a battle (result, rank progress, gold, milestone notice), the log and the
replay. The public API is `services/hoss/ranked.py`; the rules (ranks, rewards) are `engine/hoss/ranks.py`.

These functions run inside a write unit (`Database.write`). A battle is saved at every pause where the
player decides: the engine state (`ENGINE.to_json`), the decisions of both seats in the order they were
applied, and one log record per round. Between two such pauses the engine runs deterministically from the
saved state, so a crash mid-unit loses nothing: the unit rolls back and the same step gives the same rounds.
Every save is a conditional UPDATE on the row's `version` (and the caller checks the pause number), so two
writers can never both apply a decision to the same pause. Decisions: docs/hoss/ranked.md.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from core.clock import from_db, to_db
from core.errors import NotAllowed, NotFound
from engine.hoss import (
    ENGINE,
    Battle,
    HossAction,
    HossState,
    Policy,
    Record,
    battle_reward,
    from_state,
    milestone_gold,
    strong_policy,
    to_state,
)
from engine.protocol import PlayerSetup
from services.hoss.gold import GOLD
from services.platform import ledger, scheduler
from store.db import announce

PLAYER = 0  # the player's seat
AI_SEAT = 1
DECISION_TIMEOUT = timedelta(minutes=2)
TIMEOUT_JOB = "hoss.decision_timeout"  # also the message the view shows for a pause the AI took
NOTICES_TOPIC = "hoss:notices"  # announced by a commit that gave a player a milestone notice
REASON = "hoss.ranked"  # ledger reason of a battle's gold (ref = the battle id)
AI: Policy = strong_policy()
LOG_FORMAT = "hoss-ranked-log/1"
SEAT_PREFIX = "a"  # the player's creature ids are a1..a6 (engine.hoss.fighters.uid_of)


@dataclass(frozen=True)
class Decision:
    pause: int  # the player's pause it belongs to
    round: int  # rounds played before it
    seat: int
    action: dict[str, Any]  # engine action JSON
    by: str  # 'player', 'ai' (the opponent), 'timeout' or 'skip' (the AI for the player)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BattleRow:
    id: int
    player_id: int
    rank: int
    seed: int
    status: str  # 'live', 'won', 'lost' or 'draw'
    pause: int
    version: int
    round: int
    player_deaths: int
    deadline_at: datetime | None
    timeout_job: int | None
    viewed_round: int
    counted: bool | None
    reward: dict[str, Any] | None
    gold: int
    state: str  # engine JSON
    player_setup: str
    opponent_setup: str
    guild_id: int | None  # where it was started; None in direct messages
    message_item: int | None = None  # the outbox item of its public message (services/hoss/battle_edits.py)

    @property
    def live(self) -> bool:
        return self.status == "live"


def setup_to_json(setup: PlayerSetup) -> str:
    return json.dumps(
        {"seat": setup.seat, "player_id": setup.player_id, "deck": list(setup.deck), "extra": setup.extra},
        sort_keys=True,
    )


def load(conn: sqlite3.Connection, battle_id: int) -> BattleRow | None:
    row = conn.execute("SELECT * FROM hoss_battles WHERE id = ?", (battle_id,)).fetchone()
    if row is None:
        return None
    return BattleRow(
        id=int(row["id"]),
        player_id=int(row["player_id"]),
        rank=int(row["rank"]),
        seed=int(row["seed"]),
        status=row["status"],
        pause=int(row["pause"]),
        version=int(row["version"]),
        round=int(row["round"]),
        player_deaths=int(row["player_deaths"]),
        deadline_at=from_db(row["deadline_at"]) if row["deadline_at"] else None,
        timeout_job=row["timeout_job"],
        viewed_round=int(row["viewed_round"]),
        counted=None if row["counted"] is None else bool(row["counted"]),
        reward=json.loads(row["reward"]) if row["reward"] else None,
        gold=int(row["gold"]),
        state=row["state"],
        player_setup=row["player_setup"],
        opponent_setup=row["opponent_setup"],
        guild_id=row["guild_id"],
        message_item=row["message_item"],
    )


def owned(conn: sqlite3.Connection, player_id: int, battle_id: int, guild: int | None = None) -> BattleRow:
    """The player's battle, reached from the place it was started (`guild`: the server the interaction
    runs in, None in direct messages). Another player's battle, or one of another server, is 'not found'
    (ids are not secrets, battles are; a forged button must not drive a battle posted elsewhere)."""
    row = load(conn, battle_id)
    if row is None or row.player_id != player_id or row.guild_id != guild:
        raise NotFound("hoss.error.ranked.not_found")
    return row


def replayable(conn: sqlite3.Connection, viewer: int, battle_id: int, guild: int | None) -> BattleRow:
    """A battle `viewer` may replay: a finished one, to its player (anywhere: the reply is private) or,
    when it was played in a server (public there), to anyone running the command in that server. Anything
    else reads as an unknown id, except the player's own live battle: its seed must not leave the bot
    before the end, so it is refused as not finished yet (docs/hoss/ranked.md, "Who may replay")."""
    row = load(conn, battle_id)
    if row is not None and row.player_id == viewer:
        if row.live:
            raise NotAllowed("hoss.error.ranked.replay_live", battle=battle_id)
        return row
    if row is None or row.live or row.guild_id is None or row.guild_id != guild:
        raise NotFound("hoss.error.ranked.not_found")
    return row


def live_battle_id(conn: sqlite3.Connection, player_id: int) -> int | None:
    row = conn.execute(
        "SELECT id FROM hoss_battles WHERE player_id = ? AND status = 'live'", (player_id,)
    ).fetchone()
    return None if row is None else int(row[0])


# --- driving the engine -----------------------------------------------------------------------------


def restore(row: BattleRow) -> Battle:
    """The live battle at its saved pause, stats computed (the AI reads them), logging on."""
    return from_state(ENGINE.from_json(row.state), log=True, refresh=True)


def answer_all(battle: Battle, seat: int, policy: Policy, by: str, pause: int, out: list[Decision]) -> None:
    """Let `policy` take every decision `seat` still owes at this pause."""
    legal = battle.legal_actions(seat)
    while legal:
        action = policy(battle, seat, legal)
        apply(battle, seat, action, by, pause, out)
        legal = battle.legal_actions(seat)


def apply(battle: Battle, seat: int, action: HossAction, by: str, pause: int, out: list[Decision]) -> None:
    battle.answer(seat, action)  # raises IllegalAction, leaving the battle unchanged
    out.append(Decision(pause, battle.round, seat, ENGINE.action_to_json(action), by))


def advance(
    battle: Battle,
    pause: int,
    decisions: list[Decision],
    records: list[Record],
    *,
    for_player: Policy | None = None,
) -> int:
    """Run the battle until the player owes a decision, or to its end; returns the pause number then.

    The AI answers the opponent's decisions (strong policy); with `for_player` it also answers the
    player's (skip to the end). Every pause where the player owes a decision gets the next number.
    """
    while not battle.over:
        if PLAYER in battle.waiting():
            if for_player is None:
                break
            answer_all(battle, PLAYER, for_player, "skip", pause, decisions)
        answer_all(battle, AI_SEAT, AI, "ai", pause, decisions)
        records.extend(battle.resume())
        if not battle.over and PLAYER in battle.waiting():
            pause += 1
    return pause


def deaths_of_player(records: list[Record]) -> int:
    return sum(
        1
        for record in records
        for event in record["events"]
        if event["k"] == "death" and str(event["tgt"]).startswith(SEAT_PREFIX)
    )


def save(
    conn: sqlite3.Connection,
    now: datetime,
    row: BattleRow,
    battle: Battle,
    decisions: list[Decision],
    records: list[Record],
    pause: int,
) -> None:
    """Store the step: new decisions and rounds, the state, the pause; refused if anyone saved in between."""
    updated = conn.execute(
        "UPDATE hoss_battles SET state = ?, pause = ?, version = version + 1, round = ?,"
        " player_deaths = player_deaths + ?, updated_at = ?"
        " WHERE id = ? AND version = ? AND status = 'live'",
        (
            ENGINE.to_json(to_state(battle)),
            pause,
            battle.round,
            deaths_of_player(records),
            to_db(now),
            row.id,
            row.version,
        ),
    ).rowcount
    if updated != 1:
        raise NotAllowed("hoss.error.ranked.stale")
    first = conn.execute(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM hoss_battle_decisions WHERE battle_id = ?", (row.id,)
    ).fetchone()[0]
    conn.executemany(
        "INSERT INTO hoss_battle_decisions (battle_id, seq, pause, round, seat, action, by)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (row.id, first + i, d.pause, d.round, d.seat, json.dumps(d.action, sort_keys=True), d.by)
            for i, d in enumerate(decisions)
        ],
    )
    conn.executemany(
        "INSERT INTO hoss_battle_rounds (battle_id, round, record) VALUES (?, ?, ?)",
        [(row.id, r["round"], json.dumps(r, sort_keys=True)) for r in records],
    )
    if battle.over or pause != row.pause:
        rearm(conn, now, row.id, row.timeout_job, None if battle.over else pause)


def rearm(
    conn: sqlite3.Connection, now: datetime, battle_id: int, old_job: int | None, pause: int | None
) -> None:
    """Cancel the deadline of the last pause and set the next one's (none once the battle is over)."""
    if old_job is not None:
        scheduler.cancel(conn, old_job)
    job, due = None, None
    if pause is not None:
        due = now + DECISION_TIMEOUT
        job = scheduler.schedule(conn, now, TIMEOUT_JOB, due, {"battle": battle_id, "pause": pause})
    conn.execute(
        "UPDATE hoss_battles SET deadline_at = ?, timeout_job = ? WHERE id = ?",
        (to_db(due) if due else None, job, battle_id),
    )


def insert(
    conn: sqlite3.Connection,
    now: datetime,
    *,
    player_id: int,
    rank: int,
    key: str,
    seed: int,
    setups: tuple[PlayerSetup, PlayerSetup],
    battle: Battle,
    guild: int | None,
) -> int:
    """A new battle row at the battle's first pause (decisions and rounds are saved by `save`)."""
    return int(
        conn.execute(
            "INSERT INTO hoss_battles (player_id, rank, start_key, seed, player_setup, opponent_setup, state,"
            " created_at, updated_at, guild_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                player_id,
                rank,
                key,
                seed,
                setup_to_json(setups[0]),
                setup_to_json(setups[1]),
                ENGINE.to_json(to_state(battle)),
                to_db(now),
                to_db(now),
                guild,
            ),
        ).fetchone()[0]
    )


# --- the end of a battle -------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleResult:
    status: str  # 'won', 'lost' or 'draw'
    counted: bool  # False: 3 rounds or fewer, neither a win nor a loss, nothing paid
    rounds: int
    reason: str  # hoss.outcome.* key
    scores: tuple[int, ...]
    base: int  # the win or loss gold (x10 on the 10th win)
    tenth_win: bool
    fast_bonus: int
    flawless_bonus: int
    gold: int  # credited for the battle
    wins: int  # counted wins at the rank after this battle
    milestone: int | None  # the notice id of a milestone reached by this win


def result_of(row: BattleRow, state: HossState) -> BattleResult | None:
    """The result and rewards of a finished battle (None while it goes on)."""
    if row.live or row.reward is None:
        return None
    r = row.reward
    return BattleResult(
        status=row.status,
        counted=bool(row.counted),
        rounds=state.round,
        reason=state.reason,
        scores=tuple(state.scores),
        base=r["base"],
        tenth_win=r["tenth_win"],
        fast_bonus=r["fast_bonus"],
        flawless_bonus=r["flawless_bonus"],
        gold=row.gold,
        wins=r["wins"],
        milestone=r["milestone"],
    )


def settle(conn: sqlite3.Connection, now: datetime, row: BattleRow, state: HossState, deaths: int) -> None:
    """End the battle once: status, rank progress, the gold (ledger), a milestone notice. A second call for
    the same battle finds it ended and raises, rolling its unit back: nothing is paid twice."""
    won = PLAYER in state.winners
    status = "won" if won else "lost" if state.winners else "draw"
    progress = conn.execute(
        "SELECT wins FROM hoss_rank_progress WHERE player_id = ? AND rank = ?", (row.player_id, row.rank)
    ).fetchone()
    wins = int(progress[0]) if progress else 0
    reward = battle_reward(row.rank, won=won, rounds=state.round, deaths=deaths, wins_before=wins)
    notice_id = None
    if reward.counted:
        wins = int(
            conn.execute(
                "INSERT INTO hoss_rank_progress (player_id, rank, wins, losses) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (player_id, rank) DO UPDATE SET wins = wins + excluded.wins,"
                " losses = losses + excluded.losses RETURNING wins",
                (row.player_id, row.rank, int(won), int(not won)),
            ).fetchone()[0]
        )
        bonus = milestone_gold(wins) if won else 0
        if bonus:
            found = conn.execute(
                "INSERT INTO hoss_notices (player_id, kind, rank, wins, gold, battle_id, created_at)"
                " VALUES (?, 'milestone', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (row.player_id, row.rank, wins, bonus, row.id, to_db(now)),
            ).fetchone()
            notice_id = int(found[0]) if found else None
            if notice_id is not None:
                announce(conn, NOTICES_TOPIC)  # the processes' "no notice" knowledge is out of date
    details = {**asdict(reward), "deaths": deaths, "wins": wins, "milestone": notice_id}
    ended = conn.execute(
        "UPDATE hoss_battles SET status = ?, counted = ?, reward = ?, gold = ?, ended_at = ?, updated_at = ?,"
        " deadline_at = NULL, timeout_job = NULL WHERE id = ? AND status = 'live'",
        (status, int(reward.counted), json.dumps(details), reward.total, to_db(now), to_db(now), row.id),
    ).rowcount
    if ended != 1:
        raise NotAllowed("hoss.error.ranked.over")
    if reward.total:
        ledger.credit(conn, now, row.player_id, GOLD, reward.total, ledger.Movement(REASON, ref=str(row.id)))


def step(
    conn: sqlite3.Connection,
    now: datetime,
    row: BattleRow,
    battle: Battle,
    decisions: list[Decision],
    records: list[Record],
    pause: int,
) -> None:
    """Save what one use case did to the battle, and settle it if it ended."""
    save(conn, now, row, battle, decisions, records, pause)
    if battle.over:
        settle(conn, now, row, to_state(battle), row.player_deaths + deaths_of_player(records))


# --- reading: rounds, decisions, log, replay --------------------------------------------------------


def rounds(conn: sqlite3.Connection, battle_id: int, after: int = 0) -> list[Record]:
    rows = conn.execute(
        "SELECT record FROM hoss_battle_rounds WHERE battle_id = ? AND round > ? ORDER BY round",
        (battle_id, after),
    )
    return [json.loads(r[0]) for r in rows]


def decisions(conn: sqlite3.Connection, battle_id: int) -> list[Decision]:
    rows = conn.execute(
        "SELECT pause, round, seat, action, by FROM hoss_battle_decisions WHERE battle_id = ? ORDER BY seq",
        (battle_id,),
    )
    return [Decision(int(p), int(r), int(s), json.loads(a), b) for p, r, s, a, b in rows]


def outcome_of(state: HossState) -> dict[str, Any] | None:
    if not state.finished:
        return None
    return {
        "winners": list(state.winners),
        "reason": state.reason,
        "rounds": state.round,
        "scores": list(state.scores),
    }


def log_text(
    row: BattleRow, moves: list[Decision], records: list[Record], outcome: Mapping[str, Any] | None
) -> str:
    """The full log as one JSON document (a file attachment): the inputs (seed, both decks, every
    decision), every round's record, and the outcome (null while the battle goes on)."""
    document = {
        "format": LOG_FORMAT,
        "battle": row.id,
        "rank": row.rank,
        "seed": row.seed,
        "setups": [json.loads(row.player_setup), json.loads(row.opponent_setup)],
        "decisions": [d.to_json() for d in moves],
        "rounds": records,
        "outcome": outcome,
    }
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def stored_log(conn: sqlite3.Connection, row: BattleRow) -> str:
    return log_text(
        row, decisions(conn, row.id), rounds(conn, row.id), outcome_of(ENGINE.from_json(row.state))
    )


def replay_log(conn: sqlite3.Connection, row: BattleRow) -> str:
    """Play the battle again from its seed and its stored decisions, and write its log.

    The decks and card numbers come from the stored state (the battle copied them in at its start), so a
    catalog edit since then changes nothing. The battle runs without any state conversion (the fast path),
    so an identical log also checks the saved states were exact.
    """
    saved = ENGINE.from_json(row.state)
    cards = {card.id: card for card in saved.cards}
    battle = Battle.start((saved.seats[0].deck, saved.seats[1].deck), cards, row.seed, log=True)
    moves = decisions(conn, row.id)
    for move in moves:
        if not battle.waiting():
            battle.resume()
        battle.answer(move.seat, ENGINE.action_from_json(move.action))
    if not battle.over and not battle.waiting():
        battle.resume()
    return log_text(row, moves, battle.records, outcome_of(to_state(battle)))
