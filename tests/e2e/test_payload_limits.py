"""The suite's own check of Discord's limits (tests/e2e/payload_limits.py): a payload just over each limit
is reported, the same payload at the limit is not, and every request of an emulator is captured."""

from __future__ import annotations

from typing import Any

import aiohttp
import orjson
import pytest

from emulator import DiscordEmulator
from emulator.records import RequestRecord
from tests.e2e.payload_limits import LIMITS, problems

Json = dict[str, Any]
MESSAGE = ("POST", "/channels/1/messages")
EDIT = ("PATCH", "/webhooks/2/token/messages/@original")
FOLLOW_UP = ("POST", "/webhooks/2/token")
CALLBACK = ("POST", "/interactions/3/token/callback")
COMMANDS = ("PUT", "/applications/2/guilds/4/commands")
THREAD = ("POST", "/channels/1/messages/5/threads")


def row(*components: Json) -> Json:
    return {"type": 1, "components": list(components)}


def button(**changes: Any) -> Json:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": "go", **changes}


def select(**changes: Any) -> Json:
    return {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}], **changes}


def options(n: int, **option: Any) -> list[Json]:
    return [{"label": f"o{i}", "value": f"v{i}", **option} for i in range(n)]


def embed(**changes: Any) -> Json:
    return {"title": "t", **changes}


def modal(**text_input: Any) -> Json:
    field = {"type": 4, "custom_id": "f", "label": "Name", "style": 1, **text_input}
    return {"type": 9, "data": {"custom_id": "m", "title": "Rename", "components": [row(field)]}}


def command(**changes: Any) -> Json:
    return {"name": "play", "description": "Play", "type": 1, **changes}


def string_option(**changes: Any) -> Json:
    return {"name": "card", "description": "A card", "type": 3, **changes}


def choices(n: int, name: int = 1, value: int = 1) -> list[Json]:
    return [{"name": f"{i:02}".ljust(name, "n"), "value": f"{i:02}".ljust(value, "v")} for i in range(n)]


def sized_command(size: int) -> Json:
    """A slash command of exactly `size` counted characters (8000 or 8001): the command 100, a first
    option 100 + 25 choices of 200, a second option 100 + full choices of 200 and one shorter."""
    first = string_option(name="a", description="d" * 99, choices=choices(25, 100, 100))
    full, extra = divmod(size - 5300, 200)
    listed = choices(full, 100, 100) + ([{"name": "x" * (extra - 1), "value": "y"}] if extra else [])
    second = string_option(name="b", description="d" * 99, choices=listed)
    return command(description="d" * 96, options=[first, second])


# (request, over the limit, at the limit)
CASES: dict[str, tuple[tuple[str, str], Any, Any]] = {
    "content": (MESSAGE, {"content": "x" * 2001}, {"content": "x" * 2000}),
    "nonce": (MESSAGE, {"content": "x", "nonce": "n" * 26}, {"content": "x", "nonce": "n" * 25}),
    "embeds": (MESSAGE, {"embeds": [embed()] * 11}, {"embeds": [embed()] * 10}),
    "embed title": (MESSAGE, {"embeds": [embed(title="x" * 257)]}, {"embeds": [embed(title="x" * 256)]}),
    "embed description": (
        FOLLOW_UP,
        {"embeds": [embed(description="x" * 4097)]},
        {"embeds": [embed(description="x" * 4096)]},
    ),
    "embed fields": (
        MESSAGE,
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 25)]},
    ),
    "embed field value": (
        EDIT,
        {"embeds": [embed(fields=[{"name": "n", "value": "x" * 1025}])]},
        {"embeds": [embed(fields=[{"name": "n", "value": "x" * 1024}])]},
    ),
    "embed footer": (
        MESSAGE,
        {"embeds": [embed(footer={"text": "x" * 2049})]},
        {"embeds": [embed(footer={"text": "x" * 2048})]},
    ),
    "embeds total": (
        MESSAGE,
        {"embeds": [embed(title="", description="x" * 3000), embed(title="x", description="x" * 3000)]},
        {"embeds": [embed(title="", description="x" * 3000), embed(title="", description="x" * 3000)]},
    ),
    "action rows": (
        MESSAGE,
        {"components": [row(button(custom_id=f"b{i}")) for i in range(6)]},
        {"components": [row(button(custom_id=f"b{i}")) for i in range(5)]},
    ),
    "row width": (
        MESSAGE,
        {"components": [row(*(button(custom_id=f"b{i}") for i in range(6)))]},
        {"components": [row(*(button(custom_id=f"b{i}") for i in range(5)))]},
    ),
    "button label": (
        MESSAGE,
        {"components": [row(button(label="x" * 81))]},
        {"components": [row(button(label="x" * 80))]},
    ),
    "button custom_id": (
        MESSAGE,
        {"components": [row(button(custom_id="x" * 101))]},
        {"components": [row(button(custom_id="x" * 100))]},
    ),
    "button without custom_id": (
        MESSAGE,
        {"components": [row(button(custom_id=None))]},
        {"components": [row(button(custom_id=None, style=5, url="https://example.invalid"))]},
    ),
    "duplicate custom_id": (
        MESSAGE,
        {"components": [row(button(), button())]},
        {"components": [row(button(), button(custom_id="other"))]},
    ),
    "select options": (
        MESSAGE,
        {"components": [row(select(options=options(26)))]},
        {"components": [row(select(options=options(25)))]},
    ),
    "select option description": (
        MESSAGE,
        {"components": [row(select(options=options(1, description="x" * 101)))]},
        {"components": [row(select(options=options(1, description="x" * 100)))]},
    ),
    "select placeholder": (
        MESSAGE,
        {"components": [row(select(placeholder="x" * 151))]},
        {"components": [row(select(placeholder="x" * 150))]},
    ),
    "select max_values": (
        MESSAGE,
        {"components": [row(select(options=options(25), max_values=26))]},
        {"components": [row(select(options=options(25), max_values=25))]},
    ),
    "select min_values above max_values": (
        MESSAGE,
        {"components": [row(select(options=options(3), min_values=3, max_values=2))]},
        {"components": [row(select(options=options(3), min_values=2, max_values=2))]},
    ),
    "allowed_mentions parse": (
        MESSAGE,
        {"content": "x", "allowed_mentions": {"parse": ["here"]}},
        {"content": "x", "allowed_mentions": {"parse": ["users", "roles", "everyone"]}},
    ),
    "allowed_mentions parse and list": (
        MESSAGE,
        {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        {"content": "x", "allowed_mentions": {"parse": ["roles"], "users": ["1"]}},
    ),
    "allowed_mentions ids": (
        MESSAGE,
        {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
        {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(100)]}},
    ),
    "message flags": (MESSAGE, {"content": "x", "flags": 1 << 6}, {"content": "x", "flags": 1 << 12}),
    "edit flags": (EDIT, {"content": "x", "flags": 1 << 12}, {"content": "x", "flags": 1 << 2}),
    "response flags": (
        CALLBACK,
        {"type": 4, "data": {"content": "x", "flags": 1 << 7}},
        {"type": 4, "data": {"content": "x", "flags": 1 << 6}},
    ),
    "deferred flags": (
        CALLBACK,
        {"type": 5, "data": {"flags": (1 << 6) | (1 << 12)}},
        {"type": 5, "data": {"flags": 1 << 6}},
    ),
    "response content": (
        CALLBACK,
        {"type": 7, "data": {"content": "x" * 2001}},
        {"type": 7, "data": {"content": "x" * 2000}},
    ),
    "autocomplete choices": (
        CALLBACK,
        {"type": 8, "data": {"choices": choices(26)}},
        {"type": 8, "data": {"choices": choices(25)}},
    ),
    "autocomplete choice value": (
        CALLBACK,
        {"type": 8, "data": {"choices": choices(1, value=101)}},
        {"type": 8, "data": {"choices": choices(1, 100, 100)}},
    ),
    "modal title": (
        CALLBACK,
        {"type": 9, "data": {**modal()["data"], "title": "x" * 46}},
        {"type": 9, "data": {**modal()["data"], "title": "x" * 45}},
    ),
    "text input value": (CALLBACK, modal(value="x" * 4001), modal(value="x" * 4000)),
    "text input placeholder": (CALLBACK, modal(placeholder="x" * 101), modal(placeholder="x" * 100)),
    "text input max_length": (CALLBACK, modal(max_length=4001), modal(max_length=4000)),
    "command locale": (
        COMMANDS,
        [command(name_localizations={"en": "play"})],
        [command(name_localizations={"en-US": "play", "en-GB": "play"})],
    ),
    "command description": (COMMANDS, [command(description="x" * 101)], [command(description="x" * 100)]),
    "localized description": (
        COMMANDS,
        [command(options=[string_option(description_localizations={"fr": "x" * 101})])],
        [command(options=[string_option(description_localizations={"fr": "x" * 100})])],
    ),
    "choice name": (
        COMMANDS,
        [command(options=[string_option(choices=choices(1, name=101))])],
        [command(options=[string_option(choices=choices(1, name=100))])],
    ),
    "choice value": (
        COMMANDS,
        [command(options=[string_option(choices=choices(1, value=101))])],
        [command(options=[string_option(choices=choices(1, value=100))])],
    ),
    "choice type": (
        COMMANDS,
        [command(options=[string_option(type=4, choices=[{"name": "one", "value": "1"}])])],
        [command(options=[string_option(type=4, choices=[{"name": "one", "value": 1}])])],
    ),
    "max_length": (
        COMMANDS,
        [command(options=[string_option(max_length=6001)])],
        [command(options=[string_option(max_length=6000)])],
    ),
    "subcommands beside options": (
        COMMANDS,
        [command(options=[{"name": "sub", "description": "Sub", "type": 1}, string_option()])],
        [command(options=[{"name": "sub", "description": "Sub", "type": 1, "options": [string_option()]}])],
    ),
    "command size": (COMMANDS, [sized_command(8001)], [sized_command(8000)]),
    "chat input commands": (
        COMMANDS,
        [command(name=f"c{i}") for i in range(101)],
        [command(name=f"c{i}") for i in range(100)],
    ),
    "thread archive": (
        THREAD,
        {"name": "game", "auto_archive_duration": 30},
        {"name": "game", "auto_archive_duration": 10080},
    ),
    "thread name": (THREAD, {"name": "x" * 101}, {"name": "x" * 100}),
}


@pytest.mark.parametrize("case", CASES)
def test_a_payload_over_a_limit_is_reported_and_one_at_the_limit_is_not(case: str) -> None:
    (method, path), over, at = CASES[case]
    assert problems(method, path, over), f"{case}: not reported"
    assert problems(method, path, at) == []


def test_the_sized_command_counts_what_discord_counts() -> None:
    from tests.e2e.payload_limits import _size

    assert _size(sized_command(8000)) == LIMITS["command.size"]
    assert _size(sized_command(8001)) == LIMITS["command.size"] + 1


def test_files_over_the_limit_are_reported() -> None:
    assert problems(*MESSAGE, {"content": "x"}, files=11)
    assert problems(*MESSAGE, {"content": "x"}, files=10) == []


async def test_every_request_of_an_emulator_is_captured(payload_limits: list[RequestRecord]) -> None:
    """The autouse hook sees requests the emulator itself answers without complaint (it does not check
    nonces on edits, for instance) and those it refuses."""
    emu = DiscordEmulator()
    await emu.start()
    try:
        channel = emu.add_channel(emu.add_guild("G"), "c")
        url = f"{emu.rest_base}/channels/{channel.id}/messages"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json={"content": "fine"}) as response:
                assert response.status == 200
            async with session.post(url, json={"content": "x" * 2001}) as response:
                assert response.status == 400
    finally:
        await emu.stop()
    assert [(r.method, r.status) for r in payload_limits] == [("POST", 200), ("POST", 400)]
    found = [p for r in payload_limits for p in problems(r.method, r.path, r.json)]
    assert len(found) == 1
    assert "content is 2001 characters" in found[0]
    payload_limits.clear()  # the refusal was the point: the teardown check must not fail this test
    emu.errors.clear()


def test_a_clean_command_list_is_checked_once_and_one_at_fault_each_time_with_its_own_path() -> None:
    from tests.e2e import conftest as e2e

    ids = frozenset({"sq_guerrier_1"})
    clean = [{"name": "jouer", "description": "Jouer une partie", "type": 1}]
    faulty = [{"name": "jouer", "description": "Joue sq_guerrier_1", "type": 1}]

    def put(body: Any, guild: int) -> RequestRecord:
        return RequestRecord("PUT", f"/applications/1/guilds/{guild}/commands", {}, body)

    assert e2e._checked(put(clean, 1), ids) == ([], [])
    assert (orjson.dumps(clean, option=orjson.OPT_SORT_KEYS), 0, ids) in e2e._CLEAN_LISTS
    assert e2e._checked(put(clean, 2), ids) == ([], [])
    for guild in (3, 4):
        limits, words = e2e._checked(put(faulty, guild), ids)
        assert limits == []
        assert len(words) == 1
        assert f"/guilds/{guild}/commands" in words[0]
