"""Chocobataille for newcomers through Discord (issue 17): two players who joined the server today, shut out
of the Bronze League for a month (VI.1), play a friendly game together and, at the same time, each a
practice game against the bot; nothing is counted, and no public message names a hidden card (the bot's
hand included)."""

from __future__ import annotations

from emulator.world import User
from engine.choco import Turn, ai_turn
from sandbox.harness import BotHarness
from store.connection import Connection
from tests.e2e.choco.helpers import Watch, choco, notation, play_to_the_end, with_bronze_deck
from tests.e2e.messages import shown

MAX_TURNS = 200


async def counted(h: BotHarness) -> tuple[int, int]:
    assert h.bot is not None

    def unit(conn: Connection) -> tuple[int, int]:
        results = conn.execute("SELECT COUNT(*) FROM choco_results").fetchone()[0]
        rewards = conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'choco.reward'").fetchone()[0]
        return int(results), int(rewards)

    return await h.bot.services.db.read(unit)


async def newcomer(h: BotHarness, name: str) -> User:
    user = h.user(name)
    await with_bronze_deck(h, user)
    assert h.guild is not None
    h.emu.world.set_joined(user, h.guild, h.clock.now())
    return user


async def start_practice(h: BotHarness, user: User) -> int:
    started = await h.emu.run_command(user, "choco entraînement", {}, channel=h.games_channel)
    assert started.message is not None
    assert started.message.ephemeral
    assert "partie d'entraînement" in shown(started.message), shown(started.message)
    await h.settle()
    games = [g for g in await choco(h).games.live_games(user.id) if g.mode == "practice"]
    assert len(games) == 1
    game = games[0]
    assert game.thread_id is not None
    assert "entraînement" in h.emu.world.channels[game.thread_id].name
    return game.id


async def thread_of(h: BotHarness, game_id: int) -> int:
    thread = (await choco(h).games.get(game_id)).thread_id
    assert thread is not None
    return thread


async def practice_move(h: BotHarness, user: User, game_id: int, watch: Watch) -> bool:
    """One declaration of the player (the bot's own policy from seat 0, typed in the text form); the bot
    has answered when the reply comes. False once the game is over."""
    game = await choco(h).games.get(game_id)
    if game.status != "live":
        return False
    assert game.to_act() == [0], "the game waits for the bot"
    assert game.thread_id is not None
    answer = ai_turn(game.state, 0)
    if isinstance(answer, Turn):
        text = notation(game, list(answer.steps)) or "fin"
    else:
        hand = [c.uid for c in game.state.sides[0].hand]
        text = f"invoque M{hand.index(answer.card) + 1} {answer.line}"
    thread = h.emu.world.channels[game.thread_id]
    played = await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
    assert played.message is not None
    assert "Tour joué" in shown(played.message), (text, shown(played.message))
    await h.settle()
    await watch.check(game_id)
    after = await choco(h).games.get(game_id)
    assert after.status != "live" or after.to_act() == [0]
    return True


async def test_newcomers_play_a_friendly_game_and_practice_games_at_once(harness: BotHarness) -> None:
    h = harness
    alice, bob = await newcomer(h, "alice"), await newcomer(h, "bob")

    ranked = await h.emu.run_command(
        alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=h.games_channel
    )
    assert ranked.message is not None
    assert ranked.message.ephemeral  # refused: a month of membership for the Bronze League
    assert "Ligue de Bronze" in shown(ranked.message)

    made = await h.emu.run_command(
        alice, "choco défi-amical", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=h.games_channel
    )
    assert made.message is not None
    assert not made.message.ephemeral
    assert "amicale" in shown(made.message)
    await h.emu.click(bob, "Accepter", message=made.message)
    await h.settle()
    friendly = next(g for g in await choco(h).games.live_games(alice.id) if g.mode == "friendly")
    assert friendly.thread_id is not None
    assert "amicale" in h.emu.world.channels[friendly.thread_id].name

    practices = {alice.id: await start_practice(h, alice), bob.id: await start_practice(h, bob)}
    watches = {u: Watch(h, await thread_of(h, game)) for u, game in practices.items()}
    assert len(await choco(h).games.live_games(alice.id)) == 2  # a friendly game and a practice game at once

    # The practice games move first, turn by turn, interleaved, while the friendly game waits.
    for _ in range(4):
        for user in (alice, bob):
            await practice_move(h, user, practices[user.id], watches[user.id])

    thread = h.emu.world.channels[friendly.thread_id]
    for user in (alice, bob):
        placed = await h.emu.run_command(user, "choco jouer", {"actions": "invoque M1 front"}, channel=thread)
        assert placed.message is not None
        assert "Tour joué" in shown(placed.message)
    await h.settle()
    await play_to_the_end(h, {alice.id: alice, bob.id: bob}, friendly.id)
    over = await choco(h).games.get(friendly.id)
    assert over.status == "over"
    assert over.reward_card is None
    titles = [str(m.render()) for m in h.emu.messages if m.channel.id == friendly.thread_id]
    assert all("amicale" in t for t in titles if "Partie" in t)

    for user in (alice, bob):
        for _ in range(MAX_TURNS):
            if not await practice_move(h, user, practices[user.id], watches[user.id]):
                break
        assert (await choco(h).games.get(practices[user.id])).status == "over"
    assert await counted(h) == (0, 0)
    for watch in watches.values():
        assert watch.checked > 5
        assert watch.found == [], "\n\n".join(f"{n}: {shown(m)}" for m, n in watch.found)
