"""Chocobataille deadlines across restarts of the bot (same database file, same clock), and hands for a
player whose DMs are closed.

A restart is a new BotHarness on the same database and ManualClock, as in test_startup_and_restart.py;
the new emulator gets the same server, channels and users (their ids derive from their names) and the
game's thread back with its id, as Discord would still have them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing, asynccontextmanager
from datetime import timedelta
from pathlib import Path

from core.clock import ManualClock
from discord_app.render import text
from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import GAMES_CHANNEL, GUILD_NAME, BotHarness
from services.choco.game_store import GameRow
from services.choco.text import card_name
from tests.e2e.choco.helpers import challenge_accepted, choco, greedy_turn, notation, with_bronze_deck
from tests.e2e.conftest import run_harness
from tests.e2e.messages import shown
from tests.fixtures import postgres

PENALTY = "Pénalité d'inactivité"
DOWNTIME = "Le bot a été indisponible"
NAMES = ("olivia", "alice", "bob")
MAX_TURNS = 200
SEED = 11  # the games' draws are seeded, so that every run plays the same game


@asynccontextmanager
async def running(
    db: Path, clock: ManualClock, game: GameRow | None = None, dms_closed: tuple[str, ...] = ()
) -> AsyncIterator[BotHarness]:
    """A (re)started bot; with `game`, the emulator already holds that game's thread, as Discord would."""
    h = BotHarness(db, clock=clock, owners=("olivia",), seed=SEED)
    for name in NAMES:
        h.user(name, dms_closed=name in dms_closed)
    if game is not None and game.thread_id is not None:
        guild = h.emu.add_guild(GUILD_NAME, locale="fr")
        parent = h.emu.add_channel(guild, GAMES_CHANNEL)
        h.emu.world.add_thread(
            parent, f"Chocobataille n° {game.id}", owner=h.user("alice"), thread_id=game.thread_id
        )
    async with aclosing(run_harness(h)) as started:
        async for ready in started:
            yield ready


def users(h: BotHarness) -> tuple[User, User]:
    return h.user("alice"), h.user("bob")


async def declare(h: BotHarness, user: User, game_id: int, text: str) -> None:
    game = await choco(h).games.get(game_id)
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    result = await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
    assert result.message is not None
    assert "Tour joué" in shown(result.message), (text, shown(result.message))
    await h.settle()


async def new_game(h: BotHarness) -> GameRow:
    """Both players with a Bronze deck, the challenge accepted, the preparatory turn played."""
    alice, bob = users(h)
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob)
    game = await challenge_accepted(h, alice, bob)
    for user in (alice, bob):
        await declare(h, user, game.id, "invoque M1 front")
    return await choco(h).games.get(game.id)


async def play_turns(h: BotHarness, game_id: int, count: int) -> GameRow:
    by_id = {u.id: u for u in users(h)}
    for _ in range(count):
        game = await choco(h).games.get(game_id)
        if game.status != "live":
            break
        seat = game.state.active
        text = notation(game, greedy_turn(game.state, seat)) or "fin"
        await declare(h, by_id[game.player(seat)], game_id, text)
    return await choco(h).games.get(game_id)


def thread_posts(h: BotHarness, game: GameRow) -> list[RecordedMessage]:
    assert game.thread_id is not None
    return h.emu.channel_messages(h.emu.world.channels[game.thread_id])


def penalty_posts(h: BotHarness, game: GameRow) -> int:
    return sum(PENALTY in shown(m) for m in thread_posts(h, game))


def log_count(db: Path, kind: str) -> int:
    with postgres.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM choco_game_log WHERE kind = ?", (kind,)).fetchone()[0])


async def test_a_deadline_passed_while_down_fires_once_at_start_up(tmp_path: Path) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    async with running(db, clock) as h:
        game = await play_turns(h, (await new_game(h)).id, 1)
        called = game.seats[game.state.active]
        assert game.deadline_at is not None
        assert game.deadline_at == clock.now() + timedelta(hours=24)

    clock.advance(timedelta(hours=30))  # down when D passed
    async with running(db, clock, game) as h:
        await h.settle()
        assert penalty_posts(h, game) == 1
        assert log_count(db, "penalty_24h") == 1
        after = await choco(h).games.get(game.id)
        assert after.stage == 1
        assert after.state.turn == game.state.turn
        called_user = next(u for u in users(h) if u.id == called)
        # the reminders of a D already passed say nothing: "12 h left" would be false
        assert [m for m in h.emu.dm_messages(called_user) if "Rappel" in shown(m)] == []

    clock.advance(timedelta(minutes=5))
    async with running(db, clock, game) as h:
        await h.settle()
        assert penalty_posts(h, game) == 0
        assert log_count(db, "penalty_24h") == 1


async def test_forgiven_downtime_moves_the_deadlines(tmp_path: Path) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    async with running(db, clock) as h:
        olivia = h.user("olivia")
        made = await h.emu.run_command(olivia, "configuration chocobataille", {"pardon-panne": True})
        assert made.message is not None
        assert made.message.ephemeral
        game = await play_turns(h, (await new_game(h)).id, 1)
        called_at = clock.now()
        assert game.deadline_at == called_at + timedelta(hours=24)

    down = timedelta(hours=30)
    clock.advance(down)
    async with running(db, clock, game) as h:
        await h.settle()
        assert penalty_posts(h, game) == 0
        assert log_count(db, "penalty_24h") == 0
        assert log_count(db, "downtime_forgiven") == 1
        assert sum(DOWNTIME in shown(m) for m in thread_posts(h, game)) == 1
        moved = await choco(h).games.get(game.id)
        assert moved.deadline_at == called_at + timedelta(hours=24) + down
        assert moved.pass_at == called_at + timedelta(hours=72) + down
        assert moved.deadline_at is not None
        await h.advance(moved.deadline_at - clock.now() - timedelta(minutes=1))
        assert penalty_posts(h, game) == 0
        await h.advance(timedelta(minutes=1))
        assert penalty_posts(h, game) == 1
        assert log_count(db, "penalty_24h") == 1


async def test_a_game_goes_on_to_the_end_after_a_restart(tmp_path: Path) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    async with running(db, clock) as h:
        before = await play_turns(h, (await new_game(h)).id, 4)
        assert before.status == "live"
        assert before.state.turn == 5
    with postgres.connect(db) as conn:
        logged = conn.execute("SELECT COUNT(*) FROM choco_game_log").fetchone()[0]

    clock.advance(timedelta(minutes=1))
    async with running(db, clock, before) as h:
        again = await choco(h).games.get(before.id)
        assert again.state == before.state
        assert again.version == before.version
        assert again.deadline_at == before.deadline_at
        assert thread_posts(h, before) == []  # nothing re-posted, nothing penalised
        end = await play_turns(h, before.id, MAX_TURNS)
        assert end.status == "over"
        assert end.result == "win"
        assert end.state.turn > before.state.turn
        assert any("remporte une carte" in shown(m) for m in thread_posts(h, before))
        assert h.emu.world.channels[before.thread_id or 0].archived
    with postgres.connect(db) as conn:
        kinds = [k for (k,) in conn.execute("SELECT kind FROM choco_game_log ORDER BY seq")]
        seqs = [s for (s,) in conn.execute("SELECT seq FROM choco_game_log ORDER BY seq")]
    assert len(kinds) > logged
    assert seqs == list(range(1, len(seqs) + 1))
    assert kinds[-1] == "end"
    assert not any(k.startswith("penalty") for k in kinds)


async def test_closed_dms_give_a_private_hand_button_in_the_thread(tmp_path: Path) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    async with running(db, clock, dms_closed=("alice",)) as h:
        alice, bob = users(h)
        await with_bronze_deck(h, alice)
        await with_bronze_deck(h, bob)
        game = await challenge_accepted(h, alice, bob)
        assert h.emu.dm_messages(alice) == []
        assert len(h.emu.dm_messages(bob)) == 1
        fallback = [m for m in thread_posts(h, game) if "vos messages privés sont fermés" in shown(m)]
        assert len(fallback) == 1
        assert f"<@{alice.id}>" in fallback[0].content
        assert "Voir ma main" in shown(fallback[0])
        alice_hand = await choco(h).games.hand(game.id, alice.id)
        bob_hand = await choco(h).games.hand(game.id, bob.id)
        assert alice_hand != bob_hand

        mine = await h.emu.click(alice, "Voir ma main", message=fallback[0])
        assert mine.message is not None
        assert mine.message.ephemeral_to == alice
        assert f"Votre main — partie n° {game.id}" in shown(mine.message)
        first_card = hand_lines(shown(mine.message))
        assert first_card  # her cards are listed

        theirs = await h.emu.click(bob, "Voir ma main", message=fallback[0])
        assert theirs.message is not None
        assert theirs.message.ephemeral_to == bob
        assert "Ce message ne vous est pas destiné." in shown(theirs.message)
        assert not set(first_card) & set(hand_lines(shown(theirs.message)))

        # the referee's post carries a "Voir ma main" button too: each clicker sees their own hand
        post = next(
            m for m in reversed(thread_posts(h, game)) if m.components and "choco:hand:" in str(m.components)
        )
        seen = {}
        for user in (alice, bob):
            click = await h.emu.click(user, "Voir ma main", message=post)
            assert click.message is not None
            assert click.message.ephemeral_to == user
            seen[user.name] = hand_lines(shown(click.message))
        bob_dm = hand_lines(shown(h.emu.dm_messages(bob)[0]))
        assert seen["alice"] == first_card
        assert seen["bob"] == bob_dm
        assert seen["alice"] != seen["bob"]


def hand_lines(text: str) -> list[str]:
    """The hand's card lines ("M1 Name — ..."), as the hand message lists them."""
    return [
        line.strip(" |") for line in text.splitlines() if line.strip(" |").startswith("M") and " — " in line
    ]


async def test_the_preparatory_turn_has_the_same_ladder_and_says_the_placement_was_forced(
    tmp_path: Path,
) -> None:
    """IV.1 makes the preparatory turn the game's first turn, so V.2 holds there: bob never places his
    card; at D a card of his pioche is destroyed, at 3 D his placement is forced (a passed turn) and the
    thread says so, naming him; alice's face-down card stays unnamed until the reveal."""
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    async with running(db, clock) as h:
        alice, bob = users(h)
        await with_bronze_deck(h, alice)
        await with_bronze_deck(h, bob)
        game = await challenge_accepted(h, alice, bob)
        await declare(h, alice, game.id, "invoque M1 front")
        placed = await choco(h).games.get(game.id)
        seat = placed.seats.index(bob.id)
        hidden = placed.state.sides[1 - seat].front[0].card_id
        hidden_name = text(card_name(choco(h).economy.decks.catalog, hidden), "fr")

        await h.advance(timedelta(hours=23, minutes=59))
        assert penalty_posts(h, game) == 0
        await h.advance(timedelta(minutes=1))
        assert penalty_posts(h, game) == 1
        assert log_count(db, "penalty_24h") == 1
        at_d = await choco(h).games.get(game.id)
        assert at_d.state.turn == 0
        assert len(at_d.state.sides[seat].graveyard) == 1

        await h.advance(timedelta(hours=48))
        after = await choco(h).games.get(game.id)
        assert after.state.turn == 1
        assert after.state.passes[seat] == 1
        assert log_count(db, "penalty_72h") == 1
        posts = [shown(m) for m in thread_posts(h, game)]
        forced = [p for p in posts if "Placement forcé par inactivité" in p]
        assert len(forced) == 1
        assert f"<@{bob.id}>" in forced[0]
        assert "dévoile" in forced[0]
        before_reveal = posts[: posts.index(forced[0])]
        assert before_reveal
        assert not any(hidden_name in p for p in before_reveal)
