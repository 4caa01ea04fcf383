"""The registry of every game, as the container discovers it, built once for the tests that read the
real games' specs (their catalogs, card art, drops) or serve them all."""

from __future__ import annotations

from functools import cache

from services.infra.games import GameRegistry


@cache
def every_game() -> GameRegistry:
    return GameRegistry.discover()
