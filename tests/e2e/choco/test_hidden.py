"""Hidden information through Discord: whole games played by the bot's referee, and every public message
(not ephemeral, not a DM) scanned against the game as it stood when the message was posted. A card name
may appear only if that card is, or has been, public (board face up, graveyard, active effect, the
reward); any copy being public is enough. A negative control proves the scan can fail."""

from __future__ import annotations

import pytest

from emulator.world import User
from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import (
    Watch,
    challenge_accepted,
    choco,
    hidden_ids,
    notation,
    policy,
    reward_of,
    with_bronze_deck,
)
from tests.e2e.messages import shown

pytestmark = pytest.mark.sweep

MAX_TURNS = 200


async def play_game(h: BotHarness, watch: Watch, alice: User, bob: User, *, with_fault: bool) -> int:
    game = await challenge_accepted(h, alice, bob, channel=h.games_channel)
    users = {alice.id: alice, bob.id: bob}
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    await watch.check(game.id)
    for user in (alice, bob):
        hand = game.state.sides[game.seat_of(user.id)].hand
        wizard = next(i for i, c in enumerate(hand, 1) if not c.pure)
        placed = await h.emu.run_command(
            user, "choco jouer", {"actions": f"invoque M{wizard} front"}, channel=thread
        )
        assert placed.message is not None
        assert "Tour joué" in shown(placed.message), shown(placed.message)
        await h.settle()
        await watch.check(game.id)
    for turn in range(MAX_TURNS):
        game = await choco(h).games.get(game.id)
        if game.status != "live":
            break
        seat = game.state.active
        user = users[game.player(seat)]
        if with_fault and turn == 2:  # a public fault notice must not name the card either
            await h.emu.run_command(user, "choco jouer", {"actions": "invoque M9 front"}, channel=thread)
            await h.settle()
            game = await choco(h).games.get(game.id)
            await watch.check(game.id)
        text = notation(game, policy(game.state, seat)) or "fin"
        played = await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
        assert played.message is not None
        assert "Tour joué" in shown(played.message), shown(played.message)
        await h.settle()
        after = await choco(h).games.get(game.id)
        reward = await reward_of(h, game.id) if after.status == "over" else set()
        await watch.check(game.id, reward)
    game = await choco(h).games.get(game.id)
    assert game.status == "over", game.state.turn
    return game.state.turn


async def test_no_public_message_names_a_hidden_card(harness: BotHarness) -> None:
    h = harness
    watch = Watch(h)
    decks = (
        ("alice", "bob", {"wizards_only": True}, {"wizards_only": True}),
        ("carl", "dora", {"wizards_only": False}, {"wizards_only": False, "offset": 1}),
        ("emma", "fred", {"wizards_only": False, "offset": 2}, {"wizards_only": True}),
    )
    turns = []
    for first, second, one, two in decks:
        a, b = h.user(first), h.user(second)
        await with_bronze_deck(h, a, **one)
        await with_bronze_deck(h, b, **two)
        watch.revealed = set()
        turns.append(await play_game(h, watch, a, b, with_fault=True))
    assert all(t > 1 for t in turns)
    assert watch.checked > 3 * 5
    assert watch.found == [], "\n\n".join(f"{n}: {shown(m)}" for m, n in watch.found)

    # Negative control: a public message naming a card then only in a hand is caught.
    game = max(await choco(h).games.live_games(h.user("alice").id) or [], key=lambda g: g.id, default=None)
    assert game is None
    last = await choco(h).games.get(3)
    assert last.thread_id is not None
    hidden = sorted(hidden_ids(last.state) - watch.revealed)
    assert hidden, "every card of the last game was revealed"
    name = watch.catalog.card(hidden[0]).name.fr  # type: ignore[union-attr]
    await h.emu.post_message(
        h.user("zoe"), f"Psst, il a {name} en main", channel=h.emu.world.channels[last.thread_id]
    )
    await watch.check(last.id)
    assert [n for _, n in watch.found] == [[name]]
