"""`/classement serveur`: one board across every game of a server, from each game's own ranking
(docs/drops.md, "The server's board"). `__init__` imports nothing: the game registry imports `spec`."""
