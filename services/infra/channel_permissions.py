"""The bot's channel permissions, by name: what a post needs, and how a message names what is missing.

Names are discord.py's `Permissions` attributes. The commands that post (discord_app/permissions.py),
the outbox when Discord refuses a post (services/infra/outbox.py) and `/setup` all name permissions through
these keys, so a member reads the same words wherever the bot asks for one.
"""

from __future__ import annotations

from services.infra.messages import Text

# Discord's "Permissions" page: Bitwise Permission Flags; the French words are the Discord client's.
PERMISSION_KEYS = {
    "view_channel": "permission.view_channel",
    "send_messages": "permission.send_messages",
    "send_messages_in_threads": "permission.send_messages_in_threads",
    "create_public_threads": "permission.create_public_threads",
    "manage_threads": "permission.manage_threads",
    "embed_links": "permission.embed_links",
    "attach_files": "permission.attach_files",
    "read_message_history": "permission.read_message_history",
}

# What the bot needs where games are played: see the channel, post (in the channel and in its game
# threads), open and archive those threads, show embeds and upload battle logs, read the history.
GAME_CHANNEL_NEEDS = tuple(PERMISSION_KEYS)


def post_needs(*, in_thread: bool, embeds: bool = False, files: bool = False) -> tuple[str, ...]:
    """What creating a message needs: Send Messages, or Send Messages in Threads in a thread (a thread
    does not inherit Send Messages, Discord's "Permissions" page), plus Embed Links and Attach Files for
    what it carries."""
    needs = ["view_channel", "send_messages_in_threads" if in_thread else "send_messages"]
    if embeds:
        needs.append("embed_links")
    if files:
        needs.append("attach_files")
    return tuple(needs)


def permission_list(names: tuple[str, ...] | list[str]) -> Text:
    """The permissions, one per line, in the reader's language."""
    return Text.lines([Text("permission.line", {"name": Text(PERMISSION_KEYS[name])}) for name in names])
