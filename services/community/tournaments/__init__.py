"""Tournaments run by the bot: registration, rounds with deadlines, the games' own matches, posts, podium
(docs/tournaments.md). The formats' rules are pure, in the engine (`engine/swiss.py`, `engine/bracket.py`,
`engine/seeding.py`); each game takes part through `GameSpec.tournament` (`services/infra/games.py`).

This package's modules are imported by name; nothing is imported here, so that a game's end-of-match unit
(`results.match_over`) or the profile (`titles`) reach their module without the whole service.
"""
