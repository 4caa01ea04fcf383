"""`/hoss classement` through Discord: public, in the server's language, naming players without pinging
them, and the HOSS line of /profile once a battle counted."""

from __future__ import annotations

import pytest

from emulator.interactions import InteractionResult
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import battle_message, hoss, start_rank_1, with_deck
from tests.e2e.messages import public_answer, shown

pytestmark = pytest.mark.usefixtures("no_pacing")


def text(result: InteractionResult) -> str:
    assert result.message is not None
    return shown(result.message)


async def test_the_server_board_and_the_profile_line(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob", locale="en-US")
    empty = public_answer(await harness.emu.run_command(bob, "hoss leaderboard"))  # after bob's welcome
    assert "Personne n'a encore fini de combat classé sur ce serveur." in shown(
        empty
    )  # the server's language

    await with_deck(harness, alice)
    await start_rank_1(harness, alice)
    await harness.emu.click(alice, "Passer à la fin", message=battle_message(harness))
    await harness.settle()
    (rank,) = [r for r in (await hoss(harness).ranked.ladder(alice.id)).ranks if r.rank == 1]
    assert rank.wins + rank.losses == 1

    board = await harness.emu.run_command(bob, "hoss classement")
    assert board.message is not None
    assert not board.message.ephemeral
    assert "Classement HOSS (1 joueur)" in text(board)
    assert f"1. <@{alice.id}> — Rang 1 · {rank.wins} V / {rank.losses} D" in text(board)

    profile = text(await harness.emu.run_command(alice, "profil"))
    assert f"Rang 1 atteint · {rank.wins} V / {rank.losses} D en combat classé" in profile
    english = text(await harness.emu.run_command(bob, "profile"))
    assert "in ranked battles" not in english  # bob has played no counted battle
