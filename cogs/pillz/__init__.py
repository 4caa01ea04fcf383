"""The Pillz duel's Discord commands: the /pillz group cog and the extension's `setup()` in `cog.py`, one mixin
module per command family beside it."""
