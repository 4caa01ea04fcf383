"""The /immortals command group (Immortal's War)."""
