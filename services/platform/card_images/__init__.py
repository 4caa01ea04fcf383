"""Card images: every card of every game drawn as a PNG with Pillow, cached on disk.

`draw`, `icons` and `text` are the shared drawing helpers, `spec` what a game declares (`GameSpec.card_art`),
`cache` the disk cache, `service` the use case the cogs call. docs/card-images.md describes the layout.
"""
