"""The emulator checks every request against Discord's published description of its API (OpenAPI 3.1,
emulator/spec/): a request Discord's document refuses is answered 400 and recorded as the bot's bug, with
the field's path."""

from __future__ import annotations

import aiohttp

from emulator import api_schema
from emulator.server import DiscordEmulator

MESSAGES = "/channels/123456789012345678/messages"


def test_a_message_discord_accepts_passes() -> None:
    body = {
        "content": "Bonjour",
        "embeds": [
            {"title": "T", "description": "D", "color": 0x8E5A2B, "fields": [{"name": "a", "value": "b"}]}
        ],
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "a:1"}]}
        ],
        "allowed_mentions": {"parse": []},
        "attachments": [{"id": 0, "filename": "card.png"}],  # discord.py sends a new file's index as a number
        "nonce": "16391698943328580919",  # digits: a string, and an int-parseable one
        "enforce_nonce": True,
    }
    assert api_schema.problems("POST", MESSAGES, {}, body) == []


def test_a_field_of_the_wrong_type_or_length_is_named_by_its_path() -> None:
    assert api_schema.problems("POST", MESSAGES, {}, {"content": 5}) == [
        'body.content: 5 is not of types "null", "string"'
    ]
    (found,) = api_schema.problems("POST", MESSAGES, {}, {"embeds": [{"title": "t" * 257}]})
    assert found.startswith("body.embeds[0].title: ")
    button = {"components": [{"type": 1, "components": [{"type": 2, "style": "big"}]}]}
    first = api_schema.problems("POST", MESSAGES, {}, button)[0]
    assert first == 'body.components[0].components[0].style: "big" is not of type "integer"'  # a button


def test_the_documents_conventions_hold_ints_as_strings_and_booleans_in_queries() -> None:
    assert api_schema.problems("POST", MESSAGES, {}, {"embeds": [{"color": "9330219"}]}) == []
    callback = "/interactions/123456789012345678/aW50ZXJhY3Rpb24/callback"
    assert api_schema.problems("POST", callback, {"with_response": "1"}, {"type": 5}) == []
    assert api_schema.problems("POST", callback, {"with_response": "false"}, {"type": "5"}) == []


def test_paths_queries_and_routes_discord_does_not_have_are_refused() -> None:
    assert api_schema.problems("POST", "/channels/123/nonsense", {}, {}) == [
        "POST /channels/123/nonsense: no such operation in Discord's API"
    ]
    (bad_id,) = api_schema.problems("POST", "/channels/not-an-id/messages", {}, {"content": "x"})
    assert bad_id.startswith("path.channel_id: ")
    assert api_schema.problems("GET", "/users/@me", {"verbose": "1"}, None) == [
        "query.verbose: not a parameter of /users/@me"
    ]


def test_a_command_registration_is_checked_option_by_option() -> None:
    commands = [
        {"name": "play", "description": "Play", "type": 1, "options": [{"name": "x", "type": "text"}]}
    ]
    found = api_schema.problems("PUT", "/applications/123456789012345678/commands", {}, commands)
    assert found
    assert found[0].startswith("body[0].options[0]")


async def test_the_server_answers_400_and_records_the_bots_bug() -> None:
    emu = DiscordEmulator()
    await emu.start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"{emu.rest_base}{MESSAGES}"
            async with session.post(url, json={"content": 5}, headers={"Authorization": "Bot x"}) as response:
                body = await response.json()
        assert response.status == 400
        assert body["code"] == 50035
        assert body["message"] == 'Invalid Form Body: body.content: 5 is not of types "null", "string"'
        assert emu.errors == [
            f'POST {MESSAGES} breaks Discord\'s API description: body.content: 5 is not of types "null", "string"'
        ]
    finally:
        emu.errors.clear()
        await emu.stop()


def test_a_bulk_overwrite_checked_again_gets_the_same_verdict_and_another_body_its_own() -> None:
    """The verdicts on command lists are kept by body (every bot start sends the same list): the same
    list read twice is judged the same, and a list that differs in one option is checked afresh."""
    good = [
        {
            "name": "play",
            "description": "Play",
            "type": 1,
            "options": [{"name": "x", "type": 3, "description": "X"}],
        }
    ]
    bad = [{**good[0], "options": [{"name": "x", "type": "text", "description": "X"}]}]
    path = "/applications/123456789012345678/commands"
    assert api_schema.problems("PUT", path, {}, good) == []
    assert api_schema.problems("PUT", path, {}, good) == []
    first = api_schema.problems("PUT", path, {}, bad)
    assert first
    assert first[0].startswith("body[0].options[0]")
    again = api_schema.problems("PUT", path, {}, bad)
    assert again == first
    again.append("changed by the caller")
    assert api_schema.problems("PUT", path, {}, bad) == first  # each caller gets its own list
