"""/dino: Dinocard's command group (cogs/dinocard/cog.py) and its mixins."""
