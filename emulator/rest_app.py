"""Login, application commands and guild/user lookups."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.errors import UNKNOWN_GUILD, UNKNOWN_MEMBER, UNKNOWN_USER, ApiError, not_found
from emulator.payloads import (
    application_payload,
    channel_payload,
    guild_payload,
    member_payload,
    role_payload,
    user_payload,
)
from emulator.rest import NO_CONTENT, Call, Reply, Router
from emulator.world import Guild

if TYPE_CHECKING:
    from emulator.core import EmulatorCore


class AppRoutes:
    """The routes of login, application commands and guild and user lookups, on one emulator's state."""

    def __init__(self, core: EmulatorCore) -> None:
        self.core = core
        self.world = core.world
        self.commands = core.commands

    def guild_of(self, call: Call) -> Guild:
        guild = self.world.guild_by_id(call.id("guild_id"))
        if guild is None:
            raise not_found("Guild", UNKNOWN_GUILD)
        return guild

    def check_app(self, call: Call) -> None:
        if call.id("application_id") != self.world.application_id:
            raise ApiError(403, 50001, "Missing Access", bot_bug=True)

    def command_scope(self, call: Call) -> int | None:
        self.check_app(call)
        return self.guild_of(call).id if "guild_id" in call.params else None

    async def get_me(self, call: Call) -> Reply:
        return Reply(body=self.core.bot_user_payload())

    async def get_user(self, call: Call) -> Reply:
        user = self.world.users.get(call.id("user_id"))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        return Reply(body=user_payload(user))

    async def get_application(self, call: Call) -> Reply:
        return Reply(body=application_payload(self.world))

    async def get_gateway(self, call: Call) -> Reply:
        return Reply(body={"url": self.core.gateway.url})

    async def get_gateway_bot(self, call: Call) -> Reply:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        shards = self.core.gateway.shard_count()
        return Reply(body={"url": self.core.gateway.url, "shards": shards, "session_start_limit": limit})

    async def list_commands(self, call: Call) -> Reply:
        return Reply(body=self.commands.payloads(self.command_scope(call)))

    async def put_commands(self, call: Call) -> Reply:
        return Reply(body=self.commands.bulk_overwrite(self.command_scope(call), call.json))

    async def post_command(self, call: Call) -> Reply:
        data, created = self.commands.upsert(self.command_scope(call), call.json)
        return Reply(201 if created else 200, data)

    async def get_command(self, call: Call) -> Reply:
        return Reply(body=self.commands.get(self.command_scope(call), call.id("command_id")).data)

    async def patch_command(self, call: Call) -> Reply:
        return Reply(body=self.commands.edit(self.command_scope(call), call.id("command_id"), call.json))

    async def delete_command(self, call: Call) -> Reply:
        self.commands.delete(self.command_scope(call), call.id("command_id"))
        return NO_CONTENT

    async def command_permissions(self, call: Call) -> Reply:
        self.command_scope(call)
        return Reply(body=[])

    async def get_guild(self, call: Call) -> Reply:
        data = guild_payload(self.world, self.guild_of(call))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return Reply(body=data)

    async def get_guild_channels(self, call: Call) -> Reply:
        return Reply(body=[channel_payload(self.world, c) for c in self.guild_of(call).channels])

    async def get_roles(self, call: Call) -> Reply:
        return Reply(body=[role_payload(role) for role in self.guild_of(call).roles])

    async def get_member(self, call: Call) -> Reply:
        guild = self.guild_of(call)
        user = self.world.users.get(call.id("user_id"))
        if user is None or (user not in self.world.members and user is not self.world.bot):
            raise not_found("Member", UNKNOWN_MEMBER)
        return Reply(body=member_payload(self.world, user, guild))

    async def list_members(self, call: Call) -> Reply:
        guild = self.guild_of(call)
        after = int(call.query.get("after", "0"))
        limit = int(call.query.get("limit", "1"))
        members = sorted((self.world.bot, *self.world.members), key=lambda user: user.id)
        chosen = [m for m in members if m.id > after][:limit]
        return Reply(body=[member_payload(self.world, m, guild) for m in chosen])

    async def active_threads(self, call: Call) -> Reply:
        guild = self.guild_of(call)
        threads = [channel_payload(self.world, t) for t in guild.threads if not t.archived]
        return Reply(body={"threads": threads, "members": []})


def register(router: Router, core: EmulatorCore) -> None:
    handlers = AppRoutes(core)
    routes = [
        ("GET", "/users/@me", handlers.get_me),
        ("PATCH", "/users/@me", handlers.get_me),
        ("GET", "/users/{user_id}", handlers.get_user),
        ("GET", "/oauth2/applications/@me", handlers.get_application),
        ("GET", "/applications/@me", handlers.get_application),
        ("GET", "/gateway", handlers.get_gateway),
        ("GET", "/gateway/bot", handlers.get_gateway_bot),
        ("GET", "/applications/{application_id}/commands", handlers.list_commands),
        ("PUT", "/applications/{application_id}/commands", handlers.put_commands),
        ("POST", "/applications/{application_id}/commands", handlers.post_command),
        ("GET", "/applications/{application_id}/commands/{command_id}", handlers.get_command),
        ("PATCH", "/applications/{application_id}/commands/{command_id}", handlers.patch_command),
        ("DELETE", "/applications/{application_id}/commands/{command_id}", handlers.delete_command),
        (
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
            handlers.command_permissions,
        ),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", handlers.list_commands),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", handlers.put_commands),
        ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", handlers.post_command),
        (
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            handlers.get_command,
        ),
        (
            "PATCH",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            handlers.patch_command,
        ),
        (
            "DELETE",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            handlers.delete_command,
        ),
        ("GET", "/guilds/{guild_id}", handlers.get_guild),
        ("GET", "/guilds/{guild_id}/channels", handlers.get_guild_channels),
        ("GET", "/guilds/{guild_id}/roles", handlers.get_roles),
        ("GET", "/guilds/{guild_id}/members", handlers.list_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", handlers.get_member),
        ("GET", "/guilds/{guild_id}/threads/active", handlers.active_threads),
    ]
    for method, template, handler in routes:
        router.add(method, template, handler)
