"""Pure game rules: no Discord, database, clock or I/O. Every game is a package here."""
