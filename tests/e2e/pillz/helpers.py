"""Shared set-up for the Pillz end-to-end tests: the services, a friend duel accepted, a move through
the duel message's menus, and a whole duel played and scanned for what it hides (a pending bet, the
cards left in each deck, the seeds while live)."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import User
from engine.pillz import ENGINE as PILLZ
from engine.pillz.state import PillzState
from engine.protocol import SPECTATOR
from sandbox.harness import BotHarness
from services.pillz import PillzServices
from tests.e2e.leak_scan import (
    EVERYONE,
    Allowed,
    LeakScan,
    Moment,
    Secret,
    check,
    names_secret,
    seeds,
)
from tests.e2e.messages import only_public, public_answer, shown


def pillz(h: BotHarness) -> PillzServices:
    assert h.bot is not None
    services: PillzServices = h.bot.services.games["pillz"]
    return services


def duel_message(h: BotHarness, duel_id: int) -> RecordedMessage:
    return only_public(h, rf"(Duel de Pillz|Entraînement) n° {duel_id}\b")


def bet_select(message: RecordedMessage, place: int) -> str:
    """The custom_id of the select of the character at `place` in the controls."""
    ids = [str(c.get("custom_id")) for row in message.components for c in row.get("components", [])]
    return next(i for i in ids if i.startswith("pillz:bet:") and i.endswith(f":{place}"))


async def move(h: BotHarness, user: User, duel_id: int, place: int, bet: int) -> RecordedMessage:
    """Open the controls from the public message, then the move's two clicks: the amount of pillz in the
    select of the character at `place`, and « Jouer »."""
    controls = await h.emu.click(user, "Jouer", message=duel_message(h, duel_id))
    assert controls.message is not None, controls
    assert controls.message.ephemeral, controls
    picked = await h.emu.select(
        user, values=[str(bet)], custom_id=bet_select(controls.message, place), message=controls.message
    )
    assert picked.message is not None
    played = await h.emu.click(user, f"Jouer ({bet} pillz)", message=picked.message)
    assert played.message is not None
    assert "Joué\u00a0:" in shown(played.message)
    await h.settle()
    return played.message


async def first_unused(h: BotHarness, duel_id: int, seat: int) -> int:
    duel = await pillz(h).duels.get(duel_id)
    assert duel.state is not None
    return next(i for i, f in enumerate(duel.state.hands[seat]) if not f.used)


async def friend_duel(h: BotHarness) -> tuple[User, User, int]:
    alice, bob = h.user("alice"), h.user("bob")
    made = await h.emu.run_command(alice, "pillz défi", {"joueur": bob})
    await h.emu.click(bob, "Accepter", message=public_answer(made))
    await h.settle()
    duels = await pillz(h).duels.live(alice.id)
    assert len(duels) == 1
    return alice, bob, duels[0].id


class PillzSecrets:
    """A duel's secrets now: the leader's pending bet (theirs only), each seat's cards left in its deck
    (their owner's), the seeds while live. Line-ups are public. `everybody` are the users of the test: a
    secret they all may see is looked for in public posts only."""

    def __init__(self, h: BotHarness, duel_id: int, everybody: set[int]) -> None:
        self.h = h
        self.duel_id = duel_id
        self.everybody = everybody
        self.bets_checked = 0  # pending bets no public number could be mistaken for

    def words(self, card_id: str) -> set[str]:
        card = pillz(self.h).duels.catalog.card(card_id)
        assert card is not None
        return {card.name.fr, card.name.en}

    async def moment(self) -> Moment:
        duel = await pillz(self.h).duels.get(self.duel_id)
        state = duel.state
        assert state is not None
        assert self.h.bot is not None
        (raw,) = await self.h.bot.services.db.read(
            lambda conn: conn.execute("SELECT setup FROM matches WHERE id = ?", (self.duel_id,)).fetchone()
        )
        decks = json.loads(raw)
        line_ups = {f.card_id for hand in state.hands for f in hand}
        allowed: Allowed = {EVERYONE: {w for c in line_ups for w in self.words(c)}}
        for record in state.history:  # a resolved round shows each side as the pending bet would be
            for seat in (0, 1):
                for name in self.words(record.cards[seat]):
                    bet, attack = record.pillz[seat], record.attacks[seat]
                    allowed[EVERYONE] |= {f"{name} ({bet} pillz, {a} {attack})" for a in ("ATQ", "ATK")}
        secrets: list[Secret] = []
        for seat, hand in enumerate(state.hands):
            user = duel.seats[seat]
            owners = [] if user is None else [user]
            if user is not None:
                allowed[user] = {w for c in decks[seat] for w in self.words(c)}
            left = Counter(decks[seat]) - Counter(f.card_id for f in hand)
            for card in sorted(set(left) - line_ups):
                secrets.append(names_secret(f"seat {seat}'s deck: {card}", self.words(card), [card], owners))
        if duel.status == "live":
            secrets += seeds(f"duel {duel.id}", duel.seed or 0, state.rng.seed)
        if state.pending is not None and not state.finished:
            secrets += self.bet(duel.seats, state)
        return secrets, allowed

    def bet(self, seats: tuple[int | None, ...], state: PillzState) -> list[Secret]:
        view = PILLZ.view(state, SPECTATOR)
        lead = view.lead
        leader = seats[lead]
        owners = [] if leader is None else [leader]
        assert state.pending is not None
        bet = int(state.pending[1])
        token = f"pillz-bet-r{view.round}-{bet}"
        secrets = [
            Secret(f"pending bet token {token}", re.compile(re.escape(token)), frozenset(owners)),
            Secret(
                f"pending bet {bet} shown as a played side",
                re.compile(rf"(?<!\d){bet} pillz, (?:ATQ|ATK)"),
                frozenset(owners),
            ),
        ]
        left = view.pillz[lead] - bet
        if {bet, left}.isdisjoint(public_numbers(state)):
            self.bets_checked += 1
            public_only = frozenset(self.everybody)
            pattern = re.compile(rf"(?<!\d)(?:{bet}|{left}) pillz")
            secrets.append(Secret(f"pending bet {bet} (or {left} left) in public", pattern, public_only))
        return secrets


def public_numbers(state: PillzState) -> set[int]:
    """The pillz counts the public message may show: each seat's now, and every resolved round's."""
    view = PILLZ.view(state, SPECTATOR)
    return {*view.pillz, *(n for r in view.history for n in (*r.pillz, *r.pillz_left))}


def distinct_bet(state: PillzState, seat: int) -> int:
    """A bet that no public count could be mistaken for, nor what it leaves (3 when there is none)."""
    taken = public_numbers(state)
    have = state.pillz[seat]
    return next((b for b in range(1, have + 1) if {b, have - b}.isdisjoint(taken)), min(3, have))


async def play_duel(h: BotHarness, scan: LeakScan, tracker: PillzSecrets, users: dict[int, User]) -> int:
    """Plays to the end; the first answer of round 2 is left to the AI on the deadline. Returns timeouts."""
    timeouts = 0
    for _ in range(8):
        duel = await pillz(h).duels.get(tracker.duel_id)
        if duel.status != "live":
            break
        assert duel.state is not None
        seat = duel.to_act()[0]
        player = duel.seats[seat]
        assert player is not None
        if duel.state.round == 2 and duel.state.pending is not None and not timeouts:
            timeouts += await h.advance(timedelta(minutes=2, seconds=1))
        else:
            place = await first_unused(h, duel.id, seat)
            await move(h, users[player], duel.id, place, distinct_bet(duel.state, seat))
        await check(scan, tracker)
    assert (await pillz(h).duels.get(tracker.duel_id)).status == "over"
    return timeouts
