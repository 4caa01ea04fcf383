"""End-to-end tests of Immortal's War through the emulator."""
