"""After a slash command: one listener runs the welcome, then the cogs' hooks (discord_app/after_command.py)."""

from __future__ import annotations

from typing import Any

from discord_app.after_command import add_after_command, hooks_of, remove_after_command
from sandbox.harness import BotHarness


async def test_no_cog_listens_to_command_completion_itself(harness: BotHarness) -> None:
    """discord.py starts a task per listener: the hooks share the bot's one (HOSS's notices are one)."""
    assert harness.bot is not None
    assert harness.bot.extra_events.get("on_app_command_completion", []) == []
    assert any(getattr(hook, "__name__", "") == "show_notices" for hook in hooks_of(harness.bot))


async def test_a_failing_hook_is_reported_and_the_next_one_still_runs(harness: BotHarness) -> None:
    assert harness.bot is not None
    seen: list[str] = []

    async def broken(_interaction: Any, _command: Any) -> None:
        raise RuntimeError("hook failed")

    async def after(_interaction: Any, command: Any) -> None:
        seen.append(command.qualified_name)

    add_after_command(harness.bot, broken)
    add_after_command(harness.bot, after)
    try:
        reply = await harness.emu.run_command(harness.user("alice"), "profile")
        assert reply.message is not None
        assert "Profil d'alice" in str(reply.message.render())
        await harness.settle()
    finally:
        remove_after_command(harness.bot, broken)
        remove_after_command(harness.bot, after)
    assert seen == ["profile"]
    errors = harness.bot.game_tree.unexpected_errors
    assert [str(e) for e in errors] == ["hook failed"]
    errors.clear()


async def test_the_welcome_still_comes_with_a_first_command_of_a_game(harness: BotHarness) -> None:
    bob = harness.user("bob")
    first = await harness.emu.run_command(bob, "hoss collection")
    await harness.settle()
    assert first.message is not None
    assert str(first.message.render()).startswith("**Bienvenue dans HOSS TCG"), first.messages
