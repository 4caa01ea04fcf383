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
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import format_int, t
from discord_app.context import locale_of
from discord_app.translator import desc
from services.shared.choice_time import MAX_SECONDS, MIN_SECONDS

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


class ChoiceTimeSettings(Protocol):
    """A game's duels service that keeps a server's time per choice (`services.shared.choice_time`)."""

    async def choice_seconds(self, guild_id: int) -> int: ...
    async def set_choice_time(self, guild_id: int, seconds: int) -> int: ...


@dataclass(frozen=True)
class ChoiceTimeKeys:
    """The game's message keys of its `/setup <game>` choice time (literals, read by the i18n test)."""

    description: str  # cmd.setup.<game>.description
    seconds: str  # cmd.setup.<game>.opt.seconds.description
    summary: str  # the /setup show line, with {seconds}


def choice_time_section(
    key: str, settings: Callable[[discord.Interaction[Any]], ChoiceTimeSettings], keys: ChoiceTimeKeys
) -> SetupSection:
    """`/setup <key> seconds`: the time a player of the game has for each choice before the AI chooses
    for them, a section games with timed choices share (Pillz, Immortal's War)."""

    async def summary(interaction: discord.Interaction[Any], locale: str) -> str:
        assert interaction.guild_id is not None
        seconds = await settings(interaction).choice_seconds(interaction.guild_id)
        return t(keys.summary, locale, seconds=format_int(seconds, locale))

    @app_commands.describe(seconds=desc(keys.seconds))
    async def choice_time(
        interaction: discord.Interaction[Any], seconds: app_commands.Range[int, MIN_SECONDS, MAX_SECONDS]
    ) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        saved = await settings(interaction).set_choice_time(interaction.guild_id, seconds)
        await interaction.response.send_message(
            t("setup.saved", locale) + "\n" + t(keys.summary, locale, seconds=format_int(saved, locale)),
            ephemeral=True,
        )

    def make() -> tuple[SetupCommand, ...]:
        return (app_commands.command(name=key, description=desc(keys.description))(choice_time),)

    return SetupSection(key, make, summary)


__all__ = [
    "ChoiceTimeKeys",
    "SetupCommand",
    "SetupSection",
    "attach_all",
    "attach_loaded",
    "choice_time_section",
    "require_manage_guild",
    "sections",
]
