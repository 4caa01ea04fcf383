"""Pillz duels as players see them through Discord: a friend match from the challenge to the result, a
practice match against the AI, a timeout decided by the AI, a restart in the middle, refused clicks, and
the public message showing a leading card with its pillz hidden (that the message cannot depend on the
bet is proved in tests/services/pillz/duels/)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing, asynccontextmanager
from datetime import timedelta
from pathlib import Path

from core.clock import ManualClock
from emulator.world import User
from sandbox.harness import BotHarness
from services.pillz.duel_match import DuelRow
from tests.e2e.conftest import run_harness
from tests.e2e.messages import public_answer, shown
from tests.e2e.pillz.helpers import duel_message, first_unused, friend_duel, move, pillz

ROUNDS = 4


async def play_out(h: BotHarness, users: dict[int, User], duel_id: int) -> DuelRow:
    for _ in range(2 * ROUNDS):
        duel = await pillz(h).duels.get(duel_id)
        if duel.status != "live":
            return duel
        seat = duel.to_act()[0]
        player = duel.seats[seat]
        assert player is not None
        assert duel.state is not None
        bet = min(3, duel.state.pillz[seat])
        if duel.state.pending is not None:  # the answer: before it, the public message hides the bet
            text = shown(duel_message(h, duel_id))
            assert "(pillz cachés)" in text
            assert f"{duel.state.pending[1]} pillz, ATQ" not in text.split("**Manche")[-1]
        await move(h, users[player], duel_id, await first_unused(h, duel_id, seat), bet)
    return await pillz(h).duels.get(duel_id)


async def test_a_friend_match_from_the_challenge_to_the_result(harness: BotHarness) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    text = shown(duel_message(harness, duel_id))
    assert f"Duel de Pillz n° {duel_id}" in text
    assert "commence" in text
    assert "12 PV" in text
    duel = await play_out(harness, {alice.id: alice, bob.id: bob}, duel_id)
    assert duel.status == "over"
    assert duel.result is not None
    final = shown(duel_message(harness, duel_id))
    assert "Victoire" in final or "Match nul" in final
    assert "classement 1 000 →" in final
    assert duel_message(harness, duel_id).button_labels == []
    rewards = duel.result["rewards"]
    assert {r["player_id"] for r in rewards} == {alice.id, bob.id}
    if duel.result["winner"] is not None:
        winner = rewards[duel.result["winner"]]
        assert winner["gold"] == 40
        assert winner["rating_after"] > winner["rating_before"]


async def test_a_practice_match_pays_nothing(harness: BotHarness) -> None:
    alice = harness.user("alice")
    started = await harness.emu.run_command(alice, "pillz entraînement")
    assert started.message is not None
    assert started.message.ephemeral
    await harness.settle()
    (duel,) = await pillz(harness).duels.live(alice.id)
    assert duel.kind == "practice"
    assert duel.seats[1] is None
    assert "Entraînement n°" in shown(duel_message(harness, duel.id))
    assert "l'IA" in shown(duel_message(harness, duel.id))
    duel = await play_out(harness, {alice.id: alice}, duel.id)
    assert duel.status == "over"
    assert duel.result is not None
    assert "rewards" not in duel.result
    assert "classement" not in shown(duel_message(harness, duel.id))


async def test_the_ai_plays_for_a_player_who_does_not_answer(harness: BotHarness) -> None:
    _, _, duel_id = await friend_duel(harness)
    duel = await pillz(harness).duels.get(duel_id)
    late = duel.to_act()[0]
    assert await harness.advance(timedelta(seconds=119)) == 0
    assert (await pillz(harness).duels.get(duel_id)).version == duel.version
    assert await harness.advance(timedelta(seconds=2)) == 1
    after = await pillz(harness).duels.get(duel_id)
    assert after.version > duel.version
    assert after.notes == ({"round": 1, "seat": late},)
    who = f"<@{duel.seats[late]}>"  # mentions inside an embed are shown as written
    assert f"⏱ Manche 1\u00a0: {who} n'a pas joué à temps, l'IA a choisi à sa place." in shown(
        duel_message(harness, duel_id)
    )


async def test_other_players_clicks_are_refused_privately(harness: BotHarness) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    carol = harness.user("carol")
    duel = await pillz(harness).duels.get(duel_id)
    waiting = bob if duel.seats[duel.to_act()[0]] == alice.id else alice
    for user, needle in (
        (carol, "Vous ne jouez pas dans ce duel."),
        (waiting, "Ce n'est pas à vous de jouer"),
    ):
        refused = await harness.emu.click(user, "Jouer", message=duel_message(harness, duel_id))
        assert refused.message is not None
        assert refused.message.ephemeral
        assert needle in shown(refused.message)
    assert (await pillz(harness).duels.get(duel_id)).version == duel.version


@asynccontextmanager
async def running(db: Path, clock: ManualClock) -> AsyncIterator[BotHarness]:
    async with aclosing(run_harness(BotHarness(db, clock=clock, seed=5))) as started:
        async for h in started:
            yield h


async def test_a_restart_in_the_middle_of_a_duel(tmp_path: Path) -> None:
    clock = ManualClock()
    db = tmp_path / "bot.sqlite3"
    async with running(db, clock) as h:
        alice = h.user("alice")
        await h.emu.run_command(alice, "pillz entraînement")
        await h.settle()
        (duel,) = await pillz(h).duels.live(alice.id)
        seat = duel.to_act()[0]
        await move(h, alice, duel.id, await first_unused(h, duel.id, seat), 2)
        before = await pillz(h).duels.get(duel.id)
    clock.advance(timedelta(minutes=5))  # the bot is down when the choice time passes
    async with running(db, clock) as h:
        await h.settle()
        after = await pillz(h).duels.get(duel.id)
        assert after.version > before.version
        assert len(after.notes) == 1
        assert after.state is not None
        assert before.state is not None
        assert len(after.state.history) >= len(before.state.history)


async def test_a_player_in_two_duels_at_once(harness: BotHarness) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    ids = []
    for opponent in (bob, carol):
        await harness.emu.run_command(opponent, "pillz collection")  # each has a starter deck
        made = await harness.emu.run_command(alice, "pillz défi", {"joueur": opponent})
        await harness.emu.click(opponent, "Accepter", message=public_answer(made))
        await harness.settle()
    duels = await pillz(harness).duels.live(alice.id)
    ids = [d.id for d in duels]
    assert len(ids) == 2
    users = {alice.id: alice, bob.id: bob, carol.id: carol}
    for duel_id in ids:  # one move in each: the controls of one duel never act on the other
        duel = await pillz(harness).duels.get(duel_id)
        seat = duel.to_act()[0]
        player = duel.seats[seat]
        assert player is not None
        await move(harness, users[player], duel_id, await first_unused(harness, duel_id, seat), 1)
        other = next(i for i in ids if i != duel_id)
        assert (await pillz(harness).duels.get(duel_id)).version > duel.version
        assert (await pillz(harness).duels.get(other)).status == "live"
    finished = [await play_out(harness, users, duel_id) for duel_id in ids]
    assert all(d.status == "over" for d in finished)


async def test_the_choice_time_is_a_server_setting(harness: BotHarness) -> None:
    admin = harness.user("olivia", admin=True)
    saved = await harness.emu.run_command(admin, "configuration pillz", {"secondes": 60})
    assert saved.message is not None
    assert "Pillz — temps par choix\u00a0: 60 s" in shown(saved.message)
    _, _, duel_id = await friend_duel(harness)
    duel = await pillz(harness).duels.get(duel_id)
    assert await harness.advance(timedelta(seconds=59)) == 0
    assert await harness.advance(timedelta(seconds=2)) == 1
    assert (await pillz(harness).duels.get(duel_id)).version > duel.version
    assert await pillz(harness).duels.choice_seconds(harness.guild.id if harness.guild else 0) == 60
