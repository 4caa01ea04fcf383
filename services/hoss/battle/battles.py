"""Ranked battles in the database: the battle row, driving the engine between the player's pauses, the
decision deadline, the end of a battle (result, rank progress, gold, milestone notice), the stored rounds
and decisions (their log and replay: `battle_replay.py`). The public API is `services/hoss/battle/ranked.py`;
the rules (ranks, rewards) are `engine/hoss/ranks.py`.

A battle is a match of the shared block (`services/shared/matches.py`, game 'hoss', kind 'ranked'): seat 0
the player, seat 1 the AI; its number (`matches.number`, `MatchRules.numbered`) is the battle id players,
buttons, jobs and ledger refs name. These functions run inside a write unit (`Database.write`). A battle
is saved at every pause where the player decides: the engine state, the decisions of both seats in the
order they were applied (the match's moves, with their pause and round), and one log record per round
(`hoss_battle_rounds`). Between two such pauses the engine runs deterministically from the saved state, so
a crash mid-unit loses nothing: the unit rolls back and the same step gives the same rounds. Every save is
the block's, guarded by the version read (and the caller checks the pause number), so two writers can
never both apply a decision to the same pause; a step saves once, its end included (docs/hoss/ranked.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

import orjson

from core.clock import to_db
from core.errors import NotAllowed, NotFound
from engine.hoss import (
    ENGINE,
    Battle,
    HossAction,
    HossState,
    Move,
    Pass,
    Policy,
    Record,
    battle_reward,
    from_state,
    milestone_gold,
    strong_policy,
    to_state,
)
from engine.protocol import PlayerSetup
from services.hoss.arena import results as arena_results
from services.hoss.arena.results import ArenaReward
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra import scheduler as jobs
from services.infra.players import summary_changed
from services.shared.matches import Author, Match, Matches, MatchRules, MatchTexts, Played, StaleMatch
from store.connection import Connection
from store.db import announce

PLAYER = 0  # the player's seat
AI_SEAT = 1
DECISION_TIMEOUT = timedelta(minutes=2)
TIMEOUT_JOB = "hoss.decision_timeout"  # also the message the view shows for a pause the AI took
# Between two rounds where the player may only move a Défenseur (battles started with the engine's
# `move_pauses` option): the battle waits this long, the pace the battle message shows its rounds at, then
# the next round is played (`hoss:next_round`).
ROUND_STOP = timedelta(seconds=5)
ROUND_JOB = "hoss:next_round"
NOTICES_TOPIC = "hoss:notices"  # announced by a commit that gave a player a milestone notice
REASON = "hoss.ranked"  # ledger reason of a battle's gold (ref = the battle id)
AI: Policy = strong_policy()
SEAT_PREFIX = "a"  # the player's creature ids are a1..a6 (engine.hoss.fighters.uid_of)
KIND = "ranked"  # the matches' kind of a ranked battle
KEPT_STATES = 256  # battles' states kept by their JSON (services/shared/kept_states.py): a few per battle
RULES: MatchRules[HossState] = MatchRules(
    "hoss",
    ENGINE,
    MatchTexts(stale="hoss.error.ranked.stale", not_found="hoss.error.ranked.not_found"),
    numbered=True,
    kept_states=KEPT_STATES,  # the start's attach, « Décider » and each answer find the state last saved
)
MATCHES: Matches[HossState, Match[HossState]] = Matches(RULES, Match)


@dataclass(frozen=True)
class Decision:
    pause: int  # the player's pause it belongs to
    round: int  # rounds played before it
    seat: int
    action: dict[str, Any]  # engine action JSON
    by: Author  # 'player', 'ai' (the opponent), 'timeout' or 'skip' (the AI for the player)
    between: bool = False  # the player's pass when a stop between two rounds ran out (`ROUND_JOB`)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BattleRow:
    match: Match[HossState] = field(repr=False, compare=False)  # the row of the shared block
    id: int  # the battle's number (`matches.number`): what players, buttons, jobs and ledger refs name
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
    counted: bool | None
    reward: dict[str, Any] | None
    gold: int
    guild_id: int | None  # where it was started; None in direct messages
    message_item: int | None = None  # the outbox item of its public message (services/hoss/battle/edits.py)

    @property
    def live(self) -> bool:
        return self.status == "live"

    @property
    def match_id(self) -> int:
        """The match's id, which the moves, the rounds and the notices name (not the battle's number)."""
        return self.match.id

    @property
    def hoss_state(self) -> HossState:
        """The engine state, as the block read it or as the last save wrote it."""
        assert self.match.state is not None
        return self.match.state

    @property
    def state(self) -> str:
        """The engine state's JSON (written only when asked: a battle's units work on `hoss_state`)."""
        return ENGINE.to_json(self.hoss_state)

    @property
    def player_setup(self) -> str:
        return json.dumps(self.match.setup[0], sort_keys=True)

    @property
    def opponent_setup(self) -> str:
        return json.dumps(self.match.setup[1], sort_keys=True)


def setup_json(setup: PlayerSetup) -> dict[str, Any]:
    return {"seat": setup.seat, "player_id": setup.player_id, "deck": list(setup.deck), "extra": setup.extra}


def _row(match: Match[HossState]) -> BattleRow:
    """The battle of a match row. The rounds the player already viewed are not part of it: only `view`
    needs them (`viewed_up_to`), so no other unit reads them."""
    data, result = match.data, match.result or {}
    player, number = match.seats[PLAYER], match.number
    assert match.state is not None
    assert match.seed is not None
    assert player is not None
    assert number is not None
    return BattleRow(
        match=match,
        id=number,
        player_id=player,
        rank=int(data["rank"]),
        seed=match.seed,
        status="live" if match.status == "live" else str(result["status"]),
        pause=int(data["pause"]),
        version=match.version,
        round=int(data["round"]),
        player_deaths=int(data["player_deaths"]),
        deadline_at=match.deadline_at,
        timeout_job=match.deadline_job,
        counted=None if "counted" not in result else bool(result["counted"]),
        reward=result.get("reward"),
        gold=int(result.get("gold", 0)),
        guild_id=match.guild_id,
        message_item=match.message_item,
    )


def load(conn: Connection, battle_id: int) -> BattleRow | None:
    """The battle of that number, wherever it was started (ids the bot wrote itself: jobs, its own units)."""
    try:
        match = MATCHES.number_trusted(conn, battle_id)
    except NotFound:
        return None
    return _row(match)


def owned(conn: Connection, player_id: int, battle_id: int, guild: int | None = None) -> BattleRow:
    """The player's battle, reached from the place it was started (`guild`: the server the interaction
    runs in, None in direct messages). Another player's battle, or one of another server, is 'not found'
    (ids are not secrets, battles are; a forged button must not drive a battle posted elsewhere)."""
    row = _row(MATCHES.load_number(conn, battle_id, guild=guild))
    if row.player_id != player_id:
        raise NotFound(RULES.texts.not_found, id=battle_id)
    return row


def live_battle_id(conn: Connection, player_id: int) -> int | None:
    """The player's live battle. One at most: the start unit checks it (the block has no per-game unique
    index; the single writer runs that check and the creation in one transaction)."""
    return MATCHES.live_number(conn, player_id)


def live_and_next(conn: Connection, player_id: int) -> tuple[int | None, int]:
    """`live_battle_id`, and the number of a battle the same unit begins (`begin`'s `number`): one
    statement for the start's check and its new battle's number."""
    return MATCHES.live_and_next(conn, player_id)


# --- driving the engine -----------------------------------------------------------------------------


def between_rounds(battle: Battle) -> bool:
    """The battle waits between two rounds only for a possible Défenseur move of the player: nothing is
    owed (no card to play, no path, no placement), so it goes on by itself after `ROUND_STOP`."""
    return only_moves(battle.legal_actions(PLAYER))


def only_moves(legal: Sequence[HossAction]) -> bool:
    """Legal actions that owe nothing: Défenseur moves and the pass that lets the next round come."""
    return bool(legal) and all(isinstance(action, Move | Pass) for action in legal)


def restore(row: BattleRow) -> Battle:
    """The live battle at its saved pause, stats computed (the AI reads them), logging on."""
    return from_state(row.hoss_state, log=True, refresh=True)


def answer_all(
    battle: Battle, seat: int, policy: Policy, by: Author, pause: int, out: list[Decision]
) -> None:
    """Let `policy` take every decision `seat` still owes at this pause."""
    legal = battle.legal_actions(seat)
    while legal:
        action = policy(battle, seat, legal)
        apply(battle, seat, action, by, pause, out)
        legal = battle.legal_actions(seat)


def apply(
    battle: Battle,
    seat: int,
    action: HossAction,
    by: Author,
    pause: int,
    out: list[Decision],
    *,
    between: bool = False,
) -> None:
    battle.answer(seat, action)  # raises IllegalAction, leaving the battle unchanged
    out.append(Decision(pause, battle.round, seat, ENGINE.action_to_json(action), by, between))


def advance(
    battle: Battle,
    pause: int,
    decisions: list[Decision],
    records: list[Record],
    *,
    for_player: Policy | None = None,
    by: Author = "skip",
) -> int:
    """Run the battle until the player owes a decision, or to its end; returns the pause number then.

    The AI answers the opponent's decisions (strong policy); with `for_player` it also answers the
    player's, recorded as `by` (a skip to the end, or the rest of a battle after a missed deadline).
    Every pause where the player owes a decision gets the next number.
    """
    while not battle.over:
        if PLAYER in battle.waiting():
            if for_player is None:
                break
            answer_all(battle, PLAYER, for_player, by, pause, decisions)
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


def _logged(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    battle: Battle,
    decisions: list[Decision],
    records: list[Record],
    pause: int,
) -> dict[str, Any]:
    """Log the step's decisions (the match's moves) and rounds; returns the fields of its one save."""
    _log(conn, now, row.match_id, decisions, records)
    data = {
        **row.match.data,
        "pause": pause,
        "round": battle.round,
        "player_deaths": row.player_deaths + deaths_of_player(records),
    }
    return {"state": to_state(battle), "data": data}


def _log(
    conn: Connection, now: datetime, match_id: int, decisions: list[Decision], records: list[Record]
) -> None:
    MATCHES.record(
        conn,
        now,
        match_id,
        [
            Played(
                d.seat,
                d.action,
                d.by,
                {"pause": d.pause, "round": d.round} | ({"between": True} if d.between else {}),
            )
            for d in decisions
        ],
    )
    conn.executemany(
        "INSERT INTO hoss_battle_rounds (match_id, round, record) VALUES (?, ?, ?)",
        [(match_id, r["round"], orjson.dumps(r, option=orjson.OPT_SORT_KEYS).decode()) for r in records],
    )


def _due(now: datetime, battle: Battle) -> tuple[str, datetime]:
    """A new pause's job and when it is due: 2 minutes to decide, or the next round after `ROUND_STOP`
    when the battle only waits between two rounds for a possible Défenseur move."""
    if between_rounds(battle):
        return ROUND_JOB, now + ROUND_STOP
    return TIMEOUT_JOB, now + DECISION_TIMEOUT


def _deadline(conn: Connection, now: datetime, row: BattleRow, battle: Battle, pause: int) -> dict[str, Any]:
    """A new pause's deadline fields (`_due`; the last pause's job withdrawn)."""
    kind, due = _due(now, battle)
    return MATCHES.deadline(conn, now, row.match, kind, due, {"battle": row.id, "pause": pause})


def save(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    battle: Battle,
    decisions: list[Decision],
    records: list[Record],
    pause: int,
) -> BattleRow:
    """Store the step (one save): new decisions and rounds, the state, the pause, and a new deadline when
    the pause changed (`_deadline`); refused if anyone saved in between. Returns the battle as saved."""
    if not row.live:
        raise StaleMatch(RULES.texts.stale)
    changes = _logged(conn, now, row, battle, decisions, records, pause)
    if pause != row.pause and not battle.over:
        changes.update(_deadline(conn, now, row, battle, pause))
    return _row(MATCHES.save(conn, row.match, now, **changes))


def begin(
    conn: Connection,
    now: datetime,
    *,
    player_id: int,
    rank: int,
    key: str,
    seed: int,
    setups: tuple[PlayerSetup, PlayerSetup],
    battle: Battle,
    guild: int | None,
    number: int,
    created: Callable[[BattleRow], None] | None = None,
) -> tuple[BattleRow, list[Record]]:
    """A new battle run to the player's first decision (the AI answering the opponent's) and created
    there, live at version 0, its moves and rounds logged and its deadline armed: no save rewrites the
    state just created (issue 39). `number`: the one `live_and_next` read in this unit, which the
    deadline's job names, so that the insert writes the deadline (no update after it). Returns it and its
    rounds; one over already is ended by `step`. Its message is shown where the player asked; `created`
    runs first on the new row (an Arena attack)."""
    decisions: list[Decision] = []
    records: list[Record] = []
    pause = advance(battle, 1 if PLAYER in battle.waiting() else 0, decisions, records)
    data = {"rank": rank, "pause": 0, "round": 0, "player_deaths": 0}
    deadline = None
    if not battle.over:
        data |= {"pause": pause, "round": battle.round, "player_deaths": deaths_of_player(records)}
        kind, due = _due(now, battle)
        job = jobs.schedule(conn, now, kind, due, {"battle": number, "pause": pause})
        deadline = {"deadline_at": due, "deadline_job": job}
    match = MATCHES.create(
        conn,
        now,
        guild_id=guild,
        channel_id=None,
        seats=(player_id, None),
        kind=KIND,
        status="live",
        request_key=f"hoss:ranked:{key}",
        seed=seed,
        setup=[setup_json(setups[0]), setup_json(setups[1])],
        state=to_state(battle),
        data=data,
        number=number,
        deadline=deadline,
    )
    row = _row(match)
    if created is not None:
        created(row)
    if battle.over:
        return step(conn, now, row, battle, decisions, records, pause), records
    _log(conn, now, match.id, decisions, records)
    return row, records


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
    arena: ArenaReward | None = None  # an Arena attack's points and gold, instead of the ranked reward


def result_of(row: BattleRow, state: HossState) -> BattleResult | None:
    """The result and rewards of a finished battle (None while it goes on)."""
    if row.live or row.reward is None:
        return None
    r = row.reward
    arena = r.get("arena")  # an Arena battle's reward holds only this (services/hoss/arena/results.py)
    return BattleResult(
        status=row.status,
        counted=bool(row.counted),
        rounds=state.round,
        reason=state.reason,
        scores=tuple(state.scores),
        base=r.get("base", 0),
        tenth_win=r.get("tenth_win", False),
        fast_bonus=r.get("fast_bonus", 0),
        flawless_bonus=r.get("flawless_bonus", 0),
        gold=row.gold,
        wins=r.get("wins", 0),
        milestone=r.get("milestone"),
        arena=None if arena is None else ArenaReward.from_json(arena),
    )


def settle(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    state: HossState,
    deaths: int,
    stepped: Mapping[str, Any] | None = None,
) -> BattleRow:
    """End the battle once: status, rank progress, the gold (ledger), a milestone notice, in one save that
    also holds `stepped` (the fields of the step that ended it, `step`); returns the battle as ended. A
    second call for the same battle finds it ended (or, holding a row read before, stale) and raises,
    rolling its unit back: nothing is paid twice."""
    if not row.live:
        raise NotAllowed("hoss.error.ranked.over")
    won = PLAYER in state.winners
    status = "won" if won else "lost" if state.winners else "draw"
    arena = arena_results.settle_battle(conn, now, row.id, state.winners)
    if arena is not None:  # an Arena attack: its points and gold, no rank progress, no ranked gold
        return end(conn, now, row.id, status, arena, int(arena["arena"]["attacker_gold"]), stepped=stepped)
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
                " ON CONFLICT (player_id, rank) DO UPDATE SET wins = hoss_rank_progress.wins + excluded.wins,"
                " losses = hoss_rank_progress.losses + excluded.losses RETURNING wins",
                (row.player_id, row.rank, int(won), int(not won)),
            ).fetchone()[0]
        )
        summary_changed(conn, row.player_id)
        bonus = milestone_gold(wins) if won else 0
        if bonus:
            found = conn.execute(
                "INSERT INTO hoss_notices (player_id, kind, rank, wins, gold, match_id, created_at)"
                " VALUES (?, 'milestone', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (row.player_id, row.rank, wins, bonus, row.match_id, to_db(now)),
            ).fetchone()
            notice_id = int(found[0]) if found else None
            if notice_id is not None:
                announce(conn, NOTICES_TOPIC)  # the processes' "no notice" knowledge is out of date
    details = {**asdict(reward), "deaths": deaths, "wins": wins, "milestone": notice_id}
    ended = end(conn, now, row.id, status, details, reward.total, counted=reward.counted, stepped=stepped)
    if reward.total:
        ledger.credit(conn, now, row.player_id, GOLD, reward.total, ledger.Movement(REASON, ref=str(row.id)))
    return ended


def end(
    conn: Connection,
    now: datetime,
    battle_id: int,
    status: str,
    details: Mapping[str, Any],
    gold: int,
    *,
    counted: bool = True,
    stepped: Mapping[str, Any] | None = None,
) -> BattleRow:
    """The transition 'live' -> `status` with its reward, once (the match goes 'over', one save holding
    `stepped` too): a second end raises, rolling back its unit. Returns the battle as ended."""
    row = load(conn, battle_id)
    if row is None or not row.live:
        raise NotAllowed("hoss.error.ranked.over")
    result = {"status": status, "counted": counted, "reward": dict(details), "gold": gold}
    ended = MATCHES.end(conn, now, row.match, "over", result=result, **(stepped or {}))
    return _row(ended)


def step(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    battle: Battle,
    decisions: list[Decision],
    records: list[Record],
    pause: int,
) -> BattleRow:
    """Save what one use case did to the battle, and settle it if it ended (still one save); returns the
    battle as saved, which the rest of the unit uses instead of reading it again."""
    if not battle.over:
        return save(conn, now, row, battle, decisions, records, pause)
    changes = _logged(conn, now, row, battle, decisions, records, pause)
    return settle(conn, now, row, to_state(battle), row.player_deaths + deaths_of_player(records), changes)
