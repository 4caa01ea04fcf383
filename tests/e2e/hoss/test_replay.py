"""/hoss revoir through Discord: a live battle's replay (its seed) never leaves the bot; a finished battle
replays for its player and, being public in its server, for that server's members; another server's
battle reads exactly like an unknown id."""

from __future__ import annotations

import logging

import pytest

from emulator.interactions import InteractionResult
from emulator.world import Channel
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import battle_message, hoss, start_rank_1, with_deck
from tests.e2e.messages import after_welcome, shown
from tests.support.harness import here

NOT_FOUND = "Combat introuvable."

pytestmark = pytest.mark.usefixtures("no_pacing")


async def other_server(h: BotHarness) -> Channel:
    """A second server where the commands are published too (as `/admin sync` does)."""
    assert h.bot is not None
    guild = h.emu.add_guild("Autre serveur", locale="fr")
    channel = h.emu.add_channel(guild, "jeux")
    await h.bot.tree.sync()
    return channel


def everything_sent(h: BotHarness) -> str:
    """Every message the bot sent or edited, with its attachments' bytes."""
    parts = []
    for message in h.emu.messages:
        parts.append(shown(message))
        parts += [a.data.decode("utf-8", "replace") for a in message.attachments]
    return "\n".join(parts)


def refusal(result: InteractionResult) -> str:
    message = result.message
    assert message is not None
    assert message.ephemeral
    assert message.attachments == []
    return after_welcome(shown(message))  # a player's first HOSS command: its welcome on top


async def test_a_live_battle_is_never_replayed_and_its_seed_stays_in(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is not None
    assert harness.bot is not None
    seed = await harness.bot.services.db.read(
        lambda conn: str(
            conn.execute("SELECT seed FROM matches WHERE game = 'hoss' AND number = ?", (battle,)).fetchone()[
                0
            ]
        )
    )

    own = refusal(await harness.emu.run_command(alice, "hoss revoir", {"id": battle}))
    assert f"Le combat n° {battle} n'est pas terminé" in own
    other = refusal(await harness.emu.run_command(bob, "hoss revoir", {"id": battle}))
    unknown = refusal(await harness.emu.run_command(bob, "hoss revoir", {"id": battle + 1000}))
    assert other == unknown == NOT_FOUND
    await harness.emu.run_command(alice, "hoss combat")  # the battle shown again: no log attached while live
    await harness.settle()
    assert seed not in everything_sent(harness)
    assert seed not in caplog.text


async def test_a_finished_battle_replays_for_its_player_and_its_server_only(harness: BotHarness) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is not None
    await harness.emu.click(alice, "Passer à la fin", message=battle_message(harness))
    await harness.settle()
    log = await hoss(harness).ranked.log(alice.id, battle, here(harness))

    for viewer in (alice, bob):  # the player, and a member of the server where it was posted
        replay = await harness.emu.run_command(viewer, "hoss revoir", {"id": battle})
        assert replay.message is not None
        assert replay.message.ephemeral
        assert f"Revoir le combat n° {battle}" in shown(replay.message)
        assert replay.message.attachments[0].data.decode() == log

    elsewhere = await other_server(harness)
    foreign = await harness.emu.run_command(carol, "hoss revoir", {"id": battle}, channel=elsewhere)
    unknown = await harness.emu.run_command(carol, "hoss revoir", {"id": battle + 1000}, channel=elsewhere)
    assert refusal(foreign) == refusal(unknown) == NOT_FOUND
    own = await harness.emu.run_command(alice, "hoss revoir", {"id": battle}, channel=elsewhere)
    assert own.message is not None
    assert own.message.attachments[0].data.decode() == log
