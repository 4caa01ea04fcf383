"""The emulator's own model, without a bot: ids, installation, command rules, rendering."""

from __future__ import annotations

from datetime import UTC, datetime

import discord.gateway
import discord.http
import orjson
import pytest

from emulator import ApiError, DiscordEmulator, RecordedMessage
from emulator.payloads import member_payload
from emulator.world import snowflake_time


def test_ids_are_stable_per_name_whatever_the_creation_order() -> None:
    first, second = DiscordEmulator(), DiscordEmulator()
    alice, bob = first.add_user("alice"), first.add_user("bob")
    bob_again, alice_again = second.add_user("bob"), second.add_user("alice")

    assert (alice.id, bob.id) == (alice_again.id, bob_again.id)
    assert first.add_user("alice", locale="fr") is alice
    assert alice.locale == "fr"
    assert first.add_guild("Test Server").id == second.add_guild("Test Server").id
    assert first.bot_user.id == first.application_id == second.application_id


def test_guild_has_everyone_role_and_general_channel() -> None:
    emu = DiscordEmulator()
    guild = emu.add_guild("Test Server")
    games = emu.add_channel(guild, "games")

    assert guild.everyone.id == guild.id
    assert guild.everyone.name == "@everyone"
    assert [channel.name for channel in guild.channels] == ["general", "games"]
    assert emu.channel("games") is games
    assert games.kind == "channel"
    admin = emu.add_user("root", admin=True)
    member = emu.add_user("joe")
    assert emu.world.member_permissions(admin, guild) & (1 << 5)
    assert not emu.world.member_permissions(member, guild) & (1 << 5)


def test_a_member_joined_at_the_guild_creation_unless_set_per_guild() -> None:
    emu = DiscordEmulator()
    first, second = emu.add_guild("Test Server"), emu.add_guild("Other Server")
    alice = emu.add_user("alice")
    assert member_payload(emu.world, alice, first)["joined_at"] == snowflake_time(first.id).isoformat()
    when = datetime(2026, 3, 2, 10, 30, tzinfo=UTC)
    emu.world.set_joined(alice, first, when)
    assert member_payload(emu.world, alice, first)["joined_at"] == "2026-03-02T10:30:00+00:00"
    assert member_payload(emu.world, alice, second)["joined_at"] == snowflake_time(second.id).isoformat()


def test_counter_ids_are_increasing_and_deterministic() -> None:
    first, second = DiscordEmulator(), DiscordEmulator()
    ids = [first.world.ids.next() for _ in range(3)]

    assert ids == sorted(ids)
    assert len(set(ids)) == 3
    assert ids == [second.world.ids.next() for _ in range(3)]
    assert snowflake_time(ids[0]).year == 2025


async def test_install_and_uninstall_restore_discord_py() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    emu = DiscordEmulator()
    await emu.start()
    try:
        assert emu.install() == before
        assert emu.rest_base == discord.http.Route.BASE
        assert emu.rest_base.startswith("http://127.0.0.1:")
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == f"ws://127.0.0.1:{emu.port}/gateway"
        emu.uninstall()
        assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    finally:
        emu.uninstall()
        await emu.stop()


def test_command_registration_follows_discord_rules() -> None:
    commands = DiscordEmulator().commands
    good = {"name": "play", "description": "Play", "options": []}

    [echoed] = commands.bulk_overwrite(None, [good])
    assert echoed["id"] == commands.bulk_overwrite(None, [good])[0]["id"]
    for bad in (
        {"name": "Play", "description": "Uppercase"},
        {"name": "play", "description": ""},
        {"name": "play", "description": "x", "name_localizations": {"fr": "jouer maintenant"}},
        {
            "name": "play",
            "description": "x",
            "options": [
                {"name": "a", "description": "x", "type": 3},
                {"name": "b", "description": "x", "type": 3, "required": True},
            ],
        },
    ):
        for _ in range(2):  # a payload at fault is checked each time, never remembered as valid
            with pytest.raises(ApiError) as rejected:
                commands.bulk_overwrite(None, [bad])
            assert rejected.value.status == 400
            assert rejected.value.bot_bug


def test_a_command_found_valid_is_remembered_by_its_json_and_checked_again_when_it_differs() -> None:
    from emulator import commands as registry

    commands = DiscordEmulator().commands
    good = {"name": "jouer", "description": "Jouer", "options": []}
    commands.bulk_overwrite(None, [good])
    assert any(good == orjson.loads(payload) for _, payload in registry._VALID)
    commands.bulk_overwrite(None, [good])  # remembered: the same verdict
    with pytest.raises(ApiError):
        commands.bulk_overwrite(None, [{**good, "description": ""}])  # one field differs: checked again


def test_render_shows_content_embeds_and_components() -> None:
    emu = DiscordEmulator()
    guild = emu.add_guild("Test Server")
    message = RecordedMessage(
        id=1,
        channel=guild.default_channel,
        author=emu.bot_user,
        content="Round 1",
        embeds=[
            {"title": "Score", "description": "alice leads", "fields": [{"name": "alice", "value": "3"}]}
        ],
        components=[
            {"type": 1, "components": [{"type": 2, "label": "Hit", "custom_id": "hit", "style": 1}]},
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": "lang",
                        "placeholder": "Language",
                        "options": [
                            {"label": "English", "value": "en"},
                            {"label": "Français", "value": "fr"},
                        ],
                    }
                ],
            },
        ],
    )

    assert emu.render(message, header=True) == "\n".join(
        [
            "[#general] TestBot: Round 1",
            "    | ** Score **",
            "    | alice leads",
            "    | alice: 3",
            "    [Hit]",
            "    <Language: English / Français>",
        ]
    )
    assert message.button_labels == ["Hit"]
    assert message.select_options == ["English", "Français"]
