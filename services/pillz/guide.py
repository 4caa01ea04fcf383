"""Pillz's first steps: its welcome, the order of its commands in /help and its rules summary's pages
(the texts are `pillz.guide.*` and `pillz.rules.*`)."""

from __future__ import annotations

from services.infra.games import GameGuide

GUIDE = GameGuide(
    welcome_key="pillz.guide.welcome",
    about_key="pillz.guide.about",
    order=("rules", "practice", "collection", "deck", "challenge", "packs", "odds", "leaderboard"),
    rules_pages=(
        ("pillz.rules.1.title", "pillz.rules.1.body"),
        ("pillz.rules.2.title", "pillz.rules.2.body"),
        ("pillz.rules.3.title", "pillz.rules.3.body"),
    ),
)
