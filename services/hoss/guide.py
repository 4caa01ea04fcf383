"""HOSS's first steps: its welcome, the order of its commands in /help and its rules summary's pages
(the texts are `hoss.guide.*` and `hoss.rules.*`)."""

from __future__ import annotations

from services.infra.games import GameGuide

GUIDE = GameGuide(
    welcome_key="hoss.guide.welcome",
    about_key="hoss.guide.about",
    order=(
        "rules",
        "booster",
        "open",
        "collection",
        "deck auto",
        "deck list",
        "deck show",
        "deck save",
        "deck active",
        "rank",
        "battle",
        "replay",
        "sell duplicates",
        "sell card",
        "sell filtered",
        "fuse",
        "odds",
        "raffle show",
        "raffle buy",
        "raffle verify",
        "arena register",
        "arena attack",
        "arena standings",
        "arena cancel",
    ),
    rules_pages=(
        ("hoss.rules.1.title", "hoss.rules.1.body"),
        ("hoss.rules.2.title", "hoss.rules.2.body"),
        ("hoss.rules.3.title", "hoss.rules.3.body"),
        ("hoss.rules.4.title", "hoss.rules.4.body"),
    ),
)
