"""Pillz duels against a friend or the AI: challenge, practice, moves, timeouts (docs/pillz/duels.md).

Each use case is one write unit: read the duel, ask the engine, let the AI move when it is its turn, save
against the version read, re-arm the timeout of the seat now to act, and queue an edit of the public
message. A seat that does not answer within the server's choice time (2 minutes by default) gets the AI's
choice, and the public message says so; the timeout is a scheduler job, so a duel never hangs and goes
on after a restart. Friend duels end with the ladder's Elo update and gold (services/pillz/ladder.py).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, TypeVar

from core.clock import Clock
from core.errors import BadInput, NotAllowed
from engine.errors import IllegalAction
from engine.pillz import ENGINE, Fighter, PackPool, PillzCatalog, Play, choose, choose_quick
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.pillz import duel_render as render
from services.pillz.decks import active_deck, active_problems
from services.pillz.duel_match import (
    AI,
    CHALLENGE_TEXTS,
    CHOICE_TIME,
    DUELS,
    RULES,
    Choice,
    DuelRow,
    acting_seats,
    played_by,
)
from services.pillz.economy import GAME_KEY, ensure_starter
from services.pillz.ladder import record_friend_result
from services.pillz.timers import timers
from services.platform import reminders
from services.platform.messages import Target, Text
from services.platform.players import ensure_player
from services.platform.scheduler import Job, Scheduler
from services.platform.timers import TimerQuery
from services.shared.challenges import Challenges
from services.shared.matches import Author, StaleMatch
from store.db import Database

T = TypeVar("T")
TIMEOUT_JOB = "pillz:timeout"
CHALLENGE_TTL = timedelta(hours=1)
# The engine's refusal reasons, each with its own sentence (a raw reason never reaches a player).
REFUSALS = {
    "not_your_turn": "pillz.error.not_your_turn",
    "pillz": "pillz.error.too_many_pillz",
    "card": "pillz.error.card_used",
}


def practice_deck(catalog: PillzCatalog, deck: list[str], rng: random.Random) -> list[str]:
    """The AI's deck mirrors the player's by stars: for each of their characters, another of the same
    stars (distinct; at most one leader), so practice is a fair fight."""
    chosen: list[str] = []
    leader = False
    for card_id in sorted(deck):
        card = catalog.card(card_id)
        stars = card.stars if card is not None else 1
        pool = sorted(
            c.id
            for c in catalog.cards
            if c.stars == stars and c.id not in chosen and not (c.leader and leader)
        )
        if not pool:
            pool = sorted(c.id for c in catalog.cards if c.id not in chosen and not c.leader)
        pick = rng.choice(pool)
        leader = leader or bool((found := catalog.card(pick)) and found.leader)
        chosen.append(pick)
    return chosen


class PillzDuels:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: PillzCatalog,
        rng: random.Random,
        scheduler: Scheduler | None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # seeds and the AI's draws: used only inside write units (the writer's thread)
        self.scheduler = scheduler
        self.pool = PackPool.of(catalog)
        self.cards = {c.id: c for c in catalog.cards}
        self.challenges = Challenges(DUELS, scheduler, CHALLENGE_TTL, CHALLENGE_TEXTS)
        if scheduler is not None:
            scheduler.on(TIMEOUT_JOB, self.on_timeout)

    # --- starting -----------------------------------------------------------------------------------

    async def challenge(
        self, guild_id: int, channel_id: int, challenger: int, challenged: int, *, key: str | int
    ) -> DuelRow:
        now = self.clock.now()

        def prepare(conn: sqlite3.Connection) -> None:
            self._deck_of(conn, now, challenger)
            ensure_player(conn, challenged, now)

        def unit(conn: sqlite3.Connection) -> DuelRow:
            ensure_player(conn, challenger, now)
            return self.challenges.challenge(
                conn,
                now,
                request_key=f"pillz:challenge:{key}",
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                challenged=challenged,
                kind="friend",
                prepare=lambda: prepare(conn),
            )

        return await self.db.write(unit)

    async def answer(self, duel_id: int, player: int, accept: bool, *, guild: int) -> DuelRow:
        """The challenged player accepts (the duel starts) or declines; the challenger may withdraw. Only the
        first answer counts: a later click (a double click, a forged button) is refused privately."""
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> DuelRow:
            duel, accepted = self.challenges.answer(
                conn, now, duel_id, guild=guild, player=player, accept=accept
            )
            if not accepted:
                return duel
            challenged = duel.seats[1]
            assert challenged is not None
            decks = (self._deck_of(conn, now, duel.challenger), self._deck_of(conn, now, challenged))
            return self._start(conn, now, duel, decks)

        return await self.db.write(unit)

    async def practice(self, guild_id: int, channel_id: int, player: int, *, key: str | int) -> DuelRow:
        """A duel against the AI with the active deck; no rewards, no rating."""
        now = self.clock.now()
        request = f"pillz:practice:{key}"

        def unit(conn: sqlite3.Connection) -> DuelRow:
            ensure_player(conn, player, now)
            duel = DUELS.by_request(conn, request)
            if duel is None:
                deck = self._deck_of(conn, now, player)
                duel = DUELS.create(
                    conn,
                    now,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    seats=(player, None),
                    kind="practice",
                    request_key=request,
                )
                opponent = practice_deck(
                    self.catalog, deck, random.Random(f"{duel.id}:{self.rng.getrandbits(32)}")
                )
                duel = self._start(conn, now, duel, (deck, opponent))
            if duel.challenger != player:
                raise NotAllowed()
            return duel

        return await self._ai_turns(await self.db.write(unit))

    def _deck_of(self, conn: sqlite3.Connection, now: datetime, player: int) -> list[str]:
        ensure_player(conn, player, now)
        ensure_starter(conn, now, player, self.pool, self.rng)
        deck = active_deck(conn, player, self.cards)
        if deck is None:
            reasons = Text.lines(
                [Text(p.key, dict(p.params)) for p in active_problems(conn, player, self.cards)]
            )
            raise NotAllowed("pillz.error.no_active_deck", player=f"<@{player}>", reasons=reasons)
        return deck

    def _start(
        self, conn: sqlite3.Connection, now: datetime, duel: DuelRow, decks: tuple[list[str], list[str]]
    ) -> DuelRow:
        seed = self.rng.getrandbits(62)
        players = [
            PlayerSetup(seat=0, player_id=duel.challenger, deck=tuple(decks[0])),
            PlayerSetup(seat=1, player_id=duel.seats[1] or AI, deck=tuple(decks[1])),
        ]
        state = ENGINE.new_game(players, seed, {CATALOG_OPTION: self.catalog})
        duel = DUELS.start(conn, now, duel, seed=seed, setup=[decks[0], decks[1]], state=state)
        duel = DUELS.post(conn, now, duel, _public(duel), render.public(duel, self.catalog))
        return self._settle(conn, now, duel)

    # --- playing ------------------------------------------------------------------------------------

    async def controls(self, duel_id: int, player: int, *, guild: int) -> Choice:
        """The private controls of the seat to act (refused to anyone else, privately)."""

        def unit(conn: sqlite3.Connection) -> Choice:
            duel = DUELS.load(conn, duel_id, guild=guild)
            seat = duel.seat_of(player)
            if seat not in duel.to_act():
                raise NotAllowed("pillz.error.not_your_turn")
            assert duel.state is not None
            return Choice(duel.id, duel.version, seat, duel.state, duel.state.pending is None)

        return await self.db.read(unit)

    async def play(
        self, duel_id: int, player: int, version: int, card: str, pillz: int, *, guild: int
    ) -> DuelRow:
        return await self._play(duel_id, player, version, lambda hand: card, pillz, guild)

    async def play_place(
        self, duel_id: int, player: int, version: int, place: int, pillz: int, *, guild: int
    ) -> DuelRow:
        """Play the character at `place` in the player's line-up (what the private controls name)."""

        def card_at(hand: tuple[Fighter, ...]) -> str:
            if not 0 <= place < len(hand):
                raise BadInput()
            return hand[place].card_id

        return await self._play(duel_id, player, version, card_at, pillz, guild)

    async def _play(
        self,
        duel_id: int,
        player: int,
        version: int,
        card_of: Callable[[tuple[Fighter, ...]], str],
        pillz: int,
        guild: int,
    ) -> DuelRow:
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> DuelRow:
            duel = DUELS.load(conn, duel_id, guild=guild)
            seat = duel.seat_of(player)
            if duel.state is None:
                raise NotAllowed("pillz.error.not_your_turn")
            card = card_of(duel.state.hands[seat])
            if (version != duel.version or seat not in duel.to_act()) and played_by(
                conn, duel.id, seat, card
            ) == (pillz, "player"):
                # a second click on the same "Play": the move stands, and the player is told so
                raise NotAllowed(
                    "pillz.error.already_played", card=render.card_name(self.catalog, card), pillz=pillz
                )
            if duel.status != "live":
                raise NotAllowed("pillz.error.over")
            if version != duel.version:
                raise StaleMatch(RULES.texts.stale)
            if seat not in duel.to_act():
                raise NotAllowed("pillz.error.not_your_turn")
            return self._move(conn, now, duel, seat, Play(card=card, pillz=pillz), "player")

        return await self._ai_turns(await self.db.write(unit))

    async def _ai_turns(self, duel: DuelRow) -> DuelRow:
        """Let the AI play while it is its move. Its search (up to ~100 ms in round 2) runs in a worker
        thread, outside the single writer; the move is then written if the duel has not moved meanwhile.
        Should the bot stop in between, the seat's timeout plays for the AI later."""
        while duel.status == "live" and duel.state is not None:
            seats = [s for s in duel.to_act() if duel.is_ai(s)]
            if not seats:
                break
            seat, seen = seats[0], duel
            action = await asyncio.to_thread(choose, duel.state, seat, self._ai_rng(duel))
            now = self.clock.now()

            duel = await self.db.write(self._ai_unit(seen, seat, action, now))
        return duel

    def _ai_unit(
        self, seen: DuelRow, seat: int, action: Play, now: datetime
    ) -> Callable[[sqlite3.Connection], DuelRow]:
        def unit(conn: sqlite3.Connection) -> DuelRow:
            fresh = DUELS.load(conn, seen.id, guild=seen.guild_id)
            if fresh.version != seen.version:
                return fresh  # moved meanwhile (a timeout): look again
            return self._move(conn, now, fresh, seat, action, "ai")

        return unit

    def _move(
        self,
        conn: sqlite3.Connection,
        now: datetime,
        duel: DuelRow,
        seat: int,
        action: Play,
        by: Author,
        *,
        ai_inline: bool = False,
    ) -> DuelRow:
        assert duel.state is not None
        left = duel.state.pillz[seat]
        try:
            played, _ = DUELS.play(conn, now, duel, seat, action, by)
        except IllegalAction as error:
            reason = str(error.params.get("reason", ""))
            key = REFUSALS.get(reason, "pillz.error.bad_move")
            raise BadInput(key, left=left, asked=action.pillz) from error
        return self._settle(conn, now, played, ai_inline=ai_inline)

    def _settle(
        self, conn: sqlite3.Connection, now: datetime, duel: DuelRow, *, ai_inline: bool = False
    ) -> DuelRow:
        """End the duel or arm the timeout of the seat to act (the AI's too: a safety net), and show the
        new state in the public message. With `ai_inline` (a timeout, already in the scheduler's unit), the
        AI's own moves are made here too."""
        assert duel.state is not None
        while ai_inline and not duel.state.finished and any(duel.is_ai(s) for s in duel.to_act()):
            seat = duel.to_act()[0]
            action = choose_quick(duel.state, seat, self._ai_rng(duel))
            duel, _ = DUELS.play(conn, now, duel, seat, action, "ai")
        if duel.state is not None and duel.state.finished:
            duel = self._finish(conn, now, duel)
        else:
            due = now + CHOICE_TIME.read(conn, duel.server)
            duel = DUELS.arm(conn, now, duel, TIMEOUT_JOB, due, {"duel": duel.id})
            self._plan_reminders(conn, now, duel)
        DUELS.show(conn, now, duel, _public(duel), render.public(duel, self.catalog))
        return duel

    def _plan_reminders(self, conn: sqlite3.Connection, now: datetime, duel: DuelRow) -> None:
        """A reminder before the new deadline, for the players to act who turned reminders on."""
        if self.scheduler is None:
            return
        for seat in duel.to_act():
            player = duel.seats[seat]
            if player is not None and reminders.enabled(conn, player):
                found = timers(conn, TimerQuery(player, now, self.scheduler.zone))
                reminders.plan(conn, now, player, GAME_KEY, found)

    def _ai_rng(self, duel: DuelRow) -> random.Random:
        """The AI's draws for one move: from the duel's seed and version, so a replay is the same."""
        return random.Random(f"{duel.seed}:{duel.version}")

    def _finish(self, conn: sqlite3.Connection, now: datetime, duel: DuelRow) -> DuelRow:
        assert duel.state is not None
        outcome = ENGINE.outcome(duel.state)
        assert outcome is not None
        winner = None if outcome.draw else outcome.winners[0]
        result: dict[str, Any] = {"winner": winner, "reason": outcome.reason, "life": list(outcome.scores)}
        if duel.kind == "friend":
            challenged = duel.seats[1]
            assert challenged is not None
            acted = acting_seats(conn, duel.id)
            rewards = record_friend_result(
                conn,
                now,
                duel.server,
                duel.id,
                (duel.challenger, challenged),
                winner,
                present=(0 in acted, 1 in acted),
            )
            result["rewards"] = [asdict(r) for r in rewards]
        return DUELS.end(conn, now, duel, "over", result=result)

    def on_timeout(self, conn: sqlite3.Connection, job: Job, now: datetime) -> None:
        """The seat to act did not answer in time: the AI chooses for it, and the public message says so."""
        duel = DUELS.load_trusted(conn, int(job.payload["duel"]))
        if duel.status != "live" or duel.deadline_job != job.id or duel.state is None:
            return  # the seat answered meanwhile: that timeout was withdrawn
        for seat in duel.to_act():
            action = choose_quick(duel.state, seat, self._ai_rng(duel))
            if not duel.is_ai(seat):  # (the AI's own seat times out only if the bot stopped mid-move)
                note = {"round": duel.state.round, "seat": seat}
                duel = DUELS.save(conn, duel, now, data={**duel.data, "notes": [*duel.notes, note]})
            self._move(
                conn, now, duel, seat, action, "timeout" if not duel.is_ai(seat) else "ai", ai_inline=True
            )
            break

    async def live(self, player: int) -> list[DuelRow]:
        return await self.db.read(lambda conn: DUELS.live_of(conn, player))

    async def get(self, duel_id: int) -> DuelRow:
        """A duel by id for the bot's own callers (tests, the sandbox); never with an id from a click."""
        return await self.db.read(lambda conn: DUELS.load_trusted(conn, duel_id))

    async def set_choice_time(self, guild_id: int, seconds: int) -> int:
        return await CHOICE_TIME.save(self.db, self.clock, guild_id, seconds)

    async def choice_seconds(self, guild_id: int) -> int:
        return await CHOICE_TIME.seconds(self.db, guild_id)


def _public(duel: DuelRow) -> Target:
    """The duel's public message; its players hear by DM if the bot may not post there."""
    return Target("channel", duel.channel, players=tuple(p for p in duel.seats if p is not None))
