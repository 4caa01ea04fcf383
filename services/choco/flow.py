"""One way a Chocobataille game moves on, whoever moves it (a player, a deadline, a referee).

`advance` runs inside the caller's write unit: it saves the new engine state (conditional on the version
the caller read), writes the log, queues the referee's post and the hands, then either starts the clock of
the next call or ends the game. `finish` ends it: result rows, the league's reward card, the last post.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from engine.choco import ChocoCatalog, ChocoState, Prepare, Turn, ai_turn
from engine.protocol import Event
from services.choco import posts
from services.choco.deadlines import clock_changes, disarm, schedule_jobs
from services.choco.economy import LEAGUE_KEYS
from services.choco.game_store import ENGINE, FRIENDLY, PRACTICE, RANKED, GameRow, log, save
from services.choco.leagues import record_result, reward_card
from services.choco.text import card_name
from services.infra.messages import Text
from store.connection import Connection

# A friendly or practice game says so in every post's title (« Partie amicale n° 12 »).
TITLE_KEYS = {
    RANKED: ("choco.play.title_prep", "choco.play.title_turn"),
    FRIENDLY: ("choco.friendly.title_prep", "choco.friendly.title_turn"),
    PRACTICE: ("choco.practice.title_prep", "choco.practice.title_turn"),
}


def title(game: GameRow) -> Text:
    league = Text(LEAGUE_KEYS[game.league])
    prep, turn = TITLE_KEYS[game.mode]
    if game.state.turn == 0:
        return Text(prep, {"id": game.id, "league": league})
    return Text(turn, {"id": game.id, "league": league, "turn": game.state.turn})


def public_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The log keeps every event (it is the referee's record), hidden ones marked with who may see them."""
    return [e.to_json() for e in events]


def advance(
    conn: Connection,
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
    moved = replace(game, state=state, **changes)
    new_call = (state.turn, state.active) != turn_before
    bot_next = moved.ai_seat is not None and moved.ai_seat in moved.to_act()
    # the next player's clock is saved with the move: one save of the game per move, not two
    clock = clock_changes(conn, now, moved) if new_call and not bot_next and not state.finished else {}
    game = save(conn, game, now, state=state, **changes, **clock)
    log(conn, game, now, actor, kind, {**(data or {}), "events": public_events(events)})
    if state.finished:
        return finish(
            conn, now, game, catalog, rng, before=before, events=events, notes=notes, refused=refused
        )
    if bot_next:
        disarm(conn, game)  # the bot answers in this unit: the player's clock stops until their next call
    elif new_call:
        schedule_jobs(conn, now, game)
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
    if bot_next:
        return _bot_answers(conn, now, game, catalog, rng)
    return game


def _bot_answers(
    conn: Connection, now: datetime, game: GameRow, catalog: ChocoCatalog, rng: random.Random
) -> GameRow:
    """A practice game's bot plays at once, from its seat's view (engine/choco/ai.py), in the unit of the
    move that called it: its own save, log entry and post, then the player's next call."""
    seat = game.ai_seat
    assert seat is not None
    answer = ai_turn(game.state, seat)
    state, events = ENGINE.apply(game.state, seat, answer)
    kind = "prepare" if isinstance(answer, Prepare) else "turn"
    return advance(
        conn,
        now,
        game,
        state,
        events,
        catalog,
        rng,
        actor=None,
        kind=f"bot_{kind}",
        data={"step" if kind == "prepare" else "steps": _answer_json(answer)},
    )


def _answer_json(answer: Prepare | Turn) -> Any:
    if isinstance(answer, Turn):
        return [ENGINE.action_to_json(s) for s in answer.steps]
    return ENGINE.action_to_json(answer)


def finish(
    conn: Connection,
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
    if game.ranked:
        reward, reward_id = _count(conn, now, game, state, winner, result, rng)
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


def _count(
    conn: Connection,
    now: datetime,
    game: GameRow,
    state: ChocoState,
    winner: int | None,
    result: str,
    rng: random.Random,
) -> tuple[int | None, str | None]:
    """A ranked game's end in the league (VI): both players' results, and the winner's reward card."""
    for seat, player in enumerate(game.seats):
        assert player is not None  # a ranked game has no bot
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
    if winner is None:
        return None, None
    return reward_card(conn, now, game.player(winner), game.league, rng, f"choco:game:{game.id}")


@dataclass(frozen=True)
class Flow:
    """The catalog and the draws every move of a game needs, bound once for the services that move games."""

    catalog: ChocoCatalog
    rng: random.Random

    def advance(
        self,
        conn: Connection,
        now: datetime,
        game: GameRow,
        state: ChocoState,
        events: Sequence[Event],
        **how: Any,
    ) -> GameRow:
        """`advance` with this flow's catalog and draws; `how` is its keyword arguments."""
        return advance(conn, now, game, state, events, self.catalog, self.rng, **how)

    def finish(self, conn: Connection, now: datetime, game: GameRow, **how: Any) -> GameRow:
        return finish(conn, now, game, self.catalog, self.rng, **how)
