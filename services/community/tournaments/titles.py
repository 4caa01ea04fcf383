"""The titles a tournament's podium earns, on the player's `/profile` (« 🥇 Vainqueur — Tournoi Pillz du
12 janvier 2026 »): read from the finished tournaments' places, so they need no table of their own. The
unit that sets the places announces the profile's change (`players.summary_changed`), as every writer of
a profile line does: /profile is kept in memory until then."""

from __future__ import annotations

from datetime import date

from services.infra.games import GameRegistry, SummaryLine
from services.infra.messages import Day, Text
from store.connection import Connection

SHOWN = 5  # the latest titles on the profile
MEDALS = ("🥇", "🥈", "🥉")
PLACES = ("tournaments.place.1", "tournaments.place.2", "tournaments.place.3")


def titles(conn: Connection, player_id: int, registry: GameRegistry) -> list[SummaryLine]:
    """The player's podium places in finished tournaments, latest first."""
    rows = conn.execute(
        "SELECT e.place, t.game, t.day FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.player_id = ? AND e.place <= 3 AND t.status = 'finished' ORDER BY t.ended_at DESC, t.id DESC"
        " LIMIT ?",
        (player_id, SHOWN),
    ).fetchall()
    lines = []
    for place, game, day in rows:
        name = registry.name(str(game))
        title = Text("tournaments.title", {"game": name, "day": Day(date.fromisoformat(str(day)))})
        lines.append(
            SummaryLine(
                "tournaments.profile.title",
                {
                    "medal": MEDALS[int(place) - 1],
                    "place": Text(PLACES[int(place) - 1]),
                    "title": title,
                },
            )
        )
    return lines
