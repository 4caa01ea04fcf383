"""The refusal of an option value a command did not declare, and how a refusal quotes what the user typed.

Apart from the error handler (`discord_app/errors.py`), which checks every command's options with
`discord_app/option_checks.py` before it runs: both build on these, so neither imports the other lazily.
"""

from __future__ import annotations

import json

from discord import app_commands

from core.message_guard import Quoted
from engine.errors import DomainError

ECHO_LIMIT = 60  # what a refusal quotes of one value the user typed


class BadOption(DomainError, app_commands.AppCommandError):
    """An option value the command did not declare (discord_app/option_checks.py). An AppCommandError too,
    so discord.py routes it from the tree's interaction check to `GameTree.on_error`."""

    key = "error.bad_option"


def echo(value: object, limit: int = ECHO_LIMIT) -> Quoted:
    """What a refusal quotes of the user's input: one line, at most `limit` characters. A value that is
    no string is quoted as the client sent it, in JSON (`null`, `true`, `[1, 2]`), not as Python writes
    it (`None`, `True`)."""
    sent = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    quoted = " ".join(sent.split())
    return Quoted(quoted if len(quoted) <= limit else quoted[: limit - 1] + "…")
