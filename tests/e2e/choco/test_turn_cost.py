"""What a Chocobataille turn costs the database (issue 39): the turn's own unit, then the deliverer's record
of the two posts it queued (the thread's resolution, the next player's hand by DM), sent from one read
of the outbox and recorded in one transaction (with PostgreSQL, the deliverer's claim of them is one
more)."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.world import User
from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import choco, game_on_turn_1, greedy_turn, notation, players
from tests.e2e.messages import shown
from tests.services.choco.helpers import counted_loads


async def play_the_turn(harness: BotHarness, game: Any, user: User) -> None:
    """`user` plays a greedy turn in the game's thread, and every follow-up settles; the turn is played."""
    assert game.thread_id is not None
    result = await harness.emu.run_command(
        user,
        "choco jouer",
        {"actions": notation(game, greedy_turn(game.state, game.state.active))},
        channel=harness.emu.world.channels[game.thread_id],
    )
    await harness.settle()
    assert result.message is not None
    assert "Tour joué" in shown(result.message)


async def test_a_turn_and_the_record_of_its_two_posts_are_two_commits(harness: BotHarness) -> None:
    alice, bob, _ = await players(harness)
    game = await game_on_turn_1(harness, alice, bob)
    assert harness.bot is not None
    assert game.thread_id is not None
    db = harness.bot.services.db
    user = {alice.id: alice, bob.id: bob}[game.player(game.state.active)]
    before = await db.read(lambda conn: conn.execute("SELECT MAX(id) FROM outbox").fetchone()[0])
    batches = db.batches
    await play_the_turn(harness, game, user)
    posts = await db.read(
        lambda conn: conn.execute(
            "SELECT target_kind, state FROM outbox WHERE id > ? ORDER BY id", (before,)
        ).fetchall()
    )
    assert sorted(tuple(row) for row in posts) == [("channel", "sent"), ("dm", "sent")]
    claim = 1 if db.concurrent_writers else 0  # PostgreSQL: the deliverer claims what it read
    assert db.batches - batches == 2 + claim  # the turn, then both posts recorded as sent
    assert (await choco(harness).games.get(game.id)).state.turn == 2


async def test_a_turn_typed_in_its_thread_loads_the_game_once(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/choco jouer` finds the thread's game in the turn's own unit, which plays the game it loaded: one
    load of the game's state for the command (two before, the lookup's read then the unit's), and no read
    of the database on the event loop beyond the deliverer's look at the outbox."""
    alice, bob, _ = await players(harness)
    game = await game_on_turn_1(harness, alice, bob)
    assert harness.bot is not None
    assert game.thread_id is not None
    parsed = counted_loads(monkeypatch)
    user = {alice.id: alice, bob.id: bob}[game.player(game.state.active)]
    await play_the_turn(harness, game, user)
    assert len(parsed) == 1
    monkeypatch.undo()
    assert (await choco(harness).games.get(game.id)).state.turn == 2


async def test_a_turn_draws_no_picture_of_the_next_hand(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next player's hand goes by DM as text with « Voir une carte » and « Voir ma main en images »:
    its picture is drawn when its owner asks for it, not at every call (one drawn per turn before, about
    1.8 ms of a worker thread in `benchmarks.command_costs`)."""
    alice, bob, _ = await players(harness)
    game = await game_on_turn_1(harness, alice, bob)
    assert harness.bot is not None
    assert game.thread_id is not None
    images = harness.bot.services.card_images
    drawn: list[str] = []
    draw = images.strip_now

    def counted(game_key: str, *args: Any, **kwargs: Any) -> bytes:
        drawn.append(game_key)
        return draw(game_key, *args, **kwargs)

    monkeypatch.setattr(images, "strip_now", counted)
    user, other = (alice, bob) if game.player(game.state.active) == alice.id else (bob, alice)
    dms = len(harness.emu.dm_messages(other))
    await play_the_turn(harness, game, user)
    (dm,) = harness.emu.dm_messages(other)[dms:]
    assert "Votre main dans la partie" in shown(dm)
    assert dm.uploads == []
    assert drawn == []
    asked = await harness.emu.click(other, "Voir ma main en images", message=dm)
    assert asked.message is not None
    assert [a.filename for a in asked.message.attachments] == [f"choco-hand-{game.id}.png"]
    assert drawn == ["choco"]
