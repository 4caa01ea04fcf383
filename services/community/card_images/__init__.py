"""Card images: every card of every game drawn as a PNG with Pillow, cached on disk.

`draw` and `text` are the shared drawing helpers (the font: `glyphs`), `artwork` each card's own picture
from game-icons.net (its paths drawn by `vector`), `figures` a hand's or a line-up's tiles, `profile`
the /profile picture, `spec` what a game declares (`GameSpec.card_art`), `cache` the disk cache, `service`
the use case the cogs call. docs/card-images.md describes the layout.
"""
