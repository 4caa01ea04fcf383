"""What Dinocard's messages look like: MessageSpecs of localizable Text built from the services'
results. No discord.py here: the cogs turn a MessageSpec into Discord objects and own the Views."""
