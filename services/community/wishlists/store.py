"""Who wishes for a card, among the players seen in a server: what a drop of that card mentions and who
hears of it being shown off there. Reads only, inside the caller's unit."""

from __future__ import annotations

from datetime import date, timedelta

from store.connection import Connection

MAX_MENTIONS = 10  # names on a drop's wishlist line
SEEN_WITHIN = timedelta(days=30)  # a player counts as "on the server" this long after their last command


def wishers_here(
    conn: Connection,
    guild_id: int,
    game: str,
    card_key: str,
    today: date,
    *,
    limit: int = MAX_MENTIONS,
    without: int | None = None,
) -> list[int]:
    """The players who wish for the card, used a slash command in the server in the last 30 days and keep
    their wishlist alerts on, earliest wish first (`without`: the one player left out, who showed it)."""
    rows = conn.execute(
        "SELECT w.player_id FROM wishlists w"
        " JOIN guild_players g ON g.player_id = w.player_id AND g.guild_id = ?"
        " JOIN players p ON p.id = w.player_id"
        " WHERE w.game = ? AND w.card_key = ? AND p.wish_alerts = 1 AND g.last_day >= ? AND w.player_id <> ?"
        " ORDER BY w.added_at, w.player_id LIMIT ?",
        (guild_id, game, card_key, (today - SEEN_WITHIN).isoformat(), without or 0, limit),
    ).fetchall()
    return [int(row[0]) for row in rows]
