"""Serialisation of world entities into the JSON shapes discord.py parses.

Shapes follow discord.py's ``types/`` package; every key that discord.py reads with ``data['key']`` (as
opposed to ``data.get``) must be present, or parsing raises ``KeyError`` deep inside the client.
"""

from __future__ import annotations

from typing import Any

from emulator.world import DM_CHANNEL, Channel, Guild, Role, User, World, iso_timestamp

JsonDict = dict[str, Any]


def user_payload(user: User) -> JsonDict:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": None if user.bot else user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
    }


def member_payload(world: World, user: User, guild: Guild, *, permissions: bool = False) -> JsonDict:
    """Interaction payloads carry the resolved ``permissions``; gateway member lists do not."""
    data: JsonDict = {
        "user": user_payload(user),
        "nick": None,
        "avatar": None,
        "roles": [str(role.id) for role in user.roles if role.guild is guild],
        "joined_at": world.joined_at(user, guild).isoformat(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions:
        data["permissions"] = str(world.member_permissions(user, guild))
    return data


def role_payload(role: Role) -> JsonDict:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def channel_payload(world: World, channel: Channel, *, permissions_for: User | None = None) -> JsonDict:
    """Interaction and resolved-channel payloads add the invoking user's ``permissions`` and the bot's
    ``app_permissions``."""
    if channel.type == DM_CHANNEL:
        assert channel.recipient is not None
        data: JsonDict = {
            "id": str(channel.id),
            "type": DM_CHANNEL,
            "last_message_id": None,
            "recipients": [user_payload(channel.recipient)],
            "flags": 0,
        }
    elif channel.is_thread:
        assert channel.guild is not None
        assert channel.parent is not None
        assert channel.owner is not None
        data = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild.id),
            "parent_id": str(channel.parent.id),
            "owner_id": str(channel.owner.id),
            "name": channel.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": channel.message_count,
            "member_count": len(channel.members),
            "total_message_sent": channel.message_count,
            "flags": 0,
            "thread_metadata": {
                "archived": channel.archived,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": iso_timestamp(channel.id),
                "locked": channel.locked,
                "invitable": True,
                "create_timestamp": iso_timestamp(channel.id),
            },
        }
    else:
        assert channel.guild is not None
        data = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild.id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": channel.topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
    if permissions_for is not None:
        if channel.guild is not None:
            data["permissions"] = str(world.member_permissions(permissions_for, channel.guild))
        else:
            data["permissions"] = str(world.bot_permissions)
        # The bot's own, with its overwrites (Discord's "Channels" page, channel object `app_permissions`).
        data["app_permissions"] = str(world.bot_channel_permissions(channel))
    return data


def guild_payload(world: World, guild: Guild) -> JsonDict:
    """The full GUILD_CREATE payload, including every member so discord.py considers it chunked."""
    members = [world.bot, *world.members]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(role) for role in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": str(guild.default_channel.id),
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": guild.locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": iso_timestamp(guild.id),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "voice_states": [],
        "members": [member_payload(world, user, guild) for user in members],
        "channels": [channel_payload(world, channel) for channel in guild.channels],
        "threads": [channel_payload(world, thread) for thread in guild.threads],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application_payload(world: World) -> JsonDict:
    """``GET /oauth2/applications/@me``: what ``Client.application_info`` parses during login."""
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "icon": None,
        "description": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(world.owner),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "bot": user_payload(world.bot),
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "approximate_guild_count": len(world.guilds),
    }
