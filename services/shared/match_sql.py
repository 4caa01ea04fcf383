"""The SQL of the match block's reads (services/shared/matches.py), each shaped for the index it uses and
for the fewest statements per use case (issue 39): runs on SQLite and PostgreSQL alike."""

from __future__ import annotations

SEATS = 2
# `number IS NOT NULL` is the partial index `matches_number`'s condition: the last number read from it
NEXT_NUMBER = "SELECT COALESCE(MAX(number), 0) + 1 FROM matches WHERE game = ? AND number IS NOT NULL"
# A match with its seats' holders (`seat_0`, `seat_1`), each found by the seats' primary key: one
# statement per read, where reading the seats after the match made two (issue 39: every answer, skip, job
# and control of every game reads its match).
SELECT_SEATED = (
    "SELECT matches.*, "
    + ", ".join(
        f"(SELECT player_id FROM match_seats s WHERE s.match_id = matches.id AND s.seat = {seat}) AS seat_{seat}"
        for seat in range(SEATS)
    )
    + " FROM matches"
)
# A player's live matches, found among the game's open ones (the partial index `matches_open`, whose
# condition the second term repeats so that SQLite may use it; in this order, in the index's order of
# ids, with no sort), each seat checked by the index of seats by player: from the player's seats, every
# match they ever played was read (0.37 ms at 2,000 finished battles, at every ranked start and ladder).
LIVE_OF = (
    "status = 'live' AND status IN ('pending', 'live')"
    " AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = matches.id AND s.player_id = ?)"
    " AND (CAST(? AS BIGINT) IS NULL OR guild_id = ?)"
)
# The number of a player's first live match, everywhere: what a numbered game's start and ladder need of
# it, where reading whole rows built each live match (its state parsed) for its number.
LIVE_NUMBER = f"SELECT number FROM matches WHERE game = ? AND {LIVE_OF} ORDER BY id LIMIT 1"
