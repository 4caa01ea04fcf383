"""The database reads a running bot makes, named by their read unit: what the command-cost tests (issue 39)
count to show that a click reads nothing it could have kept."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.harness import BotHarness


def reads_named(harness: BotHarness, monkeypatch: pytest.MonkeyPatch, prefix: str) -> list[str]:
    """From now on, the qualified name of every read unit of the bot whose name starts with `prefix`."""
    assert harness.bot is not None
    db = harness.bot.services.db
    found: list[str] = []
    original = db.read

    async def counted(unit: Any, **kwargs: Any) -> Any:
        name = getattr(unit, "__qualname__", "")
        if name.startswith(prefix):
            found.append(name)
        return await original(unit, **kwargs)

    monkeypatch.setattr(db, "read", counted)
    return found
