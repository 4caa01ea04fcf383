"""The bot's own permissions where a command will post, checked before the command changes anything.

Answering an interaction needs no channel permission: responses and follow-ups are webhooks (Discord's
"Receiving and Responding" page). What a command leaves for later does: the outbox's posts, a game's
thread, the edits of a public battle message and its log upload are channel calls, refused with 403 when
the bot lacks a permission there. Discord sends the bot's permissions in the interaction's channel with
every interaction (`app_permissions`, overwrites included), so a command that will post there checks them
first and answers privately, naming what is missing, instead of failing later where nobody sees it.
"""

from __future__ import annotations

from typing import Any

import discord

from discord_app.context import services_of
from engine.errors import DomainError
from services.infra.channel_permissions import permission_list, post_needs


class BotLacksPermissions(DomainError):
    key = "error.bot_missing_permissions"


# A game's public message, posted and then edited by the outbox (Pillz duels).
PUBLIC_MESSAGE = "public_message"
# A HOSS battle: its message is the response, then edited round after round with the log attached.
BATTLE_MESSAGE = "battle_message"
# A Chocobataille game: a public thread opened here, the referee's embeds posted in it.
GAME_THREAD = "game_thread"
# A rare pull shown off (« Montrer »): a post by the outbox carrying the card's picture.
SHOW_OFF = "show_off"


def needs_of(purpose: str, *, in_thread: bool) -> tuple[str, ...]:
    if purpose == PUBLIC_MESSAGE:
        return post_needs(in_thread=in_thread, embeds=True)
    if purpose == SHOW_OFF:
        return post_needs(in_thread=in_thread, files=True)
    if purpose == BATTLE_MESSAGE:
        return ("view_channel", "embed_links", "attach_files")
    if in_thread:  # no thread in a thread: the game lives in this one
        return post_needs(in_thread=True, embeds=True)
    return ("view_channel", "create_public_threads", "send_messages_in_threads", "embed_links")


def bot_permissions_in(interaction: discord.Interaction[Any], channel: Any) -> discord.Permissions:
    """The bot's permissions in the interaction's channel, or in a channel given as an option: Discord
    computes both with their overwrites (`app_permissions` of the interaction and of its resolved
    channels, Discord's "Channels" page); the client's cache is the last resort."""
    if channel is None or channel.id == interaction.channel_id:
        return interaction.app_permissions
    data: dict[str, Any] = dict(interaction.data or {})
    resolved: dict[str, Any] = (data.get("resolved") or {}).get("channels") or {}
    raw = (resolved.get(str(channel.id)) or {}).get("app_permissions")
    if raw is not None:
        return discord.Permissions(int(raw))
    cached: discord.Permissions = channel.permissions_for(channel.guild.me)
    return cached


def missing_in(
    interaction: discord.Interaction[Any], needs: tuple[str, ...], channel: Any = None
) -> list[str]:
    """What the bot lacks in `channel` (the interaction's by default); nothing outside a server."""
    if interaction.guild_id is None:
        return []
    granted = bot_permissions_in(interaction, channel)
    return [name for name in needs if not getattr(granted, name)]


def require_here(interaction: discord.Interaction[Any], purpose: str) -> None:
    """Refuse the command, privately, when the bot could not post its result in this channel."""
    in_thread = isinstance(interaction.channel, discord.Thread)
    missing = missing_in(interaction, needs_of(purpose, in_thread=in_thread))
    if missing:
        raise BotLacksPermissions(permissions=permission_list(missing))


async def require_game_thread(interaction: discord.Interaction[Any]) -> None:
    """A game's thread opens in the server's games channel when one is set (`/setup games-channel`
    checked the bot's permissions there), else here: only then does this channel matter."""
    if interaction.guild_id is None:
        return
    settings = await services_of(interaction).guilds.get(interaction.guild_id)
    if settings.games_channel_id in (None, interaction.channel_id):
        require_here(interaction, GAME_THREAD)
