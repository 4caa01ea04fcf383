"""What every game's end-to-end tests read from the harness, whatever the game."""

from __future__ import annotations

from sandbox.harness import BotHarness


def here(h: BotHarness) -> int:
    """The server the harness runs commands in: battles started there are reached from there only."""
    assert h.guild is not None
    return h.guild.id
