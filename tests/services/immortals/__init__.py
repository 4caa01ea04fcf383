"""Service tests of Immortal's War."""
