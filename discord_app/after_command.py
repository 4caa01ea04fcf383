"""What runs after a slash command has answered: one task for every hook.

discord.py starts a task per listener of `app_command_completion`. Two cogs listened (the game's welcome,
HOSS's milestone notices), so every command of every game paid for two tasks, most of which returned at
once. The bot listens once (`CardBot.on_app_command_completion`) and runs the hooks cogs registered here,
one after the other: the welcome first (discord_app/welcome.py), then each cog's, in the order loaded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

AfterCommand = Callable[[discord.Interaction[Any], Any], Awaitable[None]]
_HOOKS = "after_command_hooks"


def hooks_of(bot: commands.Bot) -> list[AfterCommand]:
    hooks: list[AfterCommand] | None = getattr(bot, _HOOKS, None)
    if hooks is None:
        hooks = []
        setattr(bot, _HOOKS, hooks)
    return hooks


def add_after_command(bot: commands.Bot, hook: AfterCommand) -> None:
    """Run `hook(interaction, command)` after each slash command (a cog's `cog_load`)."""
    hooks_of(bot).append(hook)


def remove_after_command(bot: commands.Bot, hook: AfterCommand) -> None:
    """The cog's `cog_unload`: its hook no longer runs."""
    hooks = hooks_of(bot)
    if hook in hooks:
        hooks.remove(hook)
