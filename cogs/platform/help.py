"""/help: where to start, then a page per game, in the reader's language, read from the live command tree;
and the welcome a player gets after their first command of a game.

The first page opens with "Start here" and the commands of no game; a select picks a game's page, whose
commands come in the order its `GameGuide` gives (what a new player runs first). Commands a reader cannot
use are not listed: those needing a permission they lack (as the Discord client does), /admin unless they
own the bot, and a game's staff commands (the Chocobataille referee's) unless the game says they may.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.components import reply
from cogs.shared.guide import RulesPageButton
from core.errors import BadInput
from core.i18n import has, t
from discord_app.components import PersistentSelect
from discord_app.context import locale_of, services_of
from discord_app.translator import desc, qualified
from services.community.render.help import credits_spec, game_help_spec, help_spec
from services.infra.games import GameGuide, GameRegistry, GameSpec, Reader
from services.infra.messages import MessageSpec, Text

OWNERS_ONLY = "admin"  # /admin answers only the bot's owners (OWNER_IDS): /help hides it from the others
HELP_SELECT = "help:game"
START = "-"  # the select's value for the first page
CREDITS = "+credits"  # the select's value for the artwork's credits (no game's key: keys are slugs)
PATH_KEYS = {1: "help.path1", 2: "help.path2", 3: "help.path3"}  # Discord nests commands at most 3 deep


def _localized(key: str, fallback: str) -> Text:
    """A command's catalog text; a command without catalog entries shows its code text instead."""
    return Text(key) if has(key) else Text.raw(fallback)


def command_line(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Text:
    """ "/profil — Affiche ...": the localized full name and description of one command."""
    parts = []
    node: Any = command
    while node is not None:
        parts.append(_localized(f"cmd.{qualified(node)}.name", node.name))
        node = node.parent
    params = {f"p{i}": p for i, p in enumerate(reversed(parts))}
    name = Text(PATH_KEYS[len(parts)], params)
    description = _localized(f"cmd.{qualified(command)}.description", str(command.description))
    return Text("help.line", {"name": name, "description": description})


def visible(command: Any, permissions: discord.Permissions) -> bool:
    """Like the Discord client: commands that need a permission the reader lacks are not listed."""
    needed = getattr(command, "default_permissions", None)
    return needed is None or needed.is_subset(permissions)


def _commands(group: app_commands.Group) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]


def _below(command: app_commands.Command[Any, ..., Any]) -> str:
    """ "deck save" for /hoss deck save: the name below the game's group."""
    return command.qualified_name.split(" ", 1)[-1]


def _ordered(
    commands_: list[app_commands.Command[Any, ..., Any]], guide: GameGuide | None
) -> list[app_commands.Command[Any, ..., Any]]:
    """The game's `order` first, in that order; the rest alphabetically after it."""
    order = list(guide.order) if guide is not None else []

    def rank(command: app_commands.Command[Any, ..., Any]) -> tuple[int, str]:
        name = _below(command)
        return (order.index(name) if name in order else len(order), name)

    return sorted(commands_, key=rank)


def _is_staff_command(command: app_commands.Command[Any, ..., Any], guide: GameGuide | None) -> bool:
    name = _below(command)
    return guide is not None and any(name.startswith(prefix) for prefix in guide.staff)


@dataclass(frozen=True)
class HelpReader:
    """What decides which commands a reader sees: their permissions here, and whether they own the bot."""

    permissions: discord.Permissions
    owner: bool
    staff_of: frozenset[str] = frozenset()  # the games whose staff commands this reader may use


def _shown(command: Any, reader: HelpReader) -> bool:
    """Like the Discord client (a permission the reader lacks hides it), and /admin for owners only."""
    if command.name == OWNERS_ONLY and not reader.owner:
        return False
    return visible(command, reader.permissions)


def _game_groups(
    tree: app_commands.CommandTree[Any], registry: GameRegistry
) -> list[tuple[GameSpec, app_commands.Group]]:
    by_group = {g.command_group: g for g in registry.all_games()}
    found = [
        (by_group[top.name], top)
        for top in tree.get_commands(type=discord.AppCommandType.chat_input)
        if isinstance(top, app_commands.Group) and top.name in by_group
    ]
    return sorted(found, key=lambda pair: pair[0].key)


def help_page(tree: app_commands.CommandTree[Any], registry: GameRegistry, reader: HelpReader) -> MessageSpec:
    """The first page, from the commands of the tree that belong to no game and the games' names."""
    game_groups = {g.command_group for g, _ in _game_groups(tree, registry)}
    general: list[Text] = []
    for top in sorted(tree.get_commands(type=discord.AppCommandType.chat_input), key=lambda c: c.name):
        if top.name in game_groups or not _shown(top, reader):
            continue
        if isinstance(top, app_commands.Group):
            general.extend(command_line(c) for c in _commands(top))
        else:
            general.append(command_line(top))
    return help_spec([g for g, _ in _game_groups(tree, registry)], general)


def game_help_page(
    tree: app_commands.CommandTree[Any], registry: GameRegistry, game_key: str, reader: HelpReader
) -> MessageSpec:
    """One game's page: its commands in the order a new player needs them; its staff commands only for
    those who may use them."""
    for game, group in _game_groups(tree, registry):
        if game.key != game_key:
            continue
        shown = [
            c
            for c in _ordered(_commands(group), game.guide)
            if not _is_staff_command(c, game.guide) or game.key in reader.staff_of
        ]
        return game_help_spec(game, [command_line(c) for c in shown])
    raise BadInput()


def help_view(
    tree: app_commands.CommandTree[Any], registry: GameRegistry, locale: str, chosen: str | None
) -> discord.ui.View:
    """The select that picks a game's page (or the first page back)."""
    view = discord.ui.View(timeout=None)
    game_groups = _game_groups(tree, registry)
    options = [
        discord.SelectOption(label=t("help.start_title", locale)[:100], value=START, default=chosen is None)
    ]
    options += [
        discord.SelectOption(label=t(g.name_key, locale)[:100], value=g.key, default=chosen == g.key)
        for g, _ in game_groups
    ]
    options.append(
        discord.SelectOption(label=t("help.credits", locale)[:100], value=CREDITS, default=chosen == CREDITS)
    )
    select = HelpSelect(HELP_SELECT, {}, options)
    select.item.placeholder = t("help.pick_game", locale)[:150]
    view.add_item(select)
    return view


async def reader_of(interaction: discord.Interaction[Any]) -> HelpReader:
    """The reader's permissions here, whether they own the bot, and the games whose staff they are."""
    services = services_of(interaction)
    member = interaction.user
    where = Reader(
        member.id,
        interaction.guild_id,
        tuple(r.id for r in getattr(member, "roles", ())),
        interaction.permissions.manage_guild,
    )
    staff = set()
    for game in services.registry.all_games():
        check = game.guide.is_staff if game.guide is not None else None
        if check is not None and game.key in services.games and await check(services.games[game.key], where):
            staff.add(game.key)
    return HelpReader(interaction.permissions, member.id in services.settings.owner_ids, frozenset(staff))


class HelpSelect(PersistentSelect, template=r"help:game"):
    """Any reader may pick a page: each is drawn for whoever clicks, with their own permissions."""

    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        tree = interaction.client.tree
        registry = services_of(interaction).registry
        reader = await reader_of(interaction)
        chosen = None if values[0] == START else values[0]
        if chosen == CREDITS:
            spec = credits_spec()
        else:
            spec = (
                help_page(tree, registry, reader)
                if chosen is None
                else game_help_page(tree, registry, chosen, reader)
            )
        await interaction.response.edit_message(
            **reply(spec, locale, help_view(tree, registry, locale, chosen))
        )


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=desc("cmd.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        spec = help_page(self.bot.tree, services_of(interaction).registry, await reader_of(interaction))
        await interaction.response.send_message(
            **reply(spec, locale, help_view(self.bot.tree, services_of(interaction).registry, locale, None)),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(HelpSelect, RulesPageButton)
    await bot.add_cog(HelpCog(bot))
