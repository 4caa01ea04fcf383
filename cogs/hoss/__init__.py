"""HOSS's Discord commands: the /hoss group cog and the extension's `setup()` in `cog.py`; its views,
renderers and mixins beside it."""
