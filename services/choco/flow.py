"""One way a Chocobataille game moves on, whoever moves it (a player, a deadline, a referee).

`advance` runs inside the caller's write unit: it saves the new engine state (conditional on the version
the caller read), writes the log, queues the referee's post and the hands, then either starts the clock of
the next call or ends the game. `finish` ends it: result rows, the league's reward card, the last post.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.choco import ChocoCatalog, ChocoState
from engine.protocol import Event
from services.choco import posts
from services.choco.deadlines import disarm, start_clock
from services.choco.economy import LEAGUE_KEYS
from services.choco.game_store import ENGINE, GameRow, log, save
from services.choco.leagues import record_result, reward_card
from services.choco.text import card_name
from services.platform.messages import Text


def title(game: GameRow) -> Text:
    league = Text(LEAGUE_KEYS[game.league])
    if game.state.turn == 0:
        return Text("choco.play.title_prep", {"id": game.id, "league": league})
    return Text("choco.play.title_turn", {"id": game.id, "league": league, "turn": game.state.turn})


def public_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The log keeps every event (it is the referee's record), hidden ones marked with who may see them."""
    return [e.to_json() for e in events]


def advance(
    conn: sqlite3.Connection,
    now: datetime,
    game: GameRow,
    state: ChocoState,
    events: Sequence[Event],
    catalog: ChocoCatalog,
    rng: random.Random,
    *,
    actor: int | None,
    kind: str,
    data: dict[str, Any] | None = None,
    notes: Sequence[Text] = (),
    refused: Sequence[Text] = (),
    **changes: Any,
) -> GameRow:
    before = game.state
    turn_before = (before.turn, before.active)
    game = save(conn, game, now, state=state, **changes)
    log(conn, game, now, actor, kind, {**(data or {}), "events": public_events(events)})
    if state.finished:
        return finish(
            conn, now, game, catalog, rng, before=before, events=events, notes=notes, refused=refused
        )
    new_call = (state.turn, state.active) != turn_before
    if new_call:
        game = start_clock(conn, now, game)
    posts.resolution(
        conn,
        now,
        game,
        catalog,
        title=title(game),
        before=before,
        events=events,
        notes=notes,
        refused=refused,
    )
    if new_call:
        for seat in game.to_act():
            posts.send_hand(conn, now, game, seat, catalog)
    return game


def finish(
    conn: sqlite3.Connection,
    now: datetime,
    game: GameRow,
    catalog: ChocoCatalog,
    rng: random.Random,
    *,
    before: ChocoState,
    events: Sequence[Event],
    notes: Sequence[Text] = (),
    refused: Sequence[Text] = (),
    referee_winner: int | None = None,
    by_referee: bool = False,
) -> GameRow:
    """End the game once: results for both players, the winner's reward card, the final post."""
    state = game.state
    outcome = ENGINE.outcome(state) if not by_referee else None
    if by_referee:
        winner, result = referee_winner, "referee"
    elif outcome is None or outcome.draw:
        winner, result = None, "draw"
    else:
        winner = outcome.winners[0]
        result = {"voluntary": "forfeit_voluntary", "absence": "forfeit_absence"}.get(
            state.forfeit or "", "win"
        )
    reward: int | None = None
    reward_id: str | None = None
    for seat, player in enumerate(game.seats):
        verdict = "draw" if winner is None else ("win" if seat == winner else "loss")
        absence = result == "forfeit_absence" and verdict == "loss"
        record_result(
            conn,
            game.guild_id,
            player,
            game.league,
            verdict,
            absence_forfeit=absence,
            cards_lost=state.combat_losses(seat),
        )
    if winner is not None:
        reward, reward_id = reward_card(
            conn, now, game.seats[winner], game.league, rng, f"choco:game:{game.id}"
        )
    disarm(conn, game)
    game = save(
        conn,
        game,
        now,
        status="over",
        result=result,
        winner_seat=winner,
        reward_card=reward,
        deadline_at=None,
        pass_at=None,
    )
    log(conn, game, now, None, "end", {"result": result, "winner": winner, "reward": reward_id})
    after: list[Text] = []
    if reward_id is not None and winner is not None:
        after.append(
            Text(
                "choco.play.reward",
                {"player": posts.names(game)[winner], "card": card_name(catalog, reward_id)},
            )
        )
    posts.resolution(
        conn,
        now,
        game,
        catalog,
        title=title(game),
        before=before,
        events=events,
        notes=notes,
        refused=refused,
        outcome=outcome,
        after=after,
    )
    return game


@dataclass(frozen=True)
class Flow:
    """The catalog and the draws every move of a game needs, bound once for the services that move games."""

    catalog: ChocoCatalog
    rng: random.Random

    def advance(
        self,
        conn: sqlite3.Connection,
        now: datetime,
        game: GameRow,
        state: ChocoState,
        events: Sequence[Event],
        **how: Any,
    ) -> GameRow:
        """`advance` with this flow's catalog and draws; `how` is its keyword arguments."""
        return advance(conn, now, game, state, events, self.catalog, self.rng, **how)

    def finish(self, conn: sqlite3.Connection, now: datetime, game: GameRow, **how: Any) -> GameRow:
        return finish(conn, now, game, self.catalog, self.rng, **how)
