"""Tests never read the developer's `.env` or environment for settings."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _clean_settings_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name in {
            "DISCORD_TOKEN",
            "DATABASE_PATH",
            "DEV_GUILD_ID",
            "OWNER_IDS",
            "DEFAULT_LOCALE",
            "TIMEZONE",
            "LOG_LEVEL",
        }:
            monkeypatch.delenv(name, raising=False)
