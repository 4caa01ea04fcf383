"""A refereed Chocobataille game as players see it through Discord: the challenge and its buttons, the
game's thread, hands by DM, the preparatory turn, declared turns (text form and guided panel), the
referee's posts, the end with its reward and archived thread, and a restart in the middle."""

from __future__ import annotations

import asyncio

from emulator import User
from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import (
    ENGINE,
    challenge_accepted,
    choco,
    play_to_the_end,
    thread_of,
    with_bronze_deck,
)
from tests.e2e.messages import public_answer, shown


async def prepare_both(h: BotHarness, alice: User, bob: User, game_id: int) -> None:
    for user in (alice, bob):
        thread = h.emu.world.channels[await thread_of(h, game_id)]
        result = await h.emu.run_command(user, "choco jouer", {"actions": "invoque M1 front"}, channel=thread)
        assert result.message is not None
        assert result.message.ephemeral
        assert "Tour joué" in shown(result.message), shown(result.message)
    await h.settle()


async def test_a_whole_game_from_the_challenge_to_the_win(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    game = await challenge_accepted(harness, alice, bob)
    assert game.thread_id is not None
    thread_posts = harness.emu.world.channels[game.thread_id]
    assert thread_posts is not None
    await prepare_both(harness, alice, bob, game.id)
    game = await choco(harness).games.get(game.id)
    assert game.state.turn == 1
    turns = await play_to_the_end(harness, {alice.id: alice, bob.id: bob}, game.id)
    game = await choco(harness).games.get(game.id)
    assert game.status == "over"
    assert game.result == "win"
    assert turns > 1
    outcome = ENGINE.outcome(game.state)
    assert outcome is not None
    assert outcome.winners == (game.winner_seat,)


async def test_the_thread_opens_in_the_servers_games_channel(harness: BotHarness) -> None:
    admin = harness.user("olivia", admin=True)
    assert harness.guild is not None
    assert harness.games_channel is not None
    arena = harness.emu.world.channel_named("general", harness.guild)
    assert arena is not None
    saved = await harness.emu.run_command(admin, "configuration salon-parties", {"salon": arena})
    assert saved.message is not None
    assert "Réglage enregistré" in shown(saved.message), shown(saved.message)
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    game = await challenge_accepted(harness, alice, bob, channel=harness.games_channel)
    assert game.thread_id is not None
    assert game.channel_id == arena.id
    thread = harness.emu.world.channels[game.thread_id]
    assert thread.parent is arena
    assert thread.name == f"Chocobataille n° {game.id}"
    # commands in the thread act on its game
    hand = await harness.emu.run_command(alice, "choco main", channel=thread)
    assert hand.message is not None
    assert hand.message.ephemeral
    assert f"partie n° {game.id}" in shown(hand.message)


async def test_a_double_click_on_accept_opens_one_thread(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    made = await harness.emu.run_command(alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"})
    challenge = public_answer(made)
    await asyncio.gather(
        harness.emu.click(bob, "Accepter", message=challenge),
        harness.emu.click(bob, "Accepter", message=challenge),
    )
    await harness.settle()
    (game,) = await choco(harness).games.live_games(alice.id)
    threads = [t for t in harness.emu.world.threads if t.name == f"Chocobataille n° {game.id}"]
    assert len(threads) == 1
    assert game.thread_id == threads[0].id
