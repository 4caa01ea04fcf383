"""A game paused in a server, or a player banned from its games there (`/setup pause`, `/setup ban`):
checked once for every command and persistent button of a game, before the game's own code runs, so no
game checks it itself.

A command belongs to the game whose `GameSpec.command_group` is its root group's name; a button to the
game whose key starts its custom_id (`pillz:go:...`): both are conventions every game follows already.
What runs without an interaction (deadlines, the outbox) is not paused: a pause stops players, not the
clock (docs/admin.md).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from discord_app.context import services_of
from engine.errors import DomainError
from services.infra.games import GameRegistry


class GameClosed(DomainError, app_commands.AppCommandError):
    """The service's refusal, as an AppCommandError too, so that discord.py routes it from the tree's
    interaction check to `GameTree.on_error` (as `refusals.BadOption`)."""


def game_of_command(registry: GameRegistry, command: Any) -> str | None:
    if not isinstance(command, app_commands.Command | app_commands.Group):
        return None
    root = command.root_parent or command
    return next((g.key for g in registry.all_games() if g.command_group == root.name), None)


def game_of_component(registry: GameRegistry, custom_id: str) -> str | None:
    namespace = custom_id.partition(":")[0]
    return namespace if registry.get(namespace) is not None else None


async def check_game_access(interaction: discord.Interaction[Any]) -> None:
    """Raises the localized refusal (`admin.paused`, `admin.banned`); nothing outside a server."""
    if interaction.guild_id is None:
        return
    if interaction.type is discord.InteractionType.application_command:
        game = game_of_command(services_of(interaction).registry, interaction.command)
    elif interaction.type is discord.InteractionType.component:
        data: dict[str, Any] = dict(interaction.data or {})
        game = game_of_component(services_of(interaction).registry, str(data.get("custom_id", "")))
    else:
        return
    if game is None:
        return
    try:
        await services_of(interaction).admin.check_access(interaction.guild_id, game, interaction.user.id)
    except DomainError as refusal:
        raise GameClosed(refusal.key, **refusal.params) from None
