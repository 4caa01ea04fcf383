"""The HOSS raffle as players see it through Discord: the window and its 🎟️ button, the commitment posted
before the first ticket, the 20:00 draw's post and the winner's DM, verification with its file, a bot
that was down at 20:00, and refusals that change nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock
from emulator.world import Channel, User
from engine import fair_draw
from sandbox.harness import BotHarness
from services.hoss.gold import GOLD
from services.infra import ledger

PARIS = ZoneInfo("Europe/Paris")
NOON = datetime(2026, 1, 5, 12, 0, tzinfo=PARIS).astimezone(UTC)
DRAW = datetime(2026, 1, 5, 20, 0, tzinfo=PARIS).astimezone(UTC)


async def gold(h: BotHarness, user: User) -> int:
    assert h.bot is not None
    return await h.bot.services.db.read(lambda conn: ledger.balance(conn, user.id, GOLD))


async def announcements_here(h: BotHarness) -> None:
    admin = h.user("olivia")
    await h.emu.run_command(admin, "configuration annonces", {"salon": h.games_channel})


def announced(h: BotHarness) -> Channel:
    """Where the raffle posts: the games channel, made the announcements channel."""
    assert h.games_channel is not None
    return h.games_channel


def posts(h: BotHarness) -> list[str]:
    assert h.games_channel is not None
    return [m.render() for m in h.emu.channel_messages(h.games_channel)]


async def test_a_ticket_from_the_window_then_the_draw_is_posted_and_the_winner_told(
    harness: BotHarness,
) -> None:
    harness.clock.set(NOON)
    await announcements_here(harness)
    alice = harness.user("alice")
    window = await harness.emu.run_command(alice, "hoss tombola voir")
    assert window.message is not None
    assert window.message.ephemeral
    shown = window.message.render()
    assert "Tirage du 5 janvier 2026" in shown
    assert "Pas encore" in shown
    await harness.settle()
    commitment_posts = [p for p in posts(harness) if "Tombola du" in p]
    assert len(commitment_posts) == 1  # published with the raffle, before any ticket
    opened = harness.emu.channel_messages(announced(harness))[0]
    assert opened.button_labels == ["🎟️ Acheter un ticket (100 or)", "Vérifier"]
    before_draw = (await harness.emu.click(alice, "Vérifier", message=opened)).message
    assert before_draw is not None
    assert "engagement publié avant les ventes" in before_draw.render()

    bought = await harness.emu.click(alice, "🎟️ Acheter un ticket (100 or)")
    assert bought.message is not None
    assert "Ticket n° 1 pour le tirage du 5 janvier 2026" in bought.message.render()
    assert await gold(harness, alice) == 200

    again = await harness.emu.run_command(alice, "hoss tombola acheter")
    assert again.message is not None
    assert "déjà votre ticket" in again.message.render()
    assert await gold(harness, alice) == 200

    fired = await harness.advance(DRAW - NOON)
    assert fired >= 1
    results = [p for p in posts(harness) if "Résultats de la tombola" in p]
    assert len(results) == 1
    assert f"<@{alice.id}>" in results[0]
    assert harness.bot is not None
    seed = await harness.bot.services.db.read(
        lambda conn: conn.execute("SELECT seed FROM hoss_raffles").fetchone()[0]
    )
    assert seed not in results[0]  # behind « Vérifier »
    assert fair_draw.commitment(seed) in before_draw.render()
    assert seed not in before_draw.render()  # secret until the draw
    drawn = harness.emu.channel_messages(announced(harness))[-1]
    proof = (await harness.emu.click(alice, "Vérifier", message=drawn)).message
    assert proof is not None
    assert proof.ephemeral_to == alice
    assert f"`{seed}`" in proof.render()
    assert "`/hoss tombola vérifier jour:2026-01-05`" in proof.render()
    assert await gold(harness, alice) == 300  # the whole pot: one ticket, 100 gold
    dms = [m.render() for m in harness.emu.dm_messages(alice)]
    assert any("Vous avez gagné 100 or" in dm for dm in dms)

    verified = await harness.emu.run_command(alice, "hoss tombola vérifier", {"jour": "2026-01-05"})
    assert verified.message is not None
    assert "✅" in verified.message.render()
    (attachment,) = verified.message.attachments
    record = fair_draw.parse_published(attachment.data.decode())
    assert fair_draw.check_published(record).ok
    assert record.entries == (f"1:{alice.id}",)


async def test_sales_are_refused_in_the_frozen_minute_and_a_bad_day_is_explained(harness: BotHarness) -> None:
    harness.clock.set(DRAW - timedelta(seconds=30))
    bob = harness.user("bob")
    refused = await harness.emu.run_command(bob, "hoss tombola acheter")
    assert refused.message is not None
    assert "fermées de 19 h 59 à 20 h" in refused.message.render()
    assert await gold(harness, bob) == 300
    bad = await harness.emu.run_command(bob, "hoss tombola vérifier", {"jour": "demain"})
    assert bad.message is not None
    assert "AAAA-MM-JJ" in bad.message.render()
    none = await harness.emu.run_command(bob, "hoss tombola vérifier", {"jour": "2025-12-31"})
    assert none.message is not None
    assert "Aucun tirage" in none.message.render()


async def test_a_bot_down_at_2000_draws_once_at_start_up(tmp_path: Path) -> None:
    clock = ManualClock(NOON)
    db = tmp_path / "bot.sqlite3"
    first = BotHarness(db, clock=clock)
    await first.start()
    try:
        carol = first.user("carol")
        await first.emu.run_command(carol, "hoss tombola acheter")
        await first.settle()
        first.emu.assert_no_errors()
    finally:
        await first.stop()

    clock.set(DRAW + timedelta(hours=3))  # the bot was down from noon to 23:00
    second = BotHarness(db, clock=clock)
    await second.start()
    try:
        carol = second.user("carol")
        await second.settle()
        assert await gold(second, carol) == 300  # drawn at start-up: carol's ticket won the 100-gold pot
        assert await second.advance(timedelta(minutes=1)) == 0  # and never again
        assert await gold(second, carol) == 300
        second.emu.assert_no_errors()
        assert second.unexpected_errors == []
    finally:
        await second.stop()


async def test_a_forged_verify_button_reads_only_this_servers_draws(harness: BotHarness) -> None:
    """« Vérifier »'s custom_id names a day and a kind; the server is the click's: from another server the
    same button finds nothing, and a day that is no date is refused, both privately."""
    harness.clock.set(NOON)
    await announcements_here(harness)
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss tombola acheter")
    await harness.settle()
    assert harness.guild is not None
    elsewhere = harness.emu.add_channel(harness.emu.add_guild("Ailleurs", locale="fr"), "general")
    assert harness.bot is not None
    await harness.bot.tree.sync()
    here = await harness.emu.forge_component(
        alice, "hoss:proof:raffle:20260105", channel=harness.games_channel
    )
    there = await harness.emu.forge_component(alice, "hoss:proof:raffle:20260105", channel=elsewhere)
    broken = await harness.emu.forge_component(
        alice, "hoss:proof:arena:20261340", channel=harness.games_channel
    )
    for result in (here, there, broken):
        assert result.message is not None
        assert result.message.ephemeral
    assert "engagement publié avant les ventes" in here.message.render()  # type: ignore[union-attr]
    assert "Aucun tirage" in there.message.render()  # type: ignore[union-attr]
    assert "engagement" not in broken.message.render()  # type: ignore[union-attr]
