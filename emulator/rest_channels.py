"""Channels, DMs, messages, reactions and threads.

Every route on a guild channel checks the bot's permissions there first (`World.bot_channel_permissions`):
without View Channel Discord answers 403 / 50001 Missing Access, without another permission the call needs
403 / 50013 Missing Permissions. What each call needs comes from Discord's "Messages" page (Create
Message: Send Messages, Read Message History for a reply; Get Channel Message: View Channel and Read
Message History; Create Reaction: Read Message History), its "Channels" page (threads: Create Public
Threads, Manage Threads to archive or delete, Send Messages to only unarchive) and its "Permissions" page
(a thread takes its parent's permissions, but posting there needs Send Messages in Threads). Embeds and
uploads need Embed Links and Attach Files. Interaction responses and follow-ups are webhooks and need none
of these (Discord's "Receiving and Responding" page): they are not checked here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote

from emulator.errors import (
    CANNOT_DM_USER,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    ApiError,
    invalid_form,
    missing_access,
    missing_permissions,
    not_found,
)
from emulator.limits import check_thread
from emulator.messages import fill_message
from emulator.payloads import channel_payload
from emulator.records import RecordedMessage
from emulator.rest import NO_CONTENT, Call, Reply, Router
from emulator.world import (
    ANNOUNCEMENT_CHANNEL,
    ANNOUNCEMENT_THREAD,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    GUILD_TEXT_TYPES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
)

MANAGE_CHANNELS = 1 << 4

if TYPE_CHECKING:
    from emulator.core import EmulatorCore


class ChannelRoutes:
    """The routes of channels, DMs, messages, reactions and threads, on one emulator's state."""

    def __init__(self, core: EmulatorCore) -> None:
        self.core = core
        self.world = core.world
        self.records = core.records

    def channel_of(self, call: Call) -> Channel:
        channel = self.world.channels.get(call.id("channel_id"))
        if channel is None:
            raise not_found("Channel", UNKNOWN_CHANNEL)
        return channel

    def require(self, channel: Channel, *needed: int) -> None:
        """Refuse the call as Discord does when the bot lacks a permission in a guild channel."""
        if channel.guild is None:
            return
        granted = self.world.bot_channel_permissions(channel)
        if not granted & VIEW_CHANNEL:
            raise missing_access()
        if any(not granted & bit for bit in needed):
            raise missing_permissions()

    def send_bit(self, channel: Channel) -> int:
        return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES

    def content_bits(self, body: dict[str, object], files: object) -> list[int]:
        """Embeds need Embed Links and uploads Attach Files, in a new message as in an edit."""
        return [bit for bit, used in ((EMBED_LINKS, body.get("embeds")), (ATTACH_FILES, files)) if used]

    def message_of(self, call: Call, channel: Channel) -> RecordedMessage:
        message = self.records.get(call.id("message_id"))
        if message is None or message.channel is not channel or message.ephemeral:
            raise not_found("Message", UNKNOWN_MESSAGE)
        return message

    async def get_channel(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel)
        return Reply(body=channel_payload(self.world, channel))

    async def open_dm(self, call: Call) -> Reply:
        user = self.world.users.get(int(call.body().get("recipient_id") or 0))
        if user is None or user.bot:
            raise not_found("User", UNKNOWN_USER)
        return Reply(body=channel_payload(self.world, self.world.dm_channel(user)))

    async def post_message(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        if channel.recipient is not None and channel.recipient.dms_closed:
            raise ApiError(403, CANNOT_DM_USER, "Cannot send messages to this user")
        body = call.body()
        reply_bit = [READ_MESSAGE_HISTORY] if body.get("message_reference") else []
        self.require(channel, self.send_bit(channel), *self.content_bits(body, call.files), *reply_bit)
        message, created = self.core.create_message_once(channel, self.world.bot, body, call.files)
        if created:
            if channel.is_thread and channel.archived:
                channel.archived = False  # Discord unarchives a thread when someone allowed to posts in it
            if message.message_reference:
                message.type = 19
            await self.core.emit_message("MESSAGE_CREATE", message)
        # Discord echoes the nonce; a repeated one (enforce_nonce) gets the first message, nothing new.
        reply = message.payload()
        if "nonce" in body:
            reply["nonce"] = body["nonce"]
        return Reply(body=reply)

    async def list_messages(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel)
        if (
            channel.guild is not None
            and not self.world.bot_channel_permissions(channel) & READ_MESSAGE_HISTORY
        ):
            return Reply(body=[])  # Discord returns no message without Read Message History
        messages = self.records.channel_messages(channel)
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
            limit = int(call.query.get("limit", "50"))
            return Reply(body=[m.payload() for m in reversed(messages[:limit])])
        limit = int(call.query.get("limit", "50"))
        return Reply(body=[m.payload() for m in reversed(messages[-limit:])])

    async def get_message(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel, READ_MESSAGE_HISTORY)
        return Reply(body=self.message_of(call, channel).payload())

    async def edit_message(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        message = self.message_of(call, channel)
        if message.author is not self.world.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user", bot_bug=True)
        body = call.body()
        self.require(channel, *self.content_bits(body, call.files))
        fill_message(message, body, call.files, self.world.ids, editing=True)
        await self.core.emit_message("MESSAGE_UPDATE", message)
        return Reply(body=message.payload())

    async def delete_message(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel)
        message = self.message_of(call, channel)
        message.deleted = True
        await self.core.emit_message("MESSAGE_DELETE", message)
        return NO_CONTENT

    async def bulk_delete(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        for raw in call.body().get("messages") or []:
            message = self.records.get(int(raw))
            if message is not None and message.channel is channel:
                message.deleted = True
        return NO_CONTENT

    async def typing(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel, self.send_bit(channel))
        return NO_CONTENT

    async def add_reaction(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        self.require(channel, READ_MESSAGE_HISTORY)
        message = self.message_of(call, channel)
        emoji = unquote(call.params["emoji"])
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        return NO_CONTENT

    async def remove_reaction(self, call: Call) -> Reply:
        message = self.message_of(call, self.channel_of(call))
        emoji = unquote(call.params["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return NO_CONTENT

    async def create_thread(self, call: Call) -> Reply:
        parent = self.channel_of(call)
        body = call.body()
        source = self.message_of(call, parent) if "message_id" in call.params else None
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form("thread name must be 1-100 characters")
        check_thread(body)
        if parent.type not in GUILD_TEXT_TYPES:
            raise ApiError(400, 50024, "Cannot execute action on this channel type", bot_bug=True)
        requested = body.get("type")
        # An announcement channel's threads are announcement threads (type 10, Discord's "Channels" page).
        if source is None and (requested == ANNOUNCEMENT_THREAD) != (parent.type == ANNOUNCEMENT_CHANNEL):
            raise invalid_form(
                f"thread type {requested} cannot be created in a channel of type {parent.type}"
            )
        private = source is None and requested == PRIVATE_THREAD
        self.require(parent, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        if source is not None and any(t.id == source.id for t in self.world.threads):
            raise ApiError(400, 160004, "A thread has already been created for this message", bot_bug=True)
        thread = self.world.add_thread(
            parent,
            name,
            owner=self.world.bot,
            thread_id=None if source is None else source.id,
            private=private,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        data = channel_payload(self.world, thread)
        await self.core.emit_thread("THREAD_CREATE", {**data, "newly_created": True})
        return Reply(201, data)

    async def edit_channel(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        body = call.body()
        only_unarchive = set(body) <= {"archived"} and body.get("archived") is False and not channel.locked
        if not channel.is_thread:
            self.require(channel, MANAGE_CHANNELS)
        else:
            self.require(channel, SEND_MESSAGES if only_unarchive else MANAGE_THREADS)
        if "name" in body:
            channel.name = str(body["name"])
        if "topic" in body:
            channel.topic = body["topic"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        data = channel_payload(self.world, channel)
        if channel.is_thread:
            await self.core.emit_thread("THREAD_UPDATE", data)
        return Reply(body=data)

    async def delete_channel(self, call: Call) -> Reply:
        channel = self.channel_of(call)
        if not channel.is_thread or channel.guild is None:
            raise ApiError(403, 50013, "Missing Permissions", bot_bug=True)
        self.require(channel, MANAGE_THREADS)
        channel.guild.threads.remove(channel)
        del self.world.channels[channel.id]
        data = channel_payload(self.world, channel)
        await self.core.emit_thread("THREAD_DELETE", data)
        return Reply(body=data)

    async def thread_member(self, call: Call) -> Reply:
        thread = self.channel_of(call)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type", bot_bug=True)
        raw_id = call.params.get("user_id", "@me")
        user = self.world.bot if raw_id == "@me" else self.world.users.get(call.id("user_id"))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        if user is not self.world.bot:
            self.require(thread, SEND_MESSAGES_IN_THREADS if call.method == "PUT" else MANAGE_THREADS)
        else:
            self.require(thread)
        if call.method == "PUT" and user not in thread.members:
            thread.members.append(user)
        elif call.method == "DELETE" and user in thread.members:
            thread.members.remove(user)
        return NO_CONTENT


def register(router: Router, core: EmulatorCore) -> None:
    handlers = ChannelRoutes(core)
    routes = [
        ("POST", "/users/@me/channels", handlers.open_dm),
        ("GET", "/channels/{channel_id}", handlers.get_channel),
        ("PATCH", "/channels/{channel_id}", handlers.edit_channel),
        ("DELETE", "/channels/{channel_id}", handlers.delete_channel),
        ("GET", "/channels/{channel_id}/messages", handlers.list_messages),
        ("POST", "/channels/{channel_id}/messages", handlers.post_message),
        ("POST", "/channels/{channel_id}/messages/bulk-delete", handlers.bulk_delete),
        ("GET", "/channels/{channel_id}/messages/{message_id}", handlers.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", handlers.edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", handlers.delete_message),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", handlers.add_reaction),
        (
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            handlers.remove_reaction,
        ),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", handlers.create_thread),
        ("POST", "/channels/{channel_id}/threads", handlers.create_thread),
        ("POST", "/channels/{channel_id}/typing", handlers.typing),
        ("PUT", "/channels/{channel_id}/thread-members/@me", handlers.thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/@me", handlers.thread_member),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", handlers.thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", handlers.thread_member),
    ]
    for method, template, handler in routes:
        router.add(method, template, handler)
