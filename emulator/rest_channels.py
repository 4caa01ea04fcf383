"""Channels, DMs, messages, reactions and threads."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote

from .errors import (
    CANNOT_DM_USER,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    ApiError,
    invalid_form,
    not_found,
)
from .messages import fill_message
from .payloads import channel_payload
from .records import RecordedMessage
from .rest import NO_CONTENT, Call, Reply, Router
from .world import TEXT_CHANNEL, Channel

if TYPE_CHECKING:
    from .core import EmulatorCore


def register(router: Router, core: EmulatorCore) -> None:
    world = core.world
    records = core.records

    def channel_of(call: Call) -> Channel:
        channel = world.channels.get(call.id("channel_id"))
        if channel is None:
            raise not_found("Channel", UNKNOWN_CHANNEL)
        return channel

    def message_of(call: Call, channel: Channel) -> RecordedMessage:
        message = records.get(call.id("message_id"))
        if message is None or message.channel is not channel or message.ephemeral:
            raise not_found("Message", UNKNOWN_MESSAGE)
        return message

    async def get_channel(call: Call) -> Reply:
        return Reply(body=channel_payload(world, channel_of(call)))

    async def open_dm(call: Call) -> Reply:
        user = world.users.get(int(call.body().get("recipient_id") or 0))
        if user is None or user.bot:
            raise not_found("User", UNKNOWN_USER)
        return Reply(body=channel_payload(world, world.dm_channel(user)))

    async def post_message(call: Call) -> Reply:
        channel = channel_of(call)
        if channel.recipient is not None and channel.recipient.dms_closed:
            raise ApiError(403, CANNOT_DM_USER, "Cannot send messages to this user")
        body = call.body()
        message, created = core.create_message_once(channel, world.bot, body, call.files)
        if created:
            if channel.is_thread and channel.archived:
                channel.archived = False  # Discord unarchives a thread when someone allowed to posts in it
            if message.message_reference:
                message.type = 19
            await core.emit_message("MESSAGE_CREATE", message)
        # Discord echoes the nonce; a repeated one (enforce_nonce) gets the first message, nothing new.
        reply = message.payload()
        if "nonce" in body:
            reply["nonce"] = body["nonce"]
        return Reply(body=reply)

    async def list_messages(call: Call) -> Reply:
        channel = channel_of(call)
        messages = records.channel_messages(channel)
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
            limit = int(call.query.get("limit", "50"))
            return Reply(body=[m.payload() for m in reversed(messages[:limit])])
        limit = int(call.query.get("limit", "50"))
        return Reply(body=[m.payload() for m in reversed(messages[-limit:])])

    async def get_message(call: Call) -> Reply:
        channel = channel_of(call)
        return Reply(body=message_of(call, channel).payload())

    async def edit_message(call: Call) -> Reply:
        channel = channel_of(call)
        message = message_of(call, channel)
        if message.author is not world.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user", bot_bug=True)
        fill_message(message, call.body(), call.files, world.ids, editing=True)
        await core.emit_message("MESSAGE_UPDATE", message)
        return Reply(body=message.payload())

    async def delete_message(call: Call) -> Reply:
        message = message_of(call, channel_of(call))
        message.deleted = True
        await core.emit_message("MESSAGE_DELETE", message)
        return NO_CONTENT

    async def bulk_delete(call: Call) -> Reply:
        channel = channel_of(call)
        for raw in call.body().get("messages") or []:
            message = records.get(int(raw))
            if message is not None and message.channel is channel:
                message.deleted = True
        return NO_CONTENT

    async def typing(call: Call) -> Reply:
        channel_of(call)
        return NO_CONTENT

    async def add_reaction(call: Call) -> Reply:
        message = message_of(call, channel_of(call))
        emoji = unquote(call.params["emoji"])
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        return NO_CONTENT

    async def remove_reaction(call: Call) -> Reply:
        message = message_of(call, channel_of(call))
        emoji = unquote(call.params["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return NO_CONTENT

    async def create_thread(call: Call) -> Reply:
        parent = channel_of(call)
        body = call.body()
        source = message_of(call, parent) if "message_id" in call.params else None
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form("thread name must be 1-100 characters")
        if parent.type != TEXT_CHANNEL:
            raise ApiError(400, 50024, "Cannot execute action on this channel type", bot_bug=True)
        if source is not None and any(t.id == source.id for t in world.threads):
            raise ApiError(400, 160004, "A thread has already been created for this message", bot_bug=True)
        thread = world.add_thread(
            parent,
            name,
            owner=world.bot,
            thread_id=None if source is None else source.id,
            private=source is None and body.get("type") == 12,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        data = channel_payload(world, thread)
        await core.emit_thread("THREAD_CREATE", {**data, "newly_created": True})
        return Reply(201, data)

    async def edit_channel(call: Call) -> Reply:
        channel = channel_of(call)
        body = call.body()
        if "name" in body:
            channel.name = str(body["name"])
        if "topic" in body:
            channel.topic = body["topic"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        data = channel_payload(world, channel)
        if channel.is_thread:
            await core.emit_thread("THREAD_UPDATE", data)
        return Reply(body=data)

    async def delete_channel(call: Call) -> Reply:
        channel = channel_of(call)
        if not channel.is_thread or channel.guild is None:
            raise ApiError(403, 50013, "Missing Permissions", bot_bug=True)
        channel.guild.threads.remove(channel)
        del world.channels[channel.id]
        data = channel_payload(world, channel)
        await core.emit_thread("THREAD_DELETE", data)
        return Reply(body=data)

    async def thread_member(call: Call) -> Reply:
        thread = channel_of(call)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type", bot_bug=True)
        raw_id = call.params.get("user_id", "@me")
        user = world.bot if raw_id == "@me" else world.users.get(call.id("user_id"))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        if call.method == "PUT" and user not in thread.members:
            thread.members.append(user)
        elif call.method == "DELETE" and user in thread.members:
            thread.members.remove(user)
        return NO_CONTENT

    routes = [
        ("POST", "/users/@me/channels", open_dm),
        ("GET", "/channels/{channel_id}", get_channel),
        ("PATCH", "/channels/{channel_id}", edit_channel),
        ("DELETE", "/channels/{channel_id}", delete_channel),
        ("GET", "/channels/{channel_id}/messages", list_messages),
        ("POST", "/channels/{channel_id}/messages", post_message),
        ("POST", "/channels/{channel_id}/messages/bulk-delete", bulk_delete),
        ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", add_reaction),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", remove_reaction),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", create_thread),
        ("POST", "/channels/{channel_id}/threads", create_thread),
        ("POST", "/channels/{channel_id}/typing", typing),
        ("PUT", "/channels/{channel_id}/thread-members/@me", thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/@me", thread_member),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
    ]
    for method, template, handler in routes:
        router.add(method, template, handler)
