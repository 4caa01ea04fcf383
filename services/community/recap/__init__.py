"""The weekly recap of a server, posted every Monday morning (docs/drops.md, "The weekly recap").
`__init__` imports nothing: the game registry imports `sections`."""
