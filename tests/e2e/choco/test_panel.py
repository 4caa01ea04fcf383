"""The guided panel as players use it through Discord: the preparatory placement and whole turns built
only from its selects (opened from the thread's post and from the hand DM), the preview lines, "Valider"
offered only once the turn may end, undo and clear, a stale panel, foreign clicks, and the English panel."""

from __future__ import annotations

from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from services.choco.panel import encode
from tests.e2e.choco.helpers import challenge_accepted, choco, greedy_turn, with_bronze_deck
from tests.e2e.messages import shown

OPEN = "Déclarer mon tour"
STALE = "La partie a changé entre-temps"


def thread_post(h: BotHarness, game: GameRow) -> RecordedMessage:
    """The newest public post of the game's thread offering the panel."""
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    posts = [m for m in h.emu.messages if m.channel is thread and not m.ephemeral and OPEN in m.button_labels]
    assert posts
    return posts[-1]


def dm_post(h: BotHarness, user: User, label: str = OPEN) -> RecordedMessage:
    posts = [
        m
        for m in h.emu.messages
        if m.channel.is_dm and m.channel.recipient is user and label in m.button_labels
    ]
    assert posts, user.name
    return posts[-1]


def button(message: RecordedMessage, label: str) -> dict[str, object]:
    found = [b for b in message.buttons if b.get("label") == label]
    assert len(found) == 1, (label, message.button_labels)
    return found[0]


def values(message: RecordedMessage) -> list[str]:
    return [str(o["value"]) for s in message.selects for o in s.get("options") or []]


async def open_panel(
    h: BotHarness, user: User, source: RecordedMessage, label: str = OPEN
) -> RecordedMessage:
    result = await h.emu.click(user, label, message=source)
    assert result.message is not None, result
    assert result.message.ephemeral, result
    return result.message


async def pick(h: BotHarness, user: User, panel: RecordedMessage, value: str) -> RecordedMessage:
    assert value in values(panel), (value, values(panel))
    result = await h.emu.select(user, values=[value], message=panel)
    assert result.message is not None
    assert result.message.ephemeral
    return result.message


async def started(h: BotHarness, *, bob_locale: str = "fr") -> tuple[User, User, GameRow]:
    alice, bob = h.user("alice"), h.user("bob", locale=bob_locale)
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob)
    return alice, bob, await challenge_accepted(h, alice, bob)


async def prepare_by_panel(h: BotHarness, alice: User, bob: User, game: GameRow) -> GameRow:
    """Alice places from the thread post's button, Bob from his DM's button."""
    bob_label = OPEN if bob.locale.startswith("fr") else "Declare my turn"
    for user, source, label in (
        (alice, thread_post(h, game), OPEN),
        (bob, dm_post(h, bob, bob_label), bob_label),
    ):
        panel = await open_panel(h, user, source, label)
        assert "Tour préparatoire" in shown(panel) or "Preparatory turn" in shown(panel)
        assert [b.get("label") for b in panel.buttons] == []  # the placement is sent at once
        french = user.locale.startswith("fr")
        assert all(label.startswith("Poser " if french else "Place ") for label in panel.select_options)
        placement = next(v for v in values(panel) if v.startswith("p:") and v.endswith(":front"))
        done = await pick(h, user, panel, placement)
        assert ("Tour joué" if french else "Turn played") in shown(done), shown(done)
        assert ("• Poser " if french else "• Place ") in shown(done), shown(done)
        assert done.selects == []
        await h.settle()
    game = await choco(h).games.get(game.id)
    assert game.state.turn == 1
    assert all(len(s.front) == 1 for s in game.state.sides)
    return game


async def panel_turn(h: BotHarness, user: User, panel: RecordedMessage, game: GameRow) -> RecordedMessage:
    """Build the greedy turn from the panel's selects, checking the preview and "Valider" on the way."""
    seat = game.state.active
    steps = greedy_turn(game.state, seat)
    for n, step in enumerate(steps, 1):
        panel = await pick(h, user, panel, encode(step))
        assert f"{n}. " in shown(panel), shown(panel)
    assert button(panel, "Valider").get("disabled") in (None, False)
    done = await h.emu.click(user, "Valider", message=panel)
    assert done.message is not None
    assert done.message.ephemeral
    assert "Tour joué" in shown(done.message), shown(done.message)
    await h.settle()
    return done.message


async def test_placement_and_turns_only_through_the_panel(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    alice, bob, game = await started(h)
    users = {alice.id: alice, bob.id: bob}
    game = await prepare_by_panel(h, alice, bob, game)

    # Turn 1, from the thread post: "Valider" waits for the summon; undo and clear work.
    player = users[game.player(game.state.active)]
    panel = await open_panel(h, player, thread_post(h, game))
    text = shown(panel)
    assert f"Votre tour — partie n° {game.id}" in text
    assert "Rien de déclaré" in text
    assert button(panel, "Valider").get("disabled") is True
    assert button(panel, "Annuler la dernière").get("disabled") is True
    summon = encode(greedy_turn(game.state, game.state.active)[0])
    assert summon.startswith("s:")
    panel = await pick(h, player, panel, summon)
    assert "1. Invoquer " in shown(panel)
    assert "Votre déclaration" in shown(panel)
    assert button(panel, "Valider").get("disabled") in (None, False)
    undone = await h.emu.click(player, "Annuler la dernière", message=panel)
    assert undone.message is not None
    panel = undone.message
    assert "Rien de déclaré" in shown(panel)
    assert button(panel, "Valider").get("disabled") is True
    panel = await pick(h, player, panel, summon)
    cleared = await h.emu.click(player, "Tout effacer", message=panel)
    assert cleared.message is not None
    panel = cleared.message
    assert "Rien de déclaré" in shown(panel)
    assert button(panel, "Valider").get("disabled") is True
    version = game.version
    await panel_turn(h, player, panel, game)
    after = await choco(h).games.get(game.id)
    assert after.version > version
    assert after.state.turn == 2
    assert after.state.active != game.state.active

    # Turns 2 and 3, each from the DM of the player called.
    for _ in range(2):
        game = await choco(h).games.get(game.id)
        player = users[game.player(game.state.active)]
        panel = await open_panel(h, player, dm_post(h, player))
        await panel_turn(h, player, panel, game)
    game = await choco(h).games.get(game.id)
    assert game.state.turn == 4 or game.status == "over"


async def test_a_stale_panel_changes_nothing(harness: BotHarness) -> None:
    h = harness
    alice, bob, game = await started(h)
    users = {alice.id: alice, bob.id: bob}
    game = await prepare_by_panel(h, alice, bob, game)
    player = users[game.player(game.state.active)]
    panel = await open_panel(h, player, thread_post(h, game))
    summon = encode(greedy_turn(game.state, game.state.active)[0])
    panel = await pick(h, player, panel, summon)
    assert await h.advance(timedelta(hours=24, minutes=1)) >= 1  # the 24 h penalty: a new version
    moved = await choco(h).games.get(game.id)
    assert moved.version > game.version
    assert moved.state.active == game.state.active
    for act in ("Valider", "Tout effacer", "Annuler la dernière"):
        refused = await h.emu.click(player, act, message=panel)
        assert refused.message is not None
        assert refused.message.ephemeral
        assert STALE in shown(refused.message), shown(refused.message)
    other = next(v for v in values(panel) if v != summon)
    refused = await h.emu.select(player, values=[other], message=panel)
    assert refused.message is not None
    assert STALE in shown(refused.message)
    assert (await choco(h).games.get(game.id)).version == moved.version
    fresh = await open_panel(h, player, thread_post(h, moved))
    assert "Rien de déclaré" in shown(fresh)  # the old draft died with its version

    # A second panel of a turn already played is stale too (not "not your turn").
    second = await open_panel(h, player, thread_post(h, moved))
    await panel_turn(h, player, fresh, moved)
    refused = await h.emu.select(player, values=[values(second)[0]], message=second)
    assert refused.message is not None
    assert STALE in shown(refused.message)


async def test_the_opponent_is_refused_privately(harness: BotHarness) -> None:
    h = harness
    alice, bob, game = await started(h)
    users = {alice.id: alice, bob.id: bob}
    game = await prepare_by_panel(h, alice, bob, game)
    player = users[game.player(game.state.active)]
    other = users[game.player(1 - game.state.active)]
    post = thread_post(h, game)
    refused = await h.emu.click(other, OPEN, message=post)
    assert refused.message is not None
    assert refused.message.ephemeral
    assert refused.message.ephemeral_to is other
    assert "Ce n'est pas à vous de jouer" in shown(refused.message)

    panel = await open_panel(h, player, post)
    summon = encode(greedy_turn(game.state, game.state.active)[0])
    # The opponent cannot see the ephemeral panel; a forged interaction with its custom ids is refused.
    for data in (
        {"custom_id": str(panel.selects[0]["custom_id"]), "component_type": 3, "values": [summon]},
        {"custom_id": str(button(panel, "Valider")["custom_id"]), "component_type": 2},
    ):
        forged = await h.emu._component(other, panel, data, None)
        assert forged.message is not None
        assert forged.message.ephemeral_to is other
        assert "Ce n'est pas à vous de jouer" in shown(forged.message), shown(forged.message)
    mine = await open_panel(h, player, post)
    assert "Rien de déclaré" in shown(mine)
    assert (await choco(h).games.get(game.id)).version == game.version


async def test_the_panel_in_english(harness: BotHarness) -> None:
    h = harness
    alice, bob, game = await started(h, bob_locale="en")
    game = await prepare_by_panel(h, alice, bob, game)
    if game.seats[game.state.active] != bob.id:
        alice_panel = await open_panel(h, alice, thread_post(h, game))
        await panel_turn(h, alice, alice_panel, game)
        game = await choco(h).games.get(game.id)
    panel = await open_panel(h, bob, dm_post(h, bob, "Declare my turn"), "Declare my turn")
    text = shown(panel)
    assert f"Your turn — game #{game.id}" in text
    assert "Nothing declared yet." in text
    assert [b.get("label") for b in panel.buttons] == ["Undo the last", "Clear all", "Submit"]
    summon = encode(greedy_turn(game.state, game.state.active)[0])
    panel = await pick(h, bob, panel, summon)
    assert "1. Summon " in shown(panel)
    assert "Invoquer" not in shown(panel)
    assert all("Invoquer" not in label and "Poser" not in label for label in panel.select_options)
