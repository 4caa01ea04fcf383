"""/setup is the platform's group; each game adds its own subcommands (cogs/shared/setup.py), whichever
of the two extensions loads first, and every bot of a process gets command objects of its own."""

from __future__ import annotations

from discord import app_commands

from cogs.shared.setup import sections
from core.clock import ManualClock
from core.settings import load_settings
from discord_app.bot import CardBot, cog_modules

PLATFORM = {
    "announcements",
    "games-channel",
    "deadline",
    "language",
    "show",
    "ban",
    "unban",
    "pause",
    "resume",
    "audit",
}


async def loaded(modules: list[str]) -> tuple[CardBot, app_commands.Group]:
    bot = CardBot(load_settings(require_token=False, env_file=None), ManualClock())
    for module in modules:
        await bot.load_extension(module)
    group = bot.tree.get_command("setup")
    assert isinstance(group, app_commands.Group)
    return bot, group


async def setup_group(modules: list[str]) -> app_commands.Group:
    return (await loaded(modules))[1]


def game_commands(bot: CardBot) -> set[str]:
    """The subcommands the loaded games' own sections declare, found from the cogs (a game that adds a
    section is expected without an edit here)."""
    return {command.name for section in sections(bot) for command in section.commands()}


async def test_games_add_their_settings_to_setup_in_any_load_order() -> None:
    modules = cog_modules()
    platform_first = sorted(modules, key=lambda name: not name.startswith("cogs.platform."))
    games_first = sorted(modules, key=lambda name: name.startswith("cogs.platform."))
    for order in (modules, platform_first, games_first):
        bot, group = await loaded(order)
        games = game_commands(bot)
        assert len(sections(bot)) >= 2  # Chocobataille's and Pillz's at least: the search found them
        assert not games & PLATFORM
        assert {c.name for c in group.commands} == PLATFORM | games


async def test_a_section_of_a_game_is_found_from_its_cog() -> None:
    """The negative control: a cog's section the group does not hold would fail the test above."""
    bot, group = await loaded(cog_modules())
    cog = next(c for c in bot.cogs.values() if getattr(c, "setup_section", None) is not None)
    section = cog.setup_section  # type: ignore[attr-defined]
    name = section.commands()[0].name
    group.remove_command(name)
    assert {c.name for c in group.commands} != PLATFORM | game_commands(bot)


async def test_each_bot_has_its_own_setup_commands() -> None:
    bot, first = await loaded(cog_modules())
    second = await setup_group(cog_modules())
    for name in game_commands(bot):
        one, other = first.get_command(name), second.get_command(name)
        assert one is not None
        assert other is not None
        assert one is not other
        assert one.parent is first
        assert other.parent is second
        assert one.qualified_name == f"setup {name}"
