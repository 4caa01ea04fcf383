"""How the end-to-end tests read what the bot posted: a message as a reader sees it, and the one public
message a title names."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

import services.infra.messages as messages
from core.i18n import t
from emulator.interactions import InteractionResult
from emulator.records import RecordedMessage
from sandbox.harness import BotHarness


def shown(message: RecordedMessage) -> str:
    """The message as rendered, narrow no-break spaces (French punctuation) read as plain spaces."""
    return str(message.render()).replace("\u202f", " ")


def plain(text: str) -> str:
    """French typography's no-break spaces as the spaces a reader sees."""
    return text.replace("\u202f", " ").replace("\u00a0", " ")


def only_public(h: BotHarness, pattern: str) -> RecordedMessage:
    """The one public message whose text matches `pattern` (e.g. a duel's title with its number)."""
    found = [m for m in h.emu.messages if not m.ephemeral and re.search(pattern, shown(m))]
    assert len(found) == 1, [shown(m) for m in found]
    return found[0]


def public_answer(result: InteractionResult) -> RecordedMessage:
    """A command's public answer. A player's first command of a game shows the game's welcome first,
    privately, as its response; a public answer then follows it (discord_app/welcome.py)."""
    found = [m for m in result.messages if not m.ephemeral]
    assert found, result.messages
    return found[0]


WELCOME_OPENINGS = ("**Bienvenue dans", "**Welcome to")


def after_welcome(text: str) -> str:
    """A private answer's text below the game's welcome, which a player's first command of a game shows
    at its top (discord_app/welcome.py); the text itself when it has none."""
    if not text.startswith(WELCOME_OPENINGS):
        return text
    welcome, found, rest = text.partition("\n\n")
    assert found, text
    assert "➡️" in welcome, text  # the welcome whole, its next step included
    return rest


def renders_of(monkeypatch: pytest.MonkeyPatch, key: str) -> list[str]:
    """The languages `key` is rendered in from now on, once per rendering of a message that holds it (a
    reply, a post): a cost test counts what a command renders again."""
    rendered: list[str] = []

    def counted(name: str, locale: str | None = None, /, **params: Any) -> str:
        if name == key:
            rendered.append(str(locale))
        return t(name, locale, **params)

    monkeypatch.setattr(messages, "t", counted)
    return rendered


def items_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The discord.py items added to a `discord.ui.View` from now on, by class name: a reply written
    straight as Discord's rows (cogs/shared/rows.py) adds none."""
    added: list[str] = []
    original = discord.ui.View.add_item

    def counted(view: discord.ui.View, item: discord.ui.Item[Any]) -> discord.ui.View:
        added.append(type(item).__name__)
        return original(view, item)

    monkeypatch.setattr(discord.ui.View, "add_item", counted)
    return added
