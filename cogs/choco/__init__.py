"""Chocobataille's Discord commands: the /choco group cog and the extension's `setup()` in `cog.py`, one mixin
module per command family beside it."""
