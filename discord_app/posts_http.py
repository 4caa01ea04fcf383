"""The deliverer's posts and edits, sent as discord.py sends them, without the `Message` it builds back.

`Messageable.send` and `PartialMessage.edit` turn Discord's answer into a `discord.Message` (its author,
embeds, components, attachments and mentions parsed back into objects), and `send` keeps it in the
client's message cache. The deliverer reads only the new message's id (the outbox's record, to edit it
later): the rest was work for nothing on every post of every game (docs/command-path.md). The request is
the one discord.py sends, built by the same `handle_message_parameters` with the same arguments (the
client's allowed mentions as the previous ones, the nonce, the view's rows), byte for byte
(tests/platform/test_posts_http.py), and it goes through the client's `http`: its rate limits, the
fleet's shares and its handling of 429s and errors are discord.py's, as before.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING


async def send(client: discord.Client, channel_id: int, kwargs: dict[str, Any], nonce: int | str) -> int:
    """`channel.send(**kwargs, nonce=nonce)` (kwargs: `content`, `embeds`, `view`, `allowed_mentions`,
    `files`, as `to_discord` and `files_with_strips` give them); the new message's id."""
    state: Any = client._connection
    content = kwargs.get("content")
    view = kwargs.get("view")
    embeds = kwargs.get("embeds")
    files = kwargs.get("files")
    with handle_message_parameters(
        content=str(content) if content is not None else None,
        files=files if files is not None else MISSING,
        embeds=embeds if embeds is not None else MISSING,
        nonce=nonce,
        allowed_mentions=kwargs.get("allowed_mentions"),
        previous_allowed_mentions=state.allowed_mentions,
        view=view,
    ) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])


async def edit(client: discord.Client, channel_id: int, message_id: int, kwargs: dict[str, Any]) -> None:
    """`channel.get_partial_message(message_id).edit(**kwargs)` (kwargs: `content`, `embeds`, `view`,
    `allowed_mentions`, `attachments`; what is absent is left as it was)."""
    state: Any = client._connection
    content = kwargs.get("content", MISSING)
    view = kwargs.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    with handle_message_parameters(
        content=content,
        embeds=kwargs.get("embeds", MISSING),
        attachments=kwargs.get("attachments", MISSING),
        view=view,
        allowed_mentions=kwargs.get("allowed_mentions", MISSING),
        previous_allowed_mentions=state.allowed_mentions if content is not MISSING else None,
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)
