"""Drops as players see them through Discord: a manager turns them on, players' commands make room for
one, it appears in the games channel with its picture and « Prendre », every click within the window
enters, the result edits the drop, and « Vérifier » shows the proof privately."""

from __future__ import annotations

from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import User
from engine import fair_draw
from sandbox.harness import BotHarness
from tests.e2e.authorization import id_in


async def drops_on(h: BotHarness, rhythm: str = "Fréquents", **options: str) -> str:
    admin = h.user("olivia")
    await h.emu.run_command(admin, "configuration salon-parties", {"salon": h.games_channel})
    reply = await h.emu.run_command(admin, "configuration drops", {"rythme": rhythm, **options})
    assert reply.message is not None
    return reply.message.render()


async def players_active(h: BotHarness, *names: str) -> list[User]:
    users = [h.user(name) for name in names]
    for user in users:
        await h.emu.run_command(user, "profil")
    await h.settle()
    return users


def drop_messages(h: BotHarness) -> list[RecordedMessage]:
    assert h.games_channel is not None
    return [m for m in h.emu.channel_messages(h.games_channel) if "drop" in m.render().lower()]


async def a_drop(h: BotHarness) -> RecordedMessage:
    """Drops on ("Fréquents"), three players active, and the minutes it takes for one to appear."""
    await drops_on(h)
    await players_active(h, "alice", "bob", "carol")
    await h.advance(timedelta(minutes=11))
    (drop,) = drop_messages(h)
    return drop


async def test_a_drop_appears_is_taken_by_clicks_and_drawn_fairly(harness: BotHarness) -> None:
    h = harness
    drop = await a_drop(h)
    shown = drop.render()
    assert "Un drop apparaît" in shown
    assert "[Prendre]" in shown
    assert "Engagement du tirage" in shown
    assert drop.attachments, "the prize's picture"

    alice, bob = h.user("alice"), h.user("bob")
    first = await h.emu.click(alice, "Prendre", message=drop)
    again = await h.emu.click(alice, "Prendre", message=drop)
    await h.emu.click(bob, "Prendre", message=drop)
    assert first.message is not None
    assert again.message is not None
    assert first.message.ephemeral
    assert "Vous participez au tirage" in first.message.render()
    assert "Vous participez déjà" in again.message.render()

    await h.advance(timedelta(seconds=10))
    ended = drop.render()
    assert "Drop remporté" in ended
    assert "parmi 2 participants" in ended
    assert "[Prendre]" not in ended
    assert "[Vérifier]" in ended
    assert drop.attachments, "the picture stays"

    drop_id = id_in(drop, "drops:verify:")
    assert h.bot is not None
    seed = await h.bot.services.db.read(
        lambda conn: conn.execute("SELECT seed FROM drops WHERE id = ?", (drop_id,)).fetchone()[0]
    )
    assert seed not in ended
    proof = await h.emu.click(h.user("carol"), "Vérifier", message=drop)
    assert proof.message is not None
    assert proof.message.ephemeral
    assert "Tirage vérifié" in proof.message.render()
    assert seed in proof.message.render()
    (record,) = proof.message.attachments
    assert fair_draw.check_published(fair_draw.parse_published(record.data.decode())).ok


async def test_a_click_after_the_window_is_refused_privately(harness: BotHarness) -> None:
    h = harness
    drop = await a_drop(h)
    await h.advance(timedelta(seconds=9))
    late = drop.render()
    h.clock.advance(timedelta(seconds=2))

    refused = await h.emu.click(h.user("alice"), "Prendre", message=drop)

    assert refused.message is not None
    assert refused.message.ephemeral
    assert "Ce drop est terminé" in refused.message.render()
    assert drop.render() == late


async def test_drops_are_off_until_a_manager_turns_them_on(harness: BotHarness) -> None:
    h = harness
    await players_active(h, "alice", "bob", "carol", "dave")
    await h.advance(timedelta(hours=1))
    assert drop_messages(h) == []

    said = await drops_on(h, "Normaux", jeux="HOSS TCG, pillz")
    assert "Drops\u00a0: Normaux" in said
    assert "HOSS TCG, Pillz" in said
    refused = await h.emu.run_command(
        h.user("olivia"), "configuration drops", {"rythme": "Rares", "jeux": "Uno"}
    )
    assert refused.message is not None
    assert "Jeu inconnu\u00a0: Uno" in refused.message.render()
    shown = await h.emu.run_command(h.user("olivia"), "configuration afficher")
    assert shown.message is not None
    assert "Drops\u00a0: Normaux" in shown.message.render()
