"""The refusal of an option value a command did not declare, and how a refusal quotes what the user typed.

Apart from the error handler (`discord_app/errors.py`), which checks every command's options with
`discord_app/option_checks.py` before it runs: both build on these, so neither imports the other lazily.
"""

from __future__ import annotations

from discord import app_commands

from core.message_guard import ECHO_LIMIT, echo
from engine.errors import DomainError


class BadOption(DomainError, app_commands.AppCommandError):
    """An option value the command did not declare (discord_app/option_checks.py). An AppCommandError too,
    so discord.py routes it from the tree's interaction check to `GameTree.on_error`."""

    key = "error.bad_option"


__all__ = ["ECHO_LIMIT", "BadOption", "echo"]
