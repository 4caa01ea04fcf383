"""What the platform's one-module features show (/daily and /cooldowns, /profile, /help's credits): their
MessageSpecs of localizable Text. A feature with its own package keeps them in it (`lab/render.py`,
`leaderboard/render.py`). No discord.py here: the cogs turn a MessageSpec into Discord objects."""
