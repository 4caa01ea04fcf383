"""Drops as players see them through Discord: a manager turns them on, players' commands make room for
one, it appears in the games channel with its picture and « Prendre », every click within the window
enters, the result edits the drop, and « Vérifier » shows the proof privately."""

from __future__ import annotations

from datetime import timedelta

from engine import fair_draw
from sandbox.harness import BotHarness
from tests.e2e.authorization import id_in
from tests.e2e.drop_scenes import a_drop, drop_messages, drops_on, players_active


async def test_a_drop_appears_is_taken_by_clicks_and_drawn_fairly(drops_harness: BotHarness) -> None:
    h = drops_harness
    drop = await a_drop(h)
    shown = drop.render()
    assert "Un drop apparaît" in shown
    assert "[Prendre]" in shown
    assert "Engagement du tirage" in shown
    assert "**Perchta** (Bronze 2, Chocobataille)" in shown
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


async def test_a_click_after_the_window_is_refused_privately(drops_harness: BotHarness) -> None:
    """The window is over (the drop drawn, its button gone): a click a stale client still sends enters
    nothing."""
    h = drops_harness
    drop = await a_drop(h)
    drop_id = id_in(drop, "drops:take:")
    await h.advance(timedelta(seconds=10))
    ended = drop.render()

    refused = await h.emu.forge_component(h.user("alice"), f"drops:take:{drop_id}", channel=h.games_channel)

    assert refused.message is not None
    assert refused.message.ephemeral
    assert "Ce drop est terminé" in refused.message.render()
    assert drop.render() == ended
    assert h.bot is not None
    entries = await h.bot.services.db.read(
        lambda conn: conn.execute("SELECT COUNT(*) FROM drop_entries").fetchone()[0]
    )
    assert entries == 0


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


async def test_only_a_manager_sets_the_drops(harness: BotHarness) -> None:
    """`default_permissions` hides /setup; a server that re-granted it to everyone still has the command
    refuse whoever cannot manage the server, and nothing is saved."""
    h = harness
    mallory = h.user("mallory", admin=False)
    h.emu.enforce_default_permissions = False

    refused = await h.emu.run_command(mallory, "configuration drops", {"rythme": "Fréquents"})

    assert refused.message is not None
    assert refused.message.ephemeral
    assert "Gérer le serveur" in refused.message.render()
    assert h.bot is not None
    saved = await h.bot.services.db.read(
        lambda conn: conn.execute("SELECT COUNT(*) FROM drop_settings").fetchone()[0]
    )
    assert saved == 0
