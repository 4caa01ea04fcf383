"""The emulator refuses, over HTTP and the way Discord does, each payload Discord's documentation forbids:
400 with code 50035 "Invalid Form Body" and an `errors` object, recorded in `emu.errors` as a bot bug,
while the same request within the limits is served."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from emulator import DiscordEmulator
from emulator.commands import command_size
from emulator.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CHANNEL_MESSAGE,
    MESSAGE_COMPONENT,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from emulator.messages import ENTITY_TOO_LARGE, UPLOAD_MAX_BYTES
from emulator.world import Channel

Json = dict[str, Any]


class Api:
    """Raw REST calls to a running emulator, as a bot would make them."""

    def __init__(self, emu: DiscordEmulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session
        self.guild = emu.add_guild("Limits")
        self.channel: Channel = emu.add_channel(self.guild, "games")
        self.alice = emu.add_user("alice")

    async def call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        url = self.emu.rest_base + path
        async with self.session.request(method, url, json=body) as response:
            return response.status, await response.json() if response.status != 204 else None

    async def commands(self, payloads: list[Json]) -> tuple[int, Any]:
        path = f"/applications/{self.emu.application_id}/guilds/{self.guild.id}/commands"
        return await self.call("PUT", path, payloads)

    async def message(self, body: Json) -> tuple[int, Any]:
        return await self.call("POST", f"/channels/{self.channel.id}/messages", body)

    def interaction(
        self, kind: int, data: Json | None = None, *, component: bool = False
    ) -> InteractionRecord:
        interaction_id = self.emu.world.ids.next()
        source = None
        if component:
            row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
            source = self.emu.create_message(self.channel, self.emu.world.bot, {"components": [row]})
        record = InteractionRecord(
            id=interaction_id,
            token=f"limits-{interaction_id}",
            type=kind,
            user=self.alice,
            channel=self.channel,
            guild=self.guild,
            name="limits",
            payload={"data": data or {}},
            source_message=source,
        )
        self.emu.register_interaction(record)
        return record

    async def callback(self, record: InteractionRecord, body: Json) -> tuple[int, Any]:
        return await self.call("POST", f"/interactions/{record.id}/{record.token}/callback", body)


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    """The emulator's own limits, each with Discord's wording, alone: Discord's published description of
    its API refuses many of these requests first, and is tested on its own (test_api_schema.py)."""
    emu = DiscordEmulator()
    emu.check_api_schema = False
    await emu.start()
    try:
        async with aiohttp.ClientSession() as session:
            yield Api(emu, session)
    finally:
        await emu.stop()


def refused(api: Api, status: int, body: Any, *, reason: str) -> None:
    assert status == 400, body
    assert body["code"] == 50035
    assert body["message"].startswith("Invalid Form Body")
    assert body["errors"]["_errors"][0]["message"]
    assert reason in body["message"], body["message"]
    assert any("rejected: 400 50035" in error for error in api.emu.errors)
    api.emu.errors.clear()


def command(**changes: Any) -> Json:
    return {"name": "play", "description": "Play a game", "type": 1, **changes}


def option(**changes: Any) -> Json:
    return {"name": "card", "description": "A card", "type": 3, **changes}


BAD_COMMANDS: dict[str, tuple[Callable[[], list[Json]], str]] = {
    "name locale": (lambda: [command(name_localizations={"en": "play"})], "'en' is not a Discord locale"),
    "description locale": (
        lambda: [command(description_localizations={"english": "Play"})],
        "is not a Discord locale",
    ),
    "option locale": (lambda: [command(options=[option(name_localizations={"en": "card"})])], "locale"),
    "localized description": (
        lambda: [command(description_localizations={"fr": "x" * 101})],
        "must be 1-100 characters",
    ),
    "localized option description": (
        lambda: [command(options=[option(description_localizations={"en-US": "x" * 101})])],
        "must be 1-100 characters",
    ),
    "choice name": (
        lambda: [command(options=[option(choices=[{"name": "x" * 101, "value": "a"}])])],
        "choice names must be 1-100",
    ),
    "choice localized name": (
        lambda: [
            command(options=[option(choices=[{"name": "a", "value": "a", "name_localizations": {"fr": ""}}])])
        ],
        "must be 1-100",
    ),
    "choice value": (
        lambda: [command(options=[option(choices=[{"name": "a", "value": "x" * 101}])])],
        "unfit for option type 3",
    ),
    "string choice on an integer": (
        lambda: [command(options=[option(type=4, choices=[{"name": "a", "value": "1"}])])],
        "unfit for option type 4",
    ),
    "number choice on a string": (
        lambda: [command(options=[option(choices=[{"name": "a", "value": 1}])])],
        "unfit for option type 3",
    ),
    "boolean choice on an integer": (
        lambda: [command(options=[option(type=4, choices=[{"name": "a", "value": True}])])],
        "unfit for option type 4",
    ),
    "max_length": (lambda: [command(options=[option(max_length=6001)])], "max_length"),
    "min_length": (lambda: [command(options=[option(min_length=6001)])], "min_length"),
    "subcommands beside options": (
        lambda: [command(options=[option(), {"name": "sub", "description": "A subcommand", "type": 1}])],
        "mixes subcommands with plain options",
    ),
    "combined size": (
        lambda: [
            command(
                options=[
                    option(
                        name=f"o{i}",
                        choices=[{"name": f"{i}-{j}" + "n" * 90, "value": "v" * 100} for j in range(25)],
                    )
                    for i in range(2)
                ]
            )
        ],
        "the limit is 8000",
    ),
    "101 slash commands": (
        lambda: [command(name=f"c{i}") for i in range(101)],
        "the limit is 100",
    ),
    "16 user commands": (
        lambda: [{"name": f"User {i}", "description": "", "type": 2} for i in range(16)],
        "the limit is 15",
    ),
}


@pytest.mark.parametrize("case", BAD_COMMANDS)
async def test_command_registration_refuses_what_discord_refuses(api: Api, case: str) -> None:
    build, reason = BAD_COMMANDS[case]
    status, body = await api.commands(build())
    refused(api, status, body, reason=reason)
    assert api.emu.registered_commands(api.guild) == []


async def test_command_registration_accepts_the_limits_themselves(api: Api) -> None:
    """100 slash commands, 6000-character strings, 100-character choices, Discord's own locale keys, and
    a command of 8000 counted characters where only each field's longest localization counts."""
    choices = [{"name": f"{j:02}" + "n" * 98, "value": "v" * 100} for j in range(25)]
    big = command(
        name="big",
        description="d" * 100,
        description_localizations={"fr": "é" * 100, "en-GB": "e" * 10},
        options=[
            option(name="a", description="d" * 93, choices=choices),
            option(name="b", description="d" * 100, choices=choices[:13], name_localizations={"fr": "bb"}),
            option(name="c", description="d" * 100, max_length=6000, min_length=6000),
        ],
    )
    assert command_size(big) == 8000
    plain = [command(name=f"c{i}", name_localizations={"fr": f"c{i}", "en-US": f"c{i}"}) for i in range(99)]
    status, body = await api.commands([big, *plain])
    assert status == 200, body
    assert api.emu.errors == []
    over = {**big, "description": "d" * 99 + "é"}  # same size: the longest localization counts, not the sum
    status, body = await api.commands([over])
    assert status == 200, body


BAD_COMPONENTS: dict[str, tuple[Json, str]] = {
    "select option description": (
        {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a", "description": "x" * 101}]},
        "select option description",
    ),
    "max_values": (
        {"type": 3, "custom_id": "s", "max_values": 26, "options": [{"label": "a", "value": "a"}]},
        "max_values 26",
    ),
    "min_values above max_values": (
        {
            "type": 3,
            "custom_id": "s",
            "min_values": 2,
            "max_values": 1,
            "options": [{"label": "a", "value": "a"}],
        },
        "is above max_values",
    ),
    "button without custom_id": ({"type": 2, "style": 1, "label": "Go"}, "needs a custom_id"),
}


@pytest.mark.parametrize("case", BAD_COMPONENTS)
async def test_components_discord_refuses_are_refused(api: Api, case: str) -> None:
    component, reason = BAD_COMPONENTS[case]
    status, body = await api.message({"content": "x", "components": [{"type": 1, "components": [component]}]})
    refused(api, status, body, reason=reason)
    assert api.emu.channel_messages(api.channel) == []


async def test_components_within_the_limits_are_served(api: Api) -> None:
    select = {
        "type": 3,
        "custom_id": "s",
        "min_values": 0,
        "max_values": 25,
        "options": [{"label": f"{i}", "value": f"{i}", "description": "x" * 100} for i in range(25)],
    }
    link = {"type": 2, "style": 5, "label": "Docs", "url": "https://example.invalid"}
    rows = [{"type": 1, "components": [select]}, {"type": 1, "components": [link]}]
    status, body = await api.message({"content": "x", "components": rows})
    assert status == 200, body


def modal(**text_input: Any) -> Json:
    field = {"type": 4, "custom_id": "name", "label": "Name", "style": 1, **text_input}
    return {
        "type": 9,
        "data": {"custom_id": "m", "title": "Rename", "components": [{"type": 1, "components": [field]}]},
    }


@pytest.mark.parametrize(
    ("text_input", "reason"),
    [
        ({"value": "x" * 4001}, "text input value"),
        ({"placeholder": "x" * 101}, "text input placeholder"),
        ({"max_length": 4001}, "max_length 4001"),
    ],
)
async def test_modal_text_inputs_discord_refuses_are_refused(api: Api, text_input: Json, reason: str) -> None:
    record = api.interaction(APPLICATION_COMMAND)
    status, body = await api.callback(record, modal(**text_input))
    refused(api, status, body, reason=reason)
    assert record.modal is None


async def test_a_modal_text_input_at_its_limits_is_served(api: Api) -> None:
    record = api.interaction(APPLICATION_COMMAND)
    status, _ = await api.callback(record, modal(value="x" * 4000, placeholder="p" * 100, max_length=4000))
    assert status == 204
    assert record.modal is not None


def autocomplete(kind: int) -> Json:
    return {"options": [{"name": "card", "type": kind, "value": "", "focused": True}]}


@pytest.mark.parametrize(
    ("option_type", "choice", "reason"),
    [
        (3, {"name": "a", "value": "x" * 101}, "unfit for option type 3"),
        (3, {"name": "x" * 101, "value": "a"}, "choice names must be 1-100"),
        (4, {"name": "a", "value": "1"}, "unfit for option type 4"),
    ],
)
async def test_autocomplete_choices_discord_refuses_are_refused(
    api: Api, option_type: int, choice: Json, reason: str
) -> None:
    record = api.interaction(AUTOCOMPLETE, autocomplete(option_type))
    status, body = await api.callback(record, {"type": 8, "data": {"choices": [choice]}})
    refused(api, status, body, reason=reason)
    assert record.choices is None


async def test_autocomplete_choices_at_their_limits_are_served(api: Api) -> None:
    record = api.interaction(AUTOCOMPLETE, autocomplete(3))
    choices = [{"name": "n" * 100, "value": "v" * 100}] * 25
    status, _ = await api.callback(record, {"type": 8, "data": {"choices": choices}})
    assert status == 204
    assert record.choices == choices


@pytest.mark.parametrize(
    ("kind", "flags", "component"),
    [
        (4, 1 << 7, False),  # LOADING cannot be set
        (4, 1 << 5, False),  # HAS_THREAD neither
        (5, 1 << 12, False),  # a deferral may only set EPHEMERAL
        (7, 1 << 1, True),  # IS_CROSSPOST
    ],
)
async def test_interaction_response_flags_discord_refuses_are_refused(
    api: Api, kind: int, flags: int, component: bool
) -> None:
    record = api.interaction(MESSAGE_COMPONENT if component else APPLICATION_COMMAND, component=component)
    status, body = await api.callback(record, {"type": kind, "data": {"content": "hi", "flags": flags}})
    refused(api, status, body, reason=f"flags {flags}")
    assert record.callback_type is None


@pytest.mark.parametrize(("kind", "flags"), [(4, (1 << 6) | (1 << 12) | (1 << 2)), (5, 1 << 6)])
async def test_interaction_response_flags_the_docs_allow_are_served(api: Api, kind: int, flags: int) -> None:
    record = api.interaction(APPLICATION_COMMAND)
    status, body = await api.callback(record, {"type": kind, "data": {"content": "hi", "flags": flags}})
    assert status == 204, body
    assert record.callback_type == kind


@pytest.mark.parametrize(
    ("mentions", "reason"),
    [
        ({"parse": ["here"]}, "allowed_mentions.parse"),
        ({"parse": ["users"], "users": ["1"]}, "mutually exclusive"),
        ({"users": [str(i) for i in range(101)]}, "more than 100"),
    ],
)
async def test_allowed_mentions_discord_refuses_are_refused(api: Api, mentions: Json, reason: str) -> None:
    status, body = await api.message({"content": "hi", "allowed_mentions": mentions})
    refused(api, status, body, reason=reason)
    assert api.emu.channel_messages(api.channel) == []


async def test_allowed_mentions_within_the_rules_are_served(api: Api) -> None:
    status, body = await api.message(
        {"content": "hi", "allowed_mentions": {"parse": ["roles"], "users": ["1"]}}
    )
    assert status == 200, body


@pytest.mark.parametrize("minutes", [30, 1441, 0])
async def test_thread_archive_durations_discord_refuses_are_refused(api: Api, minutes: int) -> None:
    body = {"name": "game", "type": 11, "auto_archive_duration": minutes}
    status, answer = await api.call("POST", f"/channels/{api.channel.id}/threads", body)
    refused(api, status, answer, reason="auto_archive_duration")
    assert api.emu.threads == []


@pytest.mark.parametrize("minutes", [60, 1440, 4320, 10080])
async def test_thread_archive_durations_discord_offers_are_served(api: Api, minutes: int) -> None:
    body = {"name": "game", "type": 11, "auto_archive_duration": minutes}
    status, answer = await api.call("POST", f"/channels/{api.channel.id}/threads", body)
    assert status == 201, answer


async def multipart(api: Api, method: str, path: str, payload: Json, files: list[bytes]) -> tuple[int, Any]:
    """A request with files, as discord.py sends it: `payload_json` and `files[n]` parts."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, data in enumerate(files):
        form.add_field(f"files[{index}]", data, filename=f"card{index}.png", content_type="image/png")
    async with api.session.request(method, api.emu.rest_base + path, data=form) as response:
        return response.status, await response.json() if response.status != 204 else None


def uploads(count: int) -> tuple[Json, list[bytes]]:
    attachments = [{"id": index, "filename": f"card{index}.png"} for index in range(count)]
    return {"content": "cards", "attachments": attachments}, [
        b"\x89PNG" + bytes([index]) for index in range(count)
    ]


async def test_ten_attachments_are_served_and_an_eleventh_refused(api: Api) -> None:
    path = f"/channels/{api.channel.id}/messages"
    status, body = await multipart(api, "POST", path, *uploads(10))
    assert status == 200, body
    assert len(body["attachments"]) == 10
    status, body = await multipart(api, "POST", path, *uploads(11))
    refused(api, status, body, reason="at most 10 attachments")
    assert len(api.emu.channel_messages(api.channel)) == 1


async def test_uploads_over_the_size_limit_are_refused(api: Api) -> None:
    path = f"/channels/{api.channel.id}/messages"
    payload = {"content": "big", "attachments": [{"id": 0, "filename": "big.png"}]}
    status, body = await multipart(api, "POST", path, payload, [b"x" * UPLOAD_MAX_BYTES])
    assert status == 200, body
    status, body = await multipart(api, "POST", path, payload, [b"x" * (UPLOAD_MAX_BYTES + 1)])
    assert status == 413, body
    assert body["code"] == ENTITY_TOO_LARGE
    assert any("413 40005" in error for error in api.emu.errors)
    api.emu.errors.clear()


async def test_an_interaction_reply_and_its_update_carry_files(api: Api) -> None:
    record = api.interaction(APPLICATION_COMMAND, {"name": "card"})
    payload, files = uploads(1)
    path = f"/interactions/{record.id}/{record.token}/callback"
    status, body = await multipart(api, "POST", path, {"type": CHANNEL_MESSAGE, "data": payload}, files)
    assert status in (200, 204), body
    assert record.original is not None
    assert [a.filename for a in record.original.attachments] == ["card0.png"]
    click = api.interaction(MESSAGE_COMPONENT, {"custom_id": "go", "component_type": 2}, component=True)
    update = {"type": UPDATE_MESSAGE, "data": {"attachments": [{"id": 0, "filename": "next.png"}]}}
    status, body = await multipart(
        api, "POST", f"/interactions/{click.id}/{click.token}/callback", update, files
    )
    assert status in (200, 204), body
    assert click.source_message is not None
    assert [(a.filename, a.data) for a in click.source_message.attachments] == [("next.png", files[0])]
