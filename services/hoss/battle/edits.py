"""A ranked battle's public message, kept up to date by the outbox: the message an interaction showed is
recorded as an outbox item (`attach`), and every unit that plays rounds queues, in that same unit, one
edit of it per round, each due `pace` after the previous one on the service's clock (`queue_edits`).

So the rounds are shown one by one whoever moved the battle (the player, the 2-minute deadline), a
restart delivers the edits still owed at their times, and a rate-limited edit is retried by the outbox
like any other; a test or the sandbox moves its ManualClock to see them. « Passer à la fin » is the
exception: it asked for the end, so the message shows the final board at once (`show_at_once`).
Decisions: docs/hoss/ranked.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from core.settings import SUPPORTED_LOCALES
from engine.hoss import HossCatalog, Record
from services.hoss.arena import results as arena_results
from services.hoss.arena.results import ArenaTag
from services.hoss.battle import battle_log, battles
from services.hoss.battle import replay as battle_replay
from services.hoss.battle.battles import BattleRow, Decision
from services.hoss.battle.log import log_files
from services.hoss.battle.view import Board, Now, boards, player_view
from services.hoss.render.battle import battle_spec
from services.infra.messages import MessageSpec, Target
from services.infra.outbox import drop_waiting_edits, edits_waiting, enqueue, record_sent
from store.connection import Connection

ROUND_PACE = timedelta(seconds=5)  # between two rounds shown on the battle message


def now_of(conn: Connection, row: BattleRow, moves: Sequence[Decision] | None = None) -> Now:
    """While live, `ai_decided` says the AI took the player's previous pause; once over, that the AI
    played the end of the battle for the player (their last decision was the deadline's). `moves`: the
    battle's decisions, when the caller read them already."""
    done = battle_log.decisions_of(conn, row.match_id) if moves is None else moves
    if row.live:
        return _now(row, arena_results.tag_of(conn, row.id), row.pause - 1 in battle_log.timeout_pauses(done))
    return _now(row, arena_results.tag_of(conn, row.id), battle_log.last_decided_by(done) == "timeout")


def _now(row: BattleRow, arena: ArenaTag | None, timed_out: bool) -> Now:
    state = row.hoss_state
    return Now(
        arena=arena,
        battle_id=row.id,
        rank=row.rank,
        owner=row.player_id,
        round=row.round,
        status=row.status,
        pause=row.pause,
        deadline=row.deadline_at,
        ai_decided=timed_out,
        result=battles.result_of(row, state),
        seats=player_view(state).seats,
    )


def _spec(
    conn: Connection,
    row: BattleRow,
    board: Board,
    catalog: HossCatalog,
    locales: Sequence[str] = SUPPORTED_LOCALES,
    read: tuple[Sequence[Decision], list[Record]] | None = None,
    written_in: str | None = None,
) -> MessageSpec:
    """`read`: the battle's decisions and rounds, when the caller read them already (its log's inputs);
    `written_in`: as `battle_spec`'s."""
    if not (board.final and not row.live):
        return battle_spec(board, catalog, locales=locales, written_in=written_in)
    files = log_files(row.id, battle_replay.stored_document(conn, row, read), catalog)
    return battle_spec(board, catalog, files, locales, written_in)


def board_spec(
    conn: Connection, row: BattleRow, catalog: HossCatalog, locales: Sequence[str] = SUPPORTED_LOCALES
) -> MessageSpec:
    """The battle message now: its latest round and what comes next (the log attached once over), written
    in `locales` (every language for the outbox, which picks the channel's when it delivers). The rounds
    and, once over, the decisions are read once, for the board and the log both."""
    records = battle_log.rounds_of(conn, row.match_id)
    moves = battle_log.decisions_of(conn, row.match_id)
    (board,) = boards(now_of(conn, row, moves), records[:-1], records[-1:])
    return _spec(conn, row, board, catalog, locales, (moves, records))


@dataclass(frozen=True)
class Shown:
    """A battle message as an interaction response shows it: the spec, written in `locales` (only the
    language the response is shown in), the last round it shows and the battle's version it was drawn
    from. The response goes out before the message can be attached, and a unit may play rounds in
    between."""

    spec: MessageSpec
    round: int
    version: int
    locales: tuple[str, ...] = SUPPORTED_LOCALES
    match_id: int = 0  # the match it was drawn from (`attach` finds it still at `version` without a read)


def shown_now(
    conn: Connection, row: BattleRow, catalog: HossCatalog, locales: Sequence[str] = SUPPORTED_LOCALES
) -> Shown:
    """The battle message now (`board_spec`) with the round it shows."""
    spec = board_spec(conn, row, catalog, locales)
    return Shown(spec, row.round, row.version, tuple(locales), row.match_id)


def shown_begun(
    row: BattleRow, records: Sequence[Record], catalog: HossCatalog, locales: Sequence[str]
) -> Shown:
    """`shown_now` for a live ranked battle its unit has just begun (`battles.begin`): its rounds are
    the ones that unit played, no deadline has passed and no Arena attack names it, so nothing is read
    back to draw it."""
    (board,) = boards(_now(row, None, False), records[:-1], records[-1:])
    spec = battle_spec(board, catalog, locales=locales)
    return Shown(spec, row.round, row.version, tuple(locales), row.match_id)


def attach_unchanged(
    conn: Connection, now: datetime, target: Target, message_id: int, shown: Shown
) -> int | None:
    """`attach` for a battle still at the version `shown` was drawn from, in two statements: the message
    recorded, and made the match's only if no save came in between (then no round was played since and
    the board is the one shown: nothing to queue, nothing to read). Returns the recorded item, and None
    when the battle was saved since: `attach` then does the rest with that item. `shown` comes from the
    service's own start or screen, which checked the battle's player and place."""
    item = record_sent(conn, now, target, shown.spec, message_id)
    if shown.match_id and battles.MATCHES.set_message(conn, shown.match_id, item, version=shown.version):
        return None
    return item


def attach(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    target: Target,
    message_id: int,
    shown: Shown,
    catalog: HossCatalog,
    pace: timedelta,
    item: int | None = None,
) -> int:
    """Make `message_id` (in `target`'s channel) the battle's message: later rounds edit it. A unit
    that played rounds after the response was built (a click that committed before this attach) queued
    no edit, having no message to edit: the rounds after `shown.round` are queued here (the final board
    alone after « Passer à la fin »), or one edit when the battle changed without a round (e.g.
    abandoned). A battle still at the version `shown` was drawn from shows the same board: whatever the
    board shows (rounds, decisions, deadline, result) is written with a save of the match, so it is not
    drawn again to be compared. Edits still owed to a previous message of the battle end on that message
    as queued. `item`: the message already recorded (`attach_unchanged`)."""
    if item is None:
        item = record_sent(conn, now, target, shown.spec, message_id)
    battles.MATCHES.set_message(conn, row.match_id, item)
    later = battle_log.rounds_of(conn, row.match_id, shown.round)
    if (
        later
        and not row.live
        and battle_log.last_decided_by(battle_log.decisions_of(conn, row.match_id)) == "skip"
    ):
        show_at_once(conn, now, replace(row, message_item=item), catalog)  # the result, not the rounds
    elif later:
        queue_edits(conn, now, replace(row, message_item=item), later, catalog, pace)
    elif row.version != shown.version and board_spec(conn, row, catalog, shown.locales) != shown.spec:
        queue_now(conn, now, row.id, catalog, pace)
    return item


def queue_edits(
    conn: Connection,
    now: datetime,
    row: BattleRow,
    records: Sequence[Mapping[str, Any]],
    catalog: HossCatalog,
    pace: timedelta,
    moves: Sequence[Decision] | None = None,
    written_in: str | None = None,
) -> int:
    """Queue one edit of the battle's message per round just played (`records`), the last one showing
    the battle now (`row`, as the unit's step saved it); the first is due now, or `pace` after the last
    edit still waiting. Returns how many were queued (none while the battle has no message, or when no
    round was played). `moves`: as `now_of`'s; the rounds and decisions read here are the final board's
    log's too. `written_in`: the language the outbox shows the channel's message in, when the caller
    knows it (a click in that channel): the boards are written in it alone (`battle_spec`), else in
    every language."""
    if row.message_item is None or not records:
        return 0
    first_new = int(records[0]["round"])
    every = battle_log.rounds_of(conn, row.match_id)
    earlier = [r for r in every if int(r["round"]) < first_new]
    done = battle_log.decisions_of(conn, row.match_id) if moves is None else moves
    shown = boards(now_of(conn, row, done), earlier, records)
    read = (done, every)  # the final board's log, once over
    specs = [_spec(conn, row, board, catalog, read=read, written_in=written_in) for board in shown]
    _enqueue(conn, now, row, specs, pace)
    return len(shown)


def queue_now(conn: Connection, now: datetime, battle_id: int, catalog: HossCatalog, pace: timedelta) -> bool:
    """Queue one edit showing the battle as it is now, after the edits still waiting (a battle that
    ended without a round, e.g. abandoned); False while the battle has no message."""
    row = battles.load(conn, battle_id)
    assert row is not None
    if row.message_item is None:
        return False
    _enqueue(conn, now, row, [board_spec(conn, row, catalog)], pace)
    return True


def show_at_once(conn: Connection, now: datetime, row: BattleRow, catalog: HossCatalog) -> bool:
    """Queue one edit showing the battle as it is now (`row`, as the unit saved it), due at once, in place
    of the rounds still waiting to be shown (« Passer à la fin »: the final board and the result, not the
    rounds 5 s apart); an edit already due goes first. False while the battle has no message."""
    if row.message_item is None:
        return False
    drop_waiting_edits(conn, row.message_item, now)
    waiting = edits_waiting(conn, row.message_item)
    due = now if waiting is None else max(now, waiting)
    target = _target(conn, row.message_item)
    enqueue(conn, now, target, board_spec(conn, row, catalog), edit_of=row.message_item, not_before=due)
    return True


def _target(conn: Connection, item: int) -> Target:
    message = conn.execute("SELECT target_id, players, guild_id FROM outbox WHERE id = ?", (item,)).fetchone()
    return Target("channel", int(message[0]), players=tuple(json.loads(message[1])), guild_id=message[2])


def _enqueue(
    conn: Connection, now: datetime, row: BattleRow, specs: Sequence[MessageSpec], pace: timedelta
) -> None:
    """The edits of the battle's message, `pace` apart, the first due now or `pace` after the last edit
    still waiting."""
    assert row.message_item is not None
    target = _target(conn, row.message_item)
    waiting = edits_waiting(conn, row.message_item)
    due = now if waiting is None else max(now, waiting + pace)
    for index, spec in enumerate(specs):
        enqueue(conn, now, target, spec, edit_of=row.message_item, not_before=due + index * pace)


def edits_owed(conn: Connection, row: BattleRow, message_id: int) -> bool:
    """Whether the outbox still owes `message_id`, the battle's message, an edit."""
    if row.message_item is None:
        return False
    sent = conn.execute("SELECT sent_message_id FROM outbox WHERE id = ?", (row.message_item,)).fetchone()
    return sent is not None and sent[0] == message_id and edits_waiting(conn, row.message_item) is not None
