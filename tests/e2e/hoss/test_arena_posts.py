"""The Arena's posts as a server sees them through Discord: the ranking appears in the announcements
channel at the first hourly ranking with 2 players, the same message is edited the next hour, and the
close edits it once more and posts the results; nobody is pinged. Each post's « Vérifier » shows its
proof privately: the commitment while the season runs, the revealed seed once closed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from emulator.records import RequestRecord
from sandbox.harness import BotHarness
from services.hoss import HossServices
from tests.services.hoss.arena import PARIS, TUESDAY_NOON, veteran, with_decks

CLOSES = datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC)


def hoss(h: BotHarness) -> HossServices:
    assert h.bot is not None
    services: HossServices = h.bot.services.games["hoss"]
    return services


def channel_posts(h: BotHarness) -> list[str]:
    assert h.games_channel is not None
    return [m.render() for m in h.emu.channel_messages(h.games_channel)]


async def test_the_ranking_is_posted_edited_each_hour_and_closed_with_the_results(
    harness: BotHarness, payload_limits: list[RequestRecord]
) -> None:
    assert harness.bot is not None
    assert harness.guild is not None
    channel = harness.games_channel
    assert channel is not None
    harness.clock.set(TUESDAY_NOON)
    await harness.emu.run_command(harness.user("olivia"), "configuration annonces", {"salon": channel})
    alice, bob = harness.user("alice"), harness.user("bob")
    services = hoss(harness)
    for user in (alice, bob):
        await veteran(
            harness.bot.services.db,
            harness.clock,
            services.decks.catalog,
            user.id,
            registry=harness.bot.services.registry,
        )
        await with_decks(services.decks, user.id)
        await services.arena.register(harness.guild.id, user.id, 1, 2)
    await harness.settle()
    assert channel_posts(harness) == []  # shown from the first hourly ranking

    assert await harness.advance(timedelta(hours=1)) == 1
    (post,) = channel_posts(harness)
    assert f"<@{alice.id}>" in post
    assert f"<@{bob.id}>" in post
    assert "2 joueurs" in post
    sends = [r for r in payload_limits if r.method == "POST" and r.path.endswith("/messages")]
    assert sends[-1].json["allowed_mentions"] == {"parse": []}  # mentions shown, nobody pinged

    assert await harness.advance(timedelta(hours=1)) == 1
    (edited,) = harness.emu.channel_messages(channel)
    assert len(edited.history) == 1  # the same message, edited once
    commitment = (await harness.emu.click(bob, "Vérifier", message=edited)).message
    assert commitment is not None
    assert commitment.ephemeral_to == bob
    assert "engagement des tirages" in commitment.render()
    seed_now = await harness.bot.services.db.read(
        lambda conn: conn.execute("SELECT seed FROM hoss_arena_seasons").fetchone()[0]
    )
    assert seed_now not in commitment.render()  # secret until the close

    await harness.advance(CLOSES - harness.clock.now())
    board, results = harness.emu.channel_messages(channel)
    assert board.id == edited.id
    assert "Saison terminée" in board.render()
    seed = await harness.bot.services.db.read(
        lambda conn: conn.execute("SELECT seed FROM hoss_arena_seasons").fetchone()[0]
    )
    assert seed not in results.render()
    assert seed not in board.render()
    assert "3\u202f000 or" in results.render()
    assert all(seed not in str(r.json) for r in payload_limits)  # in no message the bot sent
    proof = (await harness.emu.click(alice, "Vérifier", message=results)).message
    assert proof is not None
    assert proof.ephemeral_to == alice
    assert f"Graine révélée\u00a0: `{seed}`" in proof.render()
    assert "/hoss arène vérifier semaine:2026-01-05" in proof.render()
    assert board.button_labels == ["Vérifier"]
