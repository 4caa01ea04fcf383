"""Platform services seen through Discord with the test-only fixture game plugged in:
wallets on /profile, /card, outbox delivery (DMs, closed DMs, Discord outages), the scheduler,
persistent buttons, and the global error handler."""

from __future__ import annotations

from datetime import timedelta

from sandbox.harness import BotHarness
from tests.fixtures import fixture_game


def text_of(result: object) -> str:
    return result.message.render()  # type: ignore[attr-defined]


async def test_new_player_gets_starting_wallets(game_harness: BotHarness) -> None:
    alice = game_harness.user("alice")
    text = text_of(await game_harness.emu.run_command(alice, "profile"))
    assert "100" in text


async def test_help_lists_a_plugged_in_game_in_its_own_section(game_harness: BotHarness) -> None:
    """The first page names the game; its commands are on its own page, picked in the select (the fixture
    game's name is the catalog's "Jeux")."""
    alice = game_harness.user("alice")
    reply = await game_harness.emu.run_command(alice, "help")
    first = text_of(reply)
    assert "Aucun jeu" not in first
    assert "/fixture notify" not in first
    text = text_of(await game_harness.emu.select(alice, "Jeux", message=reply.message))
    assert "`/fixture notify` — DM a player through the outbox" in text
    assert "Commandes: `/fixture announce`" in text  # no guide: alphabetical order
    assert "`/fixture announce` — Post in the announcements channel" in text


async def test_another_players_profile_hides_wallets(game_harness: BotHarness) -> None:
    alice, bob = game_harness.user("alice"), game_harness.user("bob")
    await game_harness.emu.run_command(bob, "profile")
    text = text_of(await game_harness.emu.run_command(alice, "profile", {"player": bob}))
    assert "Profil de bob" in text
    assert "Porte-monnaie" not in text
    assert "Arrivé le" in text


async def test_card_autocomplete_in_the_users_language(game_harness: BotHarness) -> None:
    alice = game_harness.user("alice", locale="fr")
    choices = await game_harness.emu.autocomplete(alice, "card", "name", "arch")
    names = [c["name"] for c in choices]
    assert any(name.startswith("Archer sylvestre") for name in names)
    assert all("arch" in name.lower() for name in names)
    bob = game_harness.user("bob", locale="en-US")
    choices = await game_harness.emu.autocomplete(bob, "card", "name", "arch")
    assert any(c["name"].startswith("Sylvan Archer") for c in choices)
    sylvan = next(c for c in choices if c["name"].startswith("Sylvan Archer"))
    reply = await game_harness.emu.run_command(bob, "card", {"name": sylvan["value"]})
    assert "Sylvan Archer" in text_of(reply)


async def test_card_unknown_name_is_a_clear_message(game_harness: BotHarness) -> None:
    alice = game_harness.user("alice")
    reply = await game_harness.emu.run_command(alice, "carte", {"nom": "Dragon inconnu"})
    assert "Aucune carte ne s'appelle «\u00a0Dragon inconnu\u00a0»" in text_of(reply)


async def test_dm_is_delivered_after_the_commit(game_harness: BotHarness) -> None:
    alice, bob = game_harness.user("alice"), game_harness.user("bob")
    await game_harness.emu.run_command(
        alice, "fixture notify", {"player": bob, "text": "ta main\u00a0: 3 cartes"}
    )
    await game_harness.settle()
    dms = game_harness.emu.dm_messages(bob)
    assert [m.content for m in dms] == ["ta main\u00a0: 3 cartes"]


async def test_closed_dms_fall_back_to_a_private_show_button(game_harness: BotHarness) -> None:
    emu = game_harness.emu
    alice = game_harness.user("alice")
    bob = game_harness.user("bob", dms_closed=True)
    channel = game_harness.games_channel
    assert channel is not None
    await emu.run_command(alice, "fixture notify", {"player": bob, "text": "secret hand"}, channel=channel)
    await game_harness.settle()
    public = [m for m in emu.channel_messages(channel) if not m.ephemeral]
    assert len(public) == 1
    assert "Voir" in public[0].button_labels
    assert all("secret hand" not in m.render() for m in public)
    # someone else clicking is refused, privately
    refused = await emu.click(alice, "Voir", message=public[0])
    assert refused.message is not None
    assert refused.message.ephemeral
    assert "ne vous est pas destiné" in refused.message.render()
    shown = await emu.click(bob, "Voir", message=public[0])
    assert shown.message is not None
    assert shown.message.ephemeral
    assert shown.message.ephemeral_to is bob
    assert "secret hand" in shown.message.render()
    # the closed DMs are remembered: the next message goes straight to the fallback, with no DM attempt
    dm_attempts = len([r for r in emu.requests if r.method == "POST" and "/channels/" in r.path])
    await emu.run_command(alice, "fixture notify", {"player": bob, "text": "second"}, channel=channel)
    await game_harness.settle()
    after = [r for r in emu.requests if r.method == "POST" and "/channels/" in r.path]
    assert len(after) == dm_attempts + 1  # only the fallback post in the game channel
    assert game_harness.bot is not None
    assert await game_harness.bot.services.players.locale_of(bob.id) is None


async def test_posts_survive_a_discord_outage(game_harness: BotHarness) -> None:
    emu = game_harness.emu
    alice = game_harness.user("alice")
    emu.unavailable = True
    try:
        await emu.run_command(
            alice, "fixture announce", {"text": "résultats de la tombola"}, channel=game_harness.games_channel
        )
    except Exception:
        emu.unavailable = False
        raise
    await game_harness.settle()
    channel = game_harness.games_channel
    assert channel is not None
    assert not [m for m in emu.channel_messages(channel) if "tombola" in m.content]
    emu.unavailable = False
    await game_harness.advance(timedelta(minutes=1))  # past the retry backoff
    assert [m.content for m in emu.channel_messages(channel) if "tombola" in m.content] == [
        "résultats de la tombola"
    ]


async def test_a_scheduled_job_fires_once_when_due(game_harness: BotHarness) -> None:
    emu = game_harness.emu
    alice = game_harness.user("alice")
    await emu.run_command(alice, "fixture remind", {"hours": 24, "what": "ton tour"})
    assert await game_harness.advance(timedelta(hours=23)) == 0
    assert emu.dm_messages(alice) == []
    assert await game_harness.advance(timedelta(hours=2)) == 1
    assert [m.content for m in emu.dm_messages(alice)] == ["Reminder: ton tour"]
    assert await game_harness.advance(timedelta(days=3)) == 0


async def test_persistent_button_rechecks_the_player_and_is_idempotent(game_harness: BotHarness) -> None:
    emu = game_harness.emu
    alice, bob = game_harness.user("alice"), game_harness.user("bob")
    offer = (await emu.run_command(alice, "fixture shop")).message
    refused = await emu.click(bob, "Buy", message=offer)
    assert refused.message is not None
    assert "ne vous est pas destiné" in refused.message.render()
    first = await emu.click(alice, "Buy", message=offer)
    second = await emu.click(alice, "Buy", message=offer)
    assert first.message is not None
    assert second.message is not None
    assert "balance 90" in first.message.render()
    assert "balance 90" in second.message.render()
    assert game_harness.bot is not None
    db = game_harness.bot.services.db
    rows = await db.read(
        lambda c: c.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'fixture.buy'").fetchone()[0]
    )
    assert rows == 1


async def test_unexpected_error_gets_an_apology_and_is_logged(game_harness: BotHarness, caplog) -> None:
    alice = game_harness.user("alice")
    reply = await game_harness.emu.run_command(alice, "fixture boom")
    assert reply.message is not None
    assert reply.message.ephemeral
    assert "Désolé" in reply.message.render()
    assert "deliberate failure" not in reply.message.render()
    assert game_harness.bot is not None
    errors = game_harness.bot.game_tree.unexpected_errors
    assert len(errors) == 1
    errors.clear()
    logged = [r for r in caplog.records if r.name == "bot.errors"]
    assert logged
    assert "fixture boom" in logged[0].getMessage()
    assert str(alice.id) in logged[0].getMessage()


assert fixture_game.SPEC.key == "fixture"
