"""Chocobataille's first steps: its welcome, the order of its commands in /help, who sees the referee
commands, and its rules summary's pages (the texts are `choco.guide.*` and `choco.rules.*`)."""

from __future__ import annotations

from typing import Any

from services.choco.referee import Referee
from services.infra.games import GameGuide, Reader


async def is_referee(services: Any, reader: Reader) -> bool:
    """The referee commands are for members holding the server's referee role, or Manage Server."""
    if reader.guild_id is None:
        return False
    referee = Referee(reader.player_id, reader.guild_id, reader.role_ids, reader.manage_guild)
    return bool(await services.referee.may_referee(referee))


GUIDE = GameGuide(
    welcome_key="choco.guide.welcome",
    about_key="choco.guide.about",
    order=(
        "rules",
        "frogs",
        "collection",
        "deck",
        "challenge",
        "games",
        "hand",
        "play",
        "panel",
        "daily",
        "odds",
        "leagues",
        "character",
        "absence",
        "forfeit",
        "leaderboard",
    ),
    staff=("referee-",),
    is_staff=is_referee,
    rules_pages=(
        ("choco.rules.1.title", "choco.rules.1.body"),
        ("choco.rules.2.title", "choco.rules.2.body"),
        ("choco.rules.3.title", "choco.rules.3.body"),
        ("choco.rules.4.title", "choco.rules.4.body"),
    ),
)
