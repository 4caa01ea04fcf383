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
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from functools import cached_property
from typing import Any

from core.errors import BadInput, NotAllowed
from engine.errors import DomainError
from engine.pillz import (
    ENGINE,
    Fighter,
    PackPool,
    PillzCard,
    PillzCatalog,
    PillzState,
    Play,
    choose,
    choose_quick,
)
from engine.protocol import PlayerSetup
from services.community import reminders
from services.community.tournaments.results import match_over
from services.infra.messages import MessageSpec, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Job
from services.infra.timers import TimerQuery
from services.pillz.decks import active_deck, active_problems
from services.pillz.duel_match import AI, DUELS, RULES, Choice, DuelRow, played_by
from services.pillz.economy import GAME_KEY, ensure_starter
from services.pillz.ladder import rating, record_friend_result
from services.pillz.render import duel as render
from services.pillz.timers import timers
from services.shared.duels import SecretDuels, timeout_job
from services.shared.matches import Author, StaleMatch
from store.connection import Connection

TIMEOUT_JOB = timeout_job("pillz")  # the tests arm it by name
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


class PillzDuels(SecretDuels[PillzCatalog, PillzState, DuelRow, list[str], Choice]):
    """Pillz's duels: simultaneous secret moves, the AI searching its own (the service's `rng` makes its draws
    too), the ladder's result at the end of a friend duel."""

    matches = DUELS

    @cached_property
    def pool(self) -> PackPool:
        return PackPool.of(self.catalog)

    @cached_property
    def cards(self) -> dict[str, PillzCard]:
        return {c.id: c for c in self.catalog.cards}

    def rating(self, conn: Connection, player: int) -> int:
        return rating(conn, player)

    # --- starting -----------------------------------------------------------------------------------

    async def practice(self, guild_id: int, channel_id: int, player: int, *, key: str | int) -> DuelRow:
        """A duel against the AI with the active deck; no rewards, no rating."""
        return await self._ai_turns(await super().practice(guild_id, channel_id, player, key=key))

    def _setup_of(self, conn: Connection, now: datetime, player: int) -> list[str]:
        ensure_player(conn, player, now, self.registry)
        ensure_starter(conn, now, self.registry, player, self.pool, self.rng)
        deck = active_deck(conn, player, self.cards)
        if deck is None:
            reasons = Text.lines([p.named(self.cards) for p in active_problems(conn, player, self.cards)])
            raise NotAllowed("pillz.error.no_active_deck", player=f"<@{player}>", reasons=reasons)
        return deck

    def _practice_setup(self, mine: list[str], rng: random.Random) -> list[str]:
        return practice_deck(self.catalog, mine, rng)

    def _player(self, duel: DuelRow, seat: int, setup: list[str]) -> PlayerSetup:
        return PlayerSetup(seat=seat, player_id=duel.seats[seat] or AI, deck=tuple(setup))

    def public(self, duel: DuelRow, languages: tuple[str, ...] = ()) -> MessageSpec:
        return render.public(duel, self.catalog, languages)

    # --- playing ------------------------------------------------------------------------------------

    def _refusal(self, duel: DuelRow, seat: int) -> DomainError | None:
        return None if seat in duel.to_act() else NotAllowed("pillz.error.not_your_turn")

    def _choice(self, conn: Connection, duel: DuelRow, seat: int, foe_language: str | None) -> Choice:
        assert duel.state is not None
        return Choice(duel.id, duel.version, seat, duel.state, duel.state.pending is None, foe_language)

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

        def unit(conn: Connection) -> DuelRow:
            duel = DUELS.load(conn, duel_id, guild=guild)
            seat = duel.seat_of(player)
            if duel.state is None:
                raise NotAllowed("pillz.error.not_your_turn")
            card = card_of(duel.state.hands[seat])
            if (version != duel.version or seat not in duel.to_act()) and played_by(
                conn, duel.id, seat, card
            ) == (pillz, "player"):
                # a second click on the same "Play": the move stands, and the player is told so
                others = render.languages_of(self.foe_language(conn, duel, seat))
                name = render.card_name(self.catalog, card, others)
                raise NotAllowed("pillz.error.already_played", card=name, pillz=pillz)
            if duel.status != "live":
                raise NotAllowed("pillz.error.over")
            if version != duel.version:
                raise StaleMatch(RULES.texts.stale)
            if seat not in duel.to_act():
                raise NotAllowed("pillz.error.not_your_turn")
            return self._move(conn, now, duel, seat, Play(card=card, pillz=pillz), "player")

        return await self._ai_turns(await self.write_move(unit))

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
    ) -> Callable[[Connection], DuelRow]:
        def unit(conn: Connection) -> DuelRow:
            fresh = DUELS.load(conn, seen.id, guild=seen.guild_id)
            if fresh.version != seen.version:
                return fresh  # moved meanwhile (a timeout): look again
            return self._move(conn, now, fresh, seat, action, "ai")

        return unit

    def _move(
        self,
        conn: Connection,
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
        played = self._apply(
            conn, now, duel, seat, action, by, REFUSALS, "pillz.error.bad_move", left=left, asked=action.pillz
        )
        return self._settle(conn, now, played, ai_inline=ai_inline)

    def _settle(self, conn: Connection, now: datetime, duel: DuelRow, *, ai_inline: bool = False) -> DuelRow:
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
            duel = self._arm(conn, now, duel)
            self._plan_reminders(conn, now, duel)
        self._show(conn, now, duel)
        return duel

    def _plan_reminders(self, conn: Connection, now: datetime, duel: DuelRow) -> None:
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

    def _finish(self, conn: Connection, now: datetime, duel: DuelRow) -> DuelRow:
        assert duel.state is not None
        outcome = ENGINE.outcome(duel.state)
        assert outcome is not None
        winner = None if outcome.draw else outcome.winners[0]
        result: dict[str, Any] = {"winner": winner, "reason": outcome.reason, "life": list(outcome.scores)}
        if duel.kind in (
            "friend",
            "tournament",
        ):  # a tournament's match is a friend match (docs/pillz/economy.md)
            challenged = duel.seats[1]
            assert challenged is not None
            acted = self._acting_seats(conn, duel.id)
            rewards = record_friend_result(
                conn,
                now,
                self.registry,
                duel.server,
                duel.id,
                (duel.challenger, challenged),
                winner,
                present=(0 in acted, 1 in acted),
            )
            result["rewards"] = [asdict(r) for r in rewards]
        if duel.kind == "tournament":
            match_over(conn, now, self.registry, duel.id, winner)
        return DUELS.end(conn, now, duel, "over", result=result)

    def on_timeout(self, conn: Connection, job: Job, now: datetime) -> None:
        """The seat to act did not answer in time: the AI chooses for it, and the public message says so."""
        duel = self._late(conn, job)
        if duel is None or duel.state is None:
            return  # the seat answered meanwhile: that timeout was withdrawn
        for seat in duel.to_act():
            action = choose_quick(duel.state, seat, self._ai_rng(duel))
            if not duel.is_ai(seat):  # (the AI's own seat times out only if the bot stopped mid-move)
                duel = self._note_late(conn, now, duel, duel.state.round, [seat])
            self._move(
                conn, now, duel, seat, action, "timeout" if not duel.is_ai(seat) else "ai", ai_inline=True
            )
            break
