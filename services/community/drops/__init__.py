"""Drops: a prize appears in a server's games channel, everyone who clicks « Prendre » within the window
enters, and one winner is drawn by commit–reveal (docs/drops.md).

The package's modules are imported by name (`pool`, `rhythm`, `activity`, `service`, `posts`): this
`__init__` imports nothing, because the game registry (`services/infra/games.py`) imports `pool` and the
service imports the registry.
"""
