"""Pillz duels through the real single writer on a real SQLite file: what a public message and a player's
controls may show (never a pending bet: rendering with another bet gives the same message), two players
clicking at once, a double click, a click racing the timeout, and a friend duel's end paid once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import timedelta

import pytest

from core.clock import ManualClock
from core.errors import DomainError
from engine.pillz.catalog import PillzCatalog
from services.infra.scheduler import Scheduler
from services.pillz.duel_match import Choice, DuelRow
from services.pillz.duels import TIMEOUT_JOB, PillzDuels
from services.pillz.render import duel as render
from services.shared.matches import StaleMatch
from store.connection import Connection
from store.db import Database
from tests.services.pillz.duels.helpers import ALICE, BOB, CHANNEL, GUILD, friend, player_to_act

CLICKS = 20


def first_card(duel: DuelRow) -> str:
    assert duel.state is not None
    seat = duel.to_act()[0]
    return next(f.card_id for f in duel.state.hands[seat] if not f.used)


def with_bet(duel: DuelRow, bet: int) -> DuelRow:
    assert duel.state is not None
    assert duel.state.pending is not None
    state = duel.state.model_copy(update={"pending": (duel.state.pending[0], bet)})
    return DuelRow(**{**duel.__dict__, "state": state})


async def test_neither_the_public_message_nor_the_answer_controls_depend_on_the_bet(
    duels: PillzDuels, catalog: PillzCatalog
) -> None:
    duel = await friend(duels)
    duel = await duels.play(duel.id, player_to_act(duel), duel.version, first_card(duel), 4, guild=GUILD)
    assert duel.state is not None
    assert duel.state.pending is not None
    public = render.public(duel, catalog).to_json()
    answerer = duel.to_act()[0]
    choice = Choice(duel.id, duel.version, answerer, duel.state, False)
    controls = [
        render.controls(choice, catalog, place, pillz).to_json() for place in (None, 0) for pillz in (0, 5)
    ]
    for other in (0, 1, 7, 12):
        changed = with_bet(duel, other)
        assert render.public(changed, catalog).to_json() == public
        assert changed.state is not None
        again = Choice(duel.id, duel.version, answerer, changed.state, False)
        assert [
            render.controls(again, catalog, p, n).to_json() for p in (None, 0) for n in (0, 5)
        ] == controls
    # the check can fail: once the round resolves, both pillz are public and the message changes with them
    assert render.public(with_bet(duel, 0), catalog).to_json() == public


async def test_two_players_clicking_at_once_and_a_double_click(duels: PillzDuels, db: Database) -> None:
    duel = await friend(duels)
    leader = player_to_act(duel)
    other = BOB if leader == ALICE else ALICE
    card = first_card(duel)
    results = await asyncio.gather(
        *(duels.play(duel.id, leader, duel.version, card, 2, guild=GUILD) for _ in range(CLICKS)),
        *(duels.play(duel.id, other, duel.version, card, 2, guild=GUILD) for _ in range(CLICKS)),
        return_exceptions=True,
    )
    unexpected = [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]
    assert unexpected == []
    played = [r for r in results if isinstance(r, DuelRow)]
    assert len(played) == 1
    # the leader's repeated clicks are told their move is played; the other player is refused
    refused = [r for r in results[:CLICKS] if not isinstance(r, DuelRow)]
    assert refused
    assert all(isinstance(r, DomainError) and r.key == "pillz.error.already_played" for r in refused)
    assert all(isinstance(r, DomainError) for r in results[CLICKS:])
    assert sum(isinstance(r, DuelRow) for r in results[:CLICKS]) == 1
    moves = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM match_moves").fetchone()[0])
    assert moves == 1


async def test_a_click_racing_the_timeout_is_applied_once(
    duels: PillzDuels, db: Database, clock: ManualClock, scheduler: Scheduler
) -> None:
    duel = await friend(duels)
    clock.advance(timedelta(seconds=121))  # past the default choice time of 120 s
    click = duels.play(duel.id, player_to_act(duel), duel.version, first_card(duel), 1, guild=GUILD)
    _, clicked = await asyncio.gather(scheduler.run_due(), click, return_exceptions=True)
    after = await duels.get(duel.id)
    moves = await db.read(
        lambda conn: [tuple(r) for r in conn.execute("SELECT seat, author FROM match_moves ORDER BY seq")]
    )
    assert len(moves) == 1
    assert after.version > duel.version
    by = moves[0][1]
    if isinstance(clicked, DuelRow):
        assert by == "player"
        assert after.notes == ()
    else:
        assert isinstance(clicked, StaleMatch)
        assert by == "timeout"
        assert len(after.notes) == 1
    jobs = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = 'due'", (TIMEOUT_JOB,)
        ).fetchone()[0]
    )
    assert jobs == 1  # exactly the next seat's timeout


async def test_a_friend_duel_ends_paid_once(
    duels: PillzDuels, db: Database, conservation: Callable[[Connection], None]
) -> None:
    duel = await friend(duels)
    while duel.status == "live":
        duel = await duels.play(duel.id, player_to_act(duel), duel.version, first_card(duel), 3, guild=GUILD)
    assert duel.result is not None
    assert len(duel.result["rewards"]) == 2
    rewards = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(delta), 0) FROM ledger WHERE reason = 'pillz.reward'"
        ).fetchone()
    )
    paid = sum(r["gold"] for r in duel.result["rewards"])
    assert (rewards[0] > 0) == (paid > 0)
    assert rewards[1] == paid
    with pytest.raises(DomainError):
        await duels.play(
            duel.id, ALICE, duel.version, first_card(duel) if duel.to_act() else "x", 0, guild=GUILD
        )
    await db.read(conservation)


async def test_the_ai_moves_outside_the_writer_and_its_timeout_is_a_safety_net(
    duels: PillzDuels, db: Database, clock: ManualClock, scheduler: Scheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def stopped(duel: DuelRow) -> DuelRow:  # the bot stops before the AI's move is written
        return duel

    monkeypatch.setattr(duels, "_ai_turns", stopped)
    for attempt in range(20):  # practice duels until the AI has the first move
        duel = await duels.practice(GUILD, CHANNEL, ALICE, key=f"p{attempt}")
        if duel.to_act() == [1]:
            break
        assert duel.to_act() == [0]
    else:
        raise AssertionError("the AI never led round 1")
    monkeypatch.undo()
    moves = "SELECT seat, author FROM match_moves WHERE match_id = ? ORDER BY seq"
    assert await db.read(lambda conn: conn.execute(moves, (duel.id,)).fetchall()) == []
    clock.advance(timedelta(seconds=121))
    assert await scheduler.run_due() >= 1
    after = await duels.get(duel.id)
    assert [tuple(r) for r in await db.read(lambda conn: conn.execute(moves, (duel.id,)).fetchall())] == [
        (1, "ai")
    ]
    assert after.notes == ()
    assert after.to_act() == [0]
    # and in the normal path the AI's answer follows the player's move at once, in its own transaction
    after = await duels.play(after.id, ALICE, after.version, first_card(after), 2, guild=GUILD)
    rows = [tuple(r) for r in await db.read(lambda conn: conn.execute(moves, (duel.id,)).fetchall())]
    assert rows[:2] == [(1, "ai"), (0, "player")]
    assert len(rows) == 2 or rows[2] == (1, "ai")


async def test_random_duels_end_and_pay_within_the_rules(
    duels: PillzDuels, db: Database, conservation: Callable[[Connection], None]
) -> None:
    """Friend and practice duels with random legal moves: every move is accepted, every duel ends, the
    ledger explains every coin."""
    rng = random.Random(9)
    for n in range(12):
        if n % 2:
            duel = await duels.practice(GUILD, CHANNEL, ALICE, key=f"r{n}")
        else:
            made = await duels.challenge(GUILD, CHANNEL, ALICE, BOB, key=f"r{n}")
            duel = await duels.answer(made.id, BOB, True, guild=GUILD)
        while duel.status == "live":
            assert duel.state is not None
            seat = duel.to_act()[0]
            cards = [f.card_id for f in duel.state.hands[seat] if not f.used]
            duel = await duels.play(
                duel.id,
                player_to_act(duel),
                duel.version,
                rng.choice(cards),
                rng.randint(0, duel.state.pillz[seat]),
                guild=GUILD,
            )
        assert duel.status == "over"
        assert duel.result is not None
        assert ("rewards" in duel.result) == (duel.kind == "friend")
    await db.read(conservation)


async def test_timeouts_never_run_the_exact_search_inside_the_writer(
    duels: PillzDuels, clock: ManualClock, scheduler: Scheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A timeout is handled in the scheduler's transaction: the AI's move there (for the late player, and
    the practice AI's answer) uses the quick evaluator, not the search of up to ~100 ms."""
    duel = await duels.practice(GUILD, CHANNEL, ALICE, key="t1")
    while duel.state is not None and duel.state.round < 2:  # the search starts at round 2
        duel = await duels.play(duel.id, ALICE, duel.version, first_card(duel), 1, guild=GUILD)

    def no_search(*_: object) -> object:
        raise AssertionError("the exact search ran inside a transaction")

    monkeypatch.setattr("engine.pillz.ai.exact_options", no_search)
    for _ in range(3):
        if duel.status != "live":
            break
        clock.advance(timedelta(seconds=121))
        assert await scheduler.run_due() >= 1
        duel = await duels.get(duel.id)
    assert len(duel.notes) >= 1
