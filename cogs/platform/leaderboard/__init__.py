"""The server's board in Discord: the extension is `cog.py` (discord_app/bot.py `cog_modules`)."""
