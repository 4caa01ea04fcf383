"""Immortal's War's first steps: its welcome, the order of its commands in /help and its rules summary's
pages (the texts are `immortals.guide.*` and `immortals.rules.*`, in locales/*/immortals_guide.json)."""

from __future__ import annotations

from services.infra.games import GameGuide

GUIDE = GameGuide(
    welcome_key="immortals.guide.welcome",
    about_key="immortals.guide.about",
    order=(
        "rules",
        "practice",
        "collection",
        "deck",
        "spells",
        "challenge",
        "recruit",
        "learn",
        "leaderboard",
    ),
    rules_pages=(
        ("immortals.rules.1.title", "immortals.rules.1.body"),
        ("immortals.rules.2.title", "immortals.rules.2.body"),
        ("immortals.rules.3.title", "immortals.rules.3.body"),
        ("immortals.rules.4.title", "immortals.rules.4.body"),
    ),
)
