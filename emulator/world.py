"""The emulated Discord world: application, guilds, channels, users and roles.

Entities that a bot may persist (users, guilds, channels, roles) get ids derived from their names, so a
sandbox restarted with the same names in a different order still talks about the same ids.  Things that
only exist for one run (messages, interactions, commands) use a monotonic counter.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Milliseconds of 2015-01-01, the origin of Discord snowflake timestamps."""

_STABLE_RANGE_START_MS = 1_451_606_400_000  # 2016-01-01: name-derived ids live in 2016..2023
_STABLE_RANGE_SPAN_MS = 8 * 365 * 24 * 3600 * 1000
DEFAULT_EPOCH = datetime(2025, 1, 1, tzinfo=UTC)

# Channel types (subset of https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
TEXT_CHANNEL = 0
DM_CHANNEL = 1
ANNOUNCEMENT_CHANNEL = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
GUILD_TEXT_TYPES = (TEXT_CHANNEL, ANNOUNCEMENT_CHANNEL)

# Permission bits used to fill ``member.permissions`` and ``app_permissions``.
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1
BASIC_PERMISSIONS = (
    (1 << 0)  # CREATE_INSTANT_INVITE
    | (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 18)  # USE_EXTERNAL_EMOJIS
    | (1 << 20)  # CONNECT
    | (1 << 21)  # SPEAK
    | (1 << 26)  # CHANGE_NICKNAME
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | (1 << 35)  # CREATE_PUBLIC_THREADS
    | (1 << 38)  # SEND_MESSAGES_IN_THREADS
)

# The channel permissions the emulator enforces on the bot's REST calls, by discord.py's names (Discord's
# "Permissions" page, "Bitwise Permission Flags").
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
CHANNEL_PERMISSIONS = {
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
    "create_public_threads": CREATE_PUBLIC_THREADS,
    "create_private_threads": CREATE_PRIVATE_THREADS,
    "manage_threads": MANAGE_THREADS,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
}


def snowflake_time(snowflake: int) -> datetime:
    """Decode the creation time of a snowflake, exactly as discord.py does."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso_timestamp(snowflake: int) -> str:
    """Discord serialises times as ISO 8601 with an explicit UTC offset."""
    return snowflake_time(snowflake).isoformat()


class Snowflakes:
    """Generates ids that are valid snowflakes yet reproducible from run to run."""

    def __init__(self, epoch: datetime = DEFAULT_EPOCH, clock: Callable[[], float] | None = None) -> None:
        self._next_ms = int(epoch.timestamp() * 1000) - DISCORD_EPOCH_MS
        self._clock = clock
        self._owners: dict[int, tuple[str, ...]] = {}

    def next(self) -> int:
        """One millisecond per id keeps ids strictly increasing and timestamps distinct."""
        value = self.now_ms() << 22
        self._next_ms += 1
        return value

    def now_ms(self) -> int:
        """The emulator's present in snowflake milliseconds: the next id's time, without taking it."""
        if self._clock is not None:
            self._next_ms = max(self._next_ms, int(self._clock() * 1000) - DISCORD_EPOCH_MS)
        return self._next_ms

    def stable(self, *parts: str) -> int:
        """Derive an id from a name so persisted references survive emulator restarts.

        The same parts always give the same id; distinct parts that collide get re-salted.
        """
        salt = 0
        while True:
            digest = hashlib.sha256("\x1f".join((*parts, str(salt))).encode()).digest()
            offset = int.from_bytes(digest[:6]) % _STABLE_RANGE_SPAN_MS
            ms = _STABLE_RANGE_START_MS - DISCORD_EPOCH_MS + offset
            value = (ms << 22) | (int.from_bytes(digest[6:9]) & 0x3FFFFF)
            owner = self._owners.setdefault(value, parts)
            if owner == parts:
                return value
            salt += 1


@dataclass(eq=False)
class User:
    """A Discord user; every non-bot user is a member of every emulated guild."""

    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False
    dms_closed: bool = False
    bot: bool = False
    roles: list[Role] = field(default_factory=list)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild: Guild
    name: str
    permissions: int = 0
    position: int = 0

    def __repr__(self) -> str:
        return f"<Role {self.name} id={self.id}>"


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread (``parent`` set) or a DM channel (``recipient`` set)."""

    id: int
    type: int
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    owner: User | None = None
    position: int = 0
    topic: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    message_count: int = 0
    members: list[User] = field(default_factory=list)
    bot_denied: int = 0  # a member overwrite denying these bits to the bot here (threads use their parent's)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def kind(self) -> str:
        """The location label used by recorded messages: ``channel``, ``thread`` or ``dm``."""
        if self.is_dm:
            return "dm"
        return "thread" if self.is_thread else "channel"

    @property
    def label(self) -> str:
        """A human name: the recipient's name for DMs, the channel name otherwise."""
        if self.recipient is not None:
            return self.recipient.name
        return self.name

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<Channel {self.kind}:{self.label} id={self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner: User
    locale: str = "en-US"
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    joined: dict[int, datetime] = field(default_factory=dict)  # user id -> when they joined, if set

    @property
    def everyone(self) -> Role:
        """Discord's @everyone role always shares the guild's id."""
        return self.roles[0]

    @property
    def default_channel(self) -> Channel:
        return self.channels[0]

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


class World:
    """All entities known to the emulator, plus the lookups the REST layer needs."""

    def __init__(
        self,
        *,
        app_name: str = "TestBot",
        epoch: datetime = DEFAULT_EPOCH,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.ids = Snowflakes(epoch, clock)
        self.bot = User(id=self.ids.stable("bot", app_name), name=app_name, bot=True)
        self.application_id = self.bot.id
        self.owner = User(id=self.ids.stable("user", f"{app_name}-owner"), name=f"{app_name}-owner")
        # Every permission but Administrator, which would bypass the channel overwrites `deny_bot` sets.
        self.bot_permissions = ALL_PERMISSIONS & ~ADMINISTRATOR
        self.guilds: list[Guild] = []
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.members: list[User] = []
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.roles: dict[int, Role] = {}

    # -- creation ---------------------------------------------------------------------------------------

    def add_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        """Create a guild, or return the existing guild of that name (ids are derived from names)."""
        existing = self.guild_named(name)
        if existing is not None:
            return existing
        guild = Guild(id=self.ids.stable("guild", name), name=name, owner=self.owner, locale=locale)
        everyone = Role(id=guild.id, guild=guild, name="@everyone", permissions=BASIC_PERMISSIONS)
        guild.roles.append(everyone)
        self.roles[everyone.id] = everyone
        self.guilds.append(guild)
        self.add_channel(guild, "general")
        return guild

    def add_channel(
        self, guild: Guild, name: str, *, topic: str | None = None, announcement: bool = False
    ) -> Channel:
        """A text channel, or an announcement channel (type 5, which members can follow from elsewhere)."""
        existing = next((c for c in guild.channels if c.name == name), None)
        if existing is not None:
            return existing
        channel = Channel(
            id=self.ids.stable("channel", str(guild.id), name),
            type=ANNOUNCEMENT_CHANNEL if announcement else TEXT_CHANNEL,
            name=name,
            guild=guild,
            position=len(guild.channels),
            topic=topic,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_user(
        self, name: str, *, locale: str = "en-US", admin: bool = False, dms_closed: bool = False
    ) -> User:
        """Create a user, or update and return the existing user of that name."""
        existing = self.user_named(name)
        if existing is not None:
            existing.locale, existing.admin, existing.dms_closed = locale, admin, dms_closed
            return existing
        user_id = self.ids.stable("user", name)
        user = User(id=user_id, name=name, locale=locale, admin=admin, dms_closed=dms_closed)
        self.users[user.id] = user
        self.members.append(user)
        return user

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        existing = next((r for r in guild.roles if r.name == name), None)
        if existing is not None:
            return existing
        role = Role(
            id=self.ids.stable("role", str(guild.id), name),
            guild=guild,
            name=name,
            permissions=permissions,
            position=len(guild.roles),
        )
        guild.roles.append(role)
        self.roles[role.id] = role
        return role

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        thread_id: int | None = None,
        private: bool = False,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """Threads started from a message reuse the message id, as on Discord; an announcement channel's
        threads are announcement threads (type 10)."""
        if parent.guild is None or parent.type not in GUILD_TEXT_TYPES:
            raise ValueError("threads can only be created in guild text or announcement channels")
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = Channel(
            id=thread_id if thread_id is not None else self.ids.next(),
            type=ANNOUNCEMENT_THREAD if parent.type == ANNOUNCEMENT_CHANNEL else kind,
            name=name,
            guild=parent.guild,
            parent=parent,
            owner=owner,
            auto_archive_duration=auto_archive_duration,
            members=[owner],
        )
        parent.guild.threads.append(thread)
        self.channels[thread.id] = thread
        return thread

    def dm_channel(self, user: User) -> Channel:
        """DM channels are created lazily and are unique per user, like on Discord."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel_id = self.ids.stable("dm", str(user.id))
            channel = Channel(id=channel_id, type=DM_CHANNEL, name="", recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def set_joined(self, user: User, guild: Guild, when: datetime) -> None:
        """When `user` joined `guild`, as member payloads will say (``joined_at``)."""
        guild.joined[user.id] = when

    def joined_at(self, user: User, guild: Guild) -> datetime:
        """A member's join date: the one set, else the guild's creation (every member joined since)."""
        return guild.joined.get(user.id, snowflake_time(guild.id))

    # -- lookups ----------------------------------------------------------------------------------------

    def user_named(self, name: str) -> User | None:
        return next((user for user in self.members if user.name == name), None)

    def guild_named(self, name: str) -> Guild | None:
        return next((guild for guild in self.guilds if guild.name == name), None)

    def channel_named(self, name: str, guild: Guild | None = None) -> Channel | None:
        for candidate in self.guilds if guild is None else [guild]:
            for channel in (*candidate.channels, *candidate.threads):
                if channel.name == name:
                    return channel
        return None

    def guild_by_id(self, guild_id: int) -> Guild | None:
        return next((guild for guild in self.guilds if guild.id == guild_id), None)

    @property
    def threads(self) -> list[Channel]:
        return [thread for guild in self.guilds for thread in guild.threads]

    # -- permissions ------------------------------------------------------------------------------------

    def member_permissions(self, user: User, guild: Guild) -> int:
        """Admins get every bit (as Discord reports for administrators), others @everyone plus roles."""
        if user.admin or user.id == guild.owner.id:
            return ALL_PERMISSIONS
        permissions = guild.everyone.permissions
        for role in user.roles:
            if role.guild is guild:
                permissions |= role.permissions
        if permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return permissions

    def deny_bot(self, channel: Channel, *names: str) -> None:
        """Deny the bot these permissions in `channel` (a member overwrite), e.g. ``"attach_files"``; its
        threads inherit them, as Discord's threads inherit their parent's permissions."""
        if channel.guild is None or channel.is_thread:
            raise ValueError("permissions are overwritten on guild channels, not on threads or DMs")
        channel.bot_denied |= _permission_bits(names)

    def allow_bot(self, channel: Channel, *names: str) -> None:
        """Remove the bot's overwrite for these permissions in `channel` (all of them when none is named)."""
        channel.bot_denied &= ~_permission_bits(names) if names else 0

    def bot_channel_permissions(self, channel: Channel) -> int:
        """The bot's computed permissions in a channel (what ``app_permissions`` says): its own, less its
        overwrite there; a thread's are its parent's. Implicit denials are not applied, as Discord's
        computed permissions do not apply them either (Discord's "Permissions" page)."""
        if channel.guild is None:
            return self.bot_permissions
        source = channel.parent if channel.parent is not None else channel
        if self.bot_permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return self.bot_permissions & ~source.bot_denied


def _permission_bits(names: tuple[str, ...]) -> int:
    bits = 0
    for name in names:
        if name not in CHANNEL_PERMISSIONS:
            raise ValueError(f"unknown permission {name!r}; known: {', '.join(CHANNEL_PERMISSIONS)}")
        bits |= CHANNEL_PERMISSIONS[name]
    return bits
