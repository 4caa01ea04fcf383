"""Counts the `discord.Message` objects discord.py builds: the deliverer's posts and edits must make none
of Discord's answers (discord_app/posts_http.py)."""

from __future__ import annotations

from typing import Any

import discord
import pytest


def messages_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one for every `discord.Message` built from now until the test ends."""
    built: list[int] = []
    original = discord.Message.__init__

    def counting(self: discord.Message, **kwargs: Any) -> None:
        built.append(1)
        original(self, **kwargs)

    monkeypatch.setattr(discord.Message, "__init__", counting)
    return built
