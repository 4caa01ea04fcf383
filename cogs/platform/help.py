"""/help: the games and every command, in the reader's language, read from the live command tree."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import has
from discord_app.context import locale_of
from discord_app.render import to_discord
from discord_app.translator import desc, qualified
from services.platform import games
from services.platform.messages import Embed, EmbedField, MessageSpec, Text

PATH_KEYS = {1: "help.path1", 2: "help.path2", 3: "help.path3"}  # Discord nests commands at most 3 deep


def _localized(key: str, fallback: str) -> Text:
    """A command's catalog text; a command without catalog entries shows its code text instead."""
    return Text(key) if has(key) else Text.raw(fallback)


def command_name(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Text:
    """ "/configuration salon-parties": the localized full name of one command."""
    parts = []
    node: Any = command
    while node is not None:
        parts.append(_localized(f"cmd.{qualified(node)}.name", node.name))
        node = node.parent
    params = {f"p{i}": p for i, p in enumerate(reversed(parts))}
    return Text(PATH_KEYS[len(parts)], params)


def command_line(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Text:
    """ "/profil — Affiche ...": the localized full name and description of one command."""
    name = command_name(command)
    description = _localized(f"cmd.{qualified(command)}.description", str(command.description))
    return Text("help.line", {"name": name, "description": description})


def visible(command: Any, permissions: discord.Permissions) -> bool:
    """Like the Discord client: commands that need a permission the reader lacks are not listed."""
    needed = getattr(command, "default_permissions", None)
    return needed is None or needed.is_subset(permissions)


LINES_PER_FIELD = 6  # an embed field holds 1,024 characters; six command lines always fit


def _fields(title: Text, lines: list[Text]) -> list[EmbedField]:
    """A long list of commands spread over several fields, the later ones titled "(suite)"."""
    chunks = [lines[i : i + LINES_PER_FIELD] for i in range(0, len(lines), LINES_PER_FIELD)] or [[]]
    return [
        EmbedField(
            title if i == 0 else Text("help.continued", {"title": title}), Text.lines(chunk), inline=False
        )
        for i, chunk in enumerate(chunks)
    ]


def help_spec(tree: app_commands.CommandTree[Any], permissions: discord.Permissions) -> MessageSpec:
    by_group = {g.command_group: g for g in games.all_games()}
    general: list[Text] = []
    managing: list[Text] = []
    sections: list[EmbedField] = []
    for top in sorted(tree.get_commands(type=discord.AppCommandType.chat_input), key=lambda c: c.name):
        if not visible(top, permissions):
            continue
        game = by_group.get(top.name)
        if game is not None and isinstance(top, app_commands.Group):
            lines = [command_line(c) for c in top.walk_commands() if isinstance(c, app_commands.Command)]
            sections.extend(_fields(Text(game.name_key), lines))
        elif isinstance(top, app_commands.Group) and getattr(top, "default_permissions", None) is not None:
            # the managers' and owners' tools, named without descriptions: a message holds 6,000
            # characters of embeds, and these readers know them (docs/admin.md)
            names = [command_name(c) for c in top.walk_commands() if isinstance(c, app_commands.Command)]
            managing.append(Text.lines(names))
        elif isinstance(top, app_commands.Group):
            general.extend(
                command_line(c) for c in top.walk_commands() if isinstance(c, app_commands.Command)
            )
        else:
            general.append(command_line(top))
    if not sections:
        sections.append(EmbedField(Text("help.games"), Text("help.no_games"), inline=False))
    fields = (*sections, *_fields(Text("help.general"), general))
    if managing:
        fields = (*fields, *(EmbedField(Text("help.managing"), line, inline=False) for line in managing))
    return MessageSpec(
        embeds=(Embed(title=Text("help.title"), description=Text("help.intro"), fields=fields),)
    )


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=desc("cmd.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **to_discord(help_spec(self.bot.tree, interaction.permissions), locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
