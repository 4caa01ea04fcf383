"""Wishlists: the cards a player hopes for, up to 10 per game (docs/drops.md, "Wishlists"). `__init__`
imports nothing: the drops read `store` and the service reads the drops' tables."""
