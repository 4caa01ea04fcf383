"""/setup is the platform's group; each game adds its own subcommands (cogs/shared/setup.py), whichever
of the two extensions loads first, and every bot of a process gets command objects of its own."""

from __future__ import annotations

from discord import app_commands

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
GAMES = {"choco", "referee-role", "pillz"}


async def setup_group(modules: list[str]) -> app_commands.Group:
    bot = CardBot(load_settings(require_token=False, env_file=None), ManualClock())
    for module in modules:
        await bot.load_extension(module)
    group = bot.tree.get_command("setup")
    assert isinstance(group, app_commands.Group)
    return group


async def test_games_add_their_settings_to_setup_in_any_load_order() -> None:
    modules = cog_modules()
    platform_first = sorted(modules, key=lambda name: not name.startswith("cogs.platform."))
    games_first = sorted(modules, key=lambda name: name.startswith("cogs.platform."))
    for order in (modules, platform_first, games_first):
        group = await setup_group(order)
        assert {c.name for c in group.commands} == PLATFORM | GAMES


async def test_each_bot_has_its_own_setup_commands() -> None:
    first, second = await setup_group(cog_modules()), await setup_group(cog_modules())
    for name in GAMES:
        one, other = first.get_command(name), second.get_command(name)
        assert one is not None
        assert other is not None
        assert one is not other
        assert one.parent is first
        assert other.parent is second
        assert one.qualified_name == f"setup {name}"
