"""The deck lab: a player's deck played many times against the AI, for statistics only (docs/lab.md)."""
