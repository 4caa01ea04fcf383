"""A ranked battle's log and its replay: the inputs (seed, both decks, every decision), every round's
record and the outcome as one JSON document, read from the stored battle or played again from its seed
and decisions (`replay_log`, which an identical text checks against the saved states). Players read it
once the battle is over (docs/hoss/ranked.md, "Who may replay"); `battle_log.py` tells it in words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from core.errors import NotAllowed, NotFound
from engine.hoss import ENGINE, Battle, HossState, Record, to_state
from services.hoss.battle.battle_log import decisions, decisions_of, rounds_of
from services.hoss.battle.battles import BattleRow, Decision, load
from store.connection import Connection

LOG_FORMAT = "hoss-ranked-log/1"


def outcome_of(state: HossState) -> dict[str, Any] | None:
    if not state.finished:
        return None
    return {
        "winners": list(state.winners),
        "reason": state.reason,
        "rounds": state.round,
        "scores": list(state.scores),
    }


def log_document(
    row: BattleRow, moves: Sequence[Decision], records: list[Record], outcome: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The full log: the inputs (seed, both decks, every decision), every round's record, and the outcome
    (null while the battle goes on)."""
    return {
        "format": LOG_FORMAT,
        "battle": row.id,
        "rank": row.rank,
        "seed": row.seed,
        "setups": [json.loads(row.player_setup), json.loads(row.opponent_setup)],
        "decisions": [d.to_json() for d in moves],
        "rounds": records,
        "outcome": outcome,
    }


def log_json(document: Mapping[str, Any]) -> str:
    """The log as one JSON document (a file attachment): keys sorted, compact, non-ASCII text as it is
    (what `json.dumps(…, sort_keys=True, ensure_ascii=False, separators=(",", ":"))` writes, by orjson)."""
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS).decode()


def log_text(
    row: BattleRow, moves: Sequence[Decision], records: list[Record], outcome: Mapping[str, Any] | None
) -> str:
    return log_json(log_document(row, moves, records, outcome))


def stored_log(
    conn: Connection, row: BattleRow, read: tuple[Sequence[Decision], list[Record]] | None = None
) -> str:
    return log_json(stored_document(conn, row, read))


def stored_document(
    conn: Connection, row: BattleRow, read: tuple[Sequence[Decision], list[Record]] | None = None
) -> dict[str, Any]:
    """The stored battle's log; `read`: its decisions and rounds, when the caller read them already."""
    moves, records = (
        read if read is not None else (decisions_of(conn, row.match_id), rounds_of(conn, row.match_id))
    )
    return log_document(row, moves, records, outcome_of(row.hoss_state))


def replay_log(conn: Connection, row: BattleRow) -> str:
    """Play the battle again from its seed and its stored decisions, and write its log.

    The decks and card numbers come from the stored state (the battle copied them in at its start), so a
    catalog edit since then changes nothing. The battle runs without any state conversion (the fast path),
    so an identical log also checks the saved states were exact.
    """
    saved = row.hoss_state
    cards = {card.id: card for card in saved.cards}
    decks = (saved.seats[0].deck, saved.seats[1].deck)
    battle = Battle.start(decks, cards, row.seed, log=True, move_pauses=saved.move_pauses)
    moves = decisions(conn, row.id)
    for move in moves:
        if not battle.waiting():
            battle.resume()
        battle.answer(move.seat, ENGINE.action_from_json(move.action))
    if not battle.over and not battle.waiting():
        battle.resume()
    return log_text(row, moves, battle.records, outcome_of(to_state(battle)))


def replayable(conn: Connection, viewer: int, battle_id: int, guild: int | None) -> BattleRow:
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
