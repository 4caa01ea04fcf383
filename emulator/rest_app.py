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


def register(router: Router, core: EmulatorCore) -> None:
    world = core.world
    commands = core.commands

    def guild_of(call: Call) -> Guild:
        guild = world.guild_by_id(call.id("guild_id"))
        if guild is None:
            raise not_found("Guild", UNKNOWN_GUILD)
        return guild

    def check_app(call: Call) -> None:
        if call.id("application_id") != world.application_id:
            raise ApiError(403, 50001, "Missing Access", bot_bug=True)

    def command_scope(call: Call) -> int | None:
        check_app(call)
        return guild_of(call).id if "guild_id" in call.params else None

    async def get_me(call: Call) -> Reply:
        return Reply(body=core.bot_user_payload())

    async def get_user(call: Call) -> Reply:
        user = world.users.get(call.id("user_id"))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        return Reply(body=user_payload(user))

    async def get_application(call: Call) -> Reply:
        return Reply(body=application_payload(world))

    async def get_gateway(call: Call) -> Reply:
        return Reply(body={"url": core.gateway.url})

    async def get_gateway_bot(call: Call) -> Reply:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return Reply(body={"url": core.gateway.url, "shards": 1, "session_start_limit": limit})

    async def list_commands(call: Call) -> Reply:
        return Reply(body=commands.payloads(command_scope(call)))

    async def put_commands(call: Call) -> Reply:
        return Reply(body=commands.bulk_overwrite(command_scope(call), call.json))

    async def post_command(call: Call) -> Reply:
        data, created = commands.upsert(command_scope(call), call.json)
        return Reply(201 if created else 200, data)

    async def get_command(call: Call) -> Reply:
        return Reply(body=commands.get(command_scope(call), call.id("command_id")).data)

    async def patch_command(call: Call) -> Reply:
        return Reply(body=commands.edit(command_scope(call), call.id("command_id"), call.json))

    async def delete_command(call: Call) -> Reply:
        commands.delete(command_scope(call), call.id("command_id"))
        return NO_CONTENT

    async def command_permissions(call: Call) -> Reply:
        command_scope(call)
        return Reply(body=[])

    async def get_guild(call: Call) -> Reply:
        data = guild_payload(world, guild_of(call))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return Reply(body=data)

    async def get_guild_channels(call: Call) -> Reply:
        return Reply(body=[channel_payload(world, c) for c in guild_of(call).channels])

    async def get_roles(call: Call) -> Reply:
        return Reply(body=[role_payload(role) for role in guild_of(call).roles])

    async def get_member(call: Call) -> Reply:
        guild = guild_of(call)
        user = world.users.get(call.id("user_id"))
        if user is None or (user not in world.members and user is not world.bot):
            raise not_found("Member", UNKNOWN_MEMBER)
        return Reply(body=member_payload(world, user, guild))

    async def list_members(call: Call) -> Reply:
        guild = guild_of(call)
        after = int(call.query.get("after", "0"))
        limit = int(call.query.get("limit", "1"))
        members = sorted((world.bot, *world.members), key=lambda user: user.id)
        chosen = [m for m in members if m.id > after][:limit]
        return Reply(body=[member_payload(world, m, guild) for m in chosen])

    async def active_threads(call: Call) -> Reply:
        guild = guild_of(call)
        threads = [channel_payload(world, t) for t in guild.threads if not t.archived]
        return Reply(body={"threads": threads, "members": []})

    routes = [
        ("GET", "/users/@me", get_me),
        ("PATCH", "/users/@me", get_me),
        ("GET", "/users/{user_id}", get_user),
        ("GET", "/oauth2/applications/@me", get_application),
        ("GET", "/applications/@me", get_application),
        ("GET", "/gateway", get_gateway),
        ("GET", "/gateway/bot", get_gateway_bot),
        ("GET", "/applications/{application_id}/commands", list_commands),
        ("PUT", "/applications/{application_id}/commands", put_commands),
        ("POST", "/applications/{application_id}/commands", post_command),
        ("GET", "/applications/{application_id}/commands/{command_id}", get_command),
        ("PATCH", "/applications/{application_id}/commands/{command_id}", patch_command),
        ("DELETE", "/applications/{application_id}/commands/{command_id}", delete_command),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/permissions", command_permissions),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", list_commands),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
        ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", post_command),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", get_command),
        ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", patch_command),
        ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", delete_command),
        ("GET", "/guilds/{guild_id}", get_guild),
        ("GET", "/guilds/{guild_id}/channels", get_guild_channels),
        ("GET", "/guilds/{guild_id}/roles", get_roles),
        ("GET", "/guilds/{guild_id}/members", list_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
        ("GET", "/guilds/{guild_id}/threads/active", active_threads),
    ]
    for method, template, handler in routes:
        router.add(method, template, handler)
