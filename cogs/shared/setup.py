"""How a game puts its server settings under the platform's `/setup` group, so the platform names no game.

A game declares a `SetupSection` (how to make its subcommands, plain `app_commands.Command`s of its own
package, and the line `/setup show` prints for it) as its GroupCog's `setup_section`. discord.py lets a command be
added to a group already built (`Group.add_command`), before the tree is synced; extensions load in name
order, so whichever of the game and the platform's `/setup` loads second attaches the section
(`attach_loaded` from the game's `setup()`, `attach_all` from the platform cog's `cog_load`). The names
users type stay `/setup <game> ...`; the texts are the game's locale files.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

SETUP_GROUP = "setup"
Summary = Callable[[discord.Interaction[Any], str], Awaitable[str]]
SetupCommand = app_commands.Command[Any, ..., Any]


@dataclass(frozen=True)
class SetupSection:
    key: str  # the game's key: `/setup show` lists the sections in this order
    commands: Callable[[], tuple[SetupCommand, ...]]  # new objects at each call: one group each
    summary: Summary  # the game's settings on this server, one line, in the reader's language


def require_manage_guild(interaction: discord.Interaction[Any]) -> None:
    """`default_permissions` only hides the command; server admins can re-grant it, so check at run time too."""
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    if not interaction.permissions.manage_guild:
        raise app_commands.MissingPermissions(["manage_guild"])


def sections(bot: commands.Bot) -> list[SetupSection]:
    """The sections of the games loaded now, by game key."""
    found = [getattr(cog, "setup_section", None) for cog in bot.cogs.values()]
    return sorted((s for s in found if isinstance(s, SetupSection)), key=lambda s: s.key)


def attach(group: app_commands.Group, section: SetupSection) -> None:
    for command in section.commands():
        if group.get_command(command.name) is None:
            group.add_command(command)


def attach_all(bot: commands.Bot, group: app_commands.Group) -> None:
    """From the platform's `/setup`: the sections of the games loaded before it."""
    for section in sections(bot):
        attach(group, section)


def attach_loaded(bot: commands.Bot, section: SetupSection) -> None:
    """From a game's extension: its section, if the platform's `/setup` is loaded already."""
    group = bot.tree.get_command(SETUP_GROUP)
    if isinstance(group, app_commands.Group):
        attach(group, section)


__all__ = ["SetupCommand", "SetupSection", "attach_all", "attach_loaded", "require_manage_guild", "sections"]
