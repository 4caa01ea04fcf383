"""The deliverer's posts and edits (`discord_app.posts_http`) are the requests discord.py's `send` and
`edit` make, to the byte, and no `discord.Message` is built from Discord's answer."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
import pytest

from discord_app import posts_http
from discord_app.render import to_discord
from services.infra.messages import Button, Embed, EmbedField, MessageSpec, Text
from tests.support.messages_built import messages_built

CHANNEL, MESSAGE = 4242, 777
ANSWER = {
    "id": str(MESSAGE),
    "channel_id": str(CHANNEL),
    "type": 0,
    "content": "",
    "author": {"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True},
    "timestamp": "2026-12-05T12:00:00+00:00",
    "edited_timestamp": None,
    "tts": False,
    "mention_everyone": False,
    "mentions": [],
    "mention_roles": [],
    "attachments": [],
    "embeds": [],
    "pinned": False,
}


class Recorded:
    """The client's `http`, recording each request's parameters as discord.py hands them over."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], Any]] = []

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        self.calls.append(("send", (channel_id,), _wire(params)))
        return ANSWER

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> dict[str, Any]:
        self.calls.append(("edit", (channel_id, message_id), _wire(params)))
        return ANSWER


def _wire(params: Any) -> tuple[str, list[tuple[Any, ...]]]:
    """What crosses the wire: the JSON payload, and each multipart field (files read to their bytes)."""
    fields = []
    for field in params.multipart or []:
        value = field["value"]
        if hasattr(value, "read"):
            value = value.read()
        fields.append((field["name"], field.get("filename"), field.get("content_type"), value))
    return json.dumps(params.payload, sort_keys=True), fields


def client() -> tuple[discord.Client, Recorded]:
    """A client whose `http` (the one its connection state holds too) records instead of sending."""
    bot = discord.Client(intents=discord.Intents.none(), allowed_mentions=discord.AllowedMentions.none())
    recorded = Recorded()
    bot.http.send_message = recorded.send_message  # type: ignore[method-assign,assignment]
    bot.http.edit_message = recorded.edit_message  # type: ignore[method-assign,assignment]
    return bot, recorded


BOARD = Embed(
    title=Text.raw("Plateau"),
    description=Text.raw("x" * 300),
    fields=(EmbedField(Text.raw("Vie"), Text.raw("12")),),
    color=0x3355AA,
)
SPECS = {
    "text": MessageSpec(content=Text.raw("Tour de « Alice »")),
    "embed and buttons": MessageSpec(
        content=Text.raw("Manche 2"),
        embeds=(
            Embed(
                title=Text.raw("Plateau"),
                description=Text.raw("x" * 300),
                fields=(EmbedField(Text.raw("Vie"), Text.raw("12")),),
                color=0x3355AA,
            ),
        ),
        buttons=(Button(Text.raw("Jouer"), "g:play:1"), Button(Text.raw("Abandonner"), "g:quit:1", "danger")),
    ),
    "a ping": MessageSpec(content=Text.raw("<@55> à toi"), ping_users=(55,)),
    "nothing but an embed": MessageSpec(embeds=(Embed(title=Text.raw("Fin")),)),
}


def files() -> list[discord.File]:
    return [discord.File(io.BytesIO(b"\x89PNG picture"), filename="main.png", description="Votre main")]


@pytest.mark.parametrize("name", list(SPECS))
@pytest.mark.parametrize("with_files", [False, True])
async def test_a_post_is_the_request_channel_send_makes(name: str, with_files: bool) -> None:
    (theirs, their_calls), (ours, our_calls) = client(), client()
    kwargs = to_discord(SPECS[name], "fr")
    mine = to_discord(SPECS[name], "fr")
    if with_files:
        kwargs["files"], mine["files"] = files(), files()
    await theirs.get_partial_messageable(CHANNEL).send(**kwargs, nonce=123456)
    assert await posts_http.send(ours, CHANNEL, mine, 123456) == MESSAGE
    assert our_calls.calls == their_calls.calls
    assert len(our_calls.calls) == 1


@pytest.mark.parametrize("name", list(SPECS))
@pytest.mark.parametrize("with_files", [False, True])
async def test_an_edit_is_the_request_partial_message_edit_makes(name: str, with_files: bool) -> None:
    (theirs, their_calls), (ours, our_calls) = client(), client()
    kwargs = to_discord(SPECS[name], "en")
    kwargs.setdefault("view", None)
    mine = dict(kwargs)
    if with_files:
        kwargs["attachments"], mine["attachments"] = files(), files()
    await theirs.get_partial_messageable(CHANNEL).get_partial_message(MESSAGE).edit(**kwargs)
    await posts_http.edit(ours, CHANNEL, MESSAGE, mine)
    assert our_calls.calls == their_calls.calls
    assert len(our_calls.calls) == 1


async def test_no_message_is_built_from_discords_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    built = messages_built(monkeypatch)
    bot, calls = client()
    await posts_http.send(bot, CHANNEL, to_discord(SPECS["embed and buttons"], "fr"), 1)
    await posts_http.edit(bot, CHANNEL, MESSAGE, to_discord(SPECS["text"], "fr"))
    assert built == []
    assert len(bot.cached_messages) == 0
    assert [c[0] for c in calls.calls] == ["send", "edit"]
