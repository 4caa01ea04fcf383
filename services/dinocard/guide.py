"""Dinocard's first steps: its welcome, the order of its commands in /help and its rules summary's pages
(the texts are `dinocard.guide.*` and `dinocard.rules.*`, in locales/*/dinocard_guide.json)."""

from __future__ import annotations

from services.infra.games import GameGuide

GUIDE = GameGuide(
    welcome_key="dinocard.guide.welcome",
    about_key="dinocard.guide.about",
    order=(
        "rules",
        "collection",
        "pack create",
        "pack show",
        "dojo",
        "challenge",
        "replay",
        "shop",
        "buy",
        "pack add",
        "pack remove",
        "pack skills",
        "pack dissolve",
        "leaderboard",
        "notices",
    ),
    rules_pages=(
        ("dinocard.rules.1.title", "dinocard.rules.1.body"),
        ("dinocard.rules.2.title", "dinocard.rules.2.body"),
        ("dinocard.rules.3.title", "dinocard.rules.3.body"),
        ("dinocard.rules.4.title", "dinocard.rules.4.body"),
    ),
)
