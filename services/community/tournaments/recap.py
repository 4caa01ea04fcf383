"""The tournaments' section of a server's weekly recap (docs/drops.md, "Weekly recap"): each tournament
that finished in the week, its game and day, and its podium."""

from __future__ import annotations

from services.community.recap.providers import medal_line
from services.community.recap.sections import ORDER_TOURNAMENTS, RecapSection, RecapWeek
from services.community.tournaments.results import finished_between
from services.infra.messages import Day, Number, Text
from store.connection import Connection


def tournaments_section(conn: Connection, week: RecapWeek) -> RecapSection | None:
    done = finished_between(conn, week.guild_id, week.since, week.until)
    if not done:
        return None
    lines: list[Text] = []
    for finished in done:
        game = week.registry.name(finished.game)
        lines.append(
            Text(
                "tournaments.recap.line",
                {"game": game, "day": Day(finished.day), "players": Number(finished.players)},
            )
        )
        lines += [
            medal_line(podium.place - 1, podium.player_id, Text("tournaments.recap.place"))
            for podium in finished.podium
        ]
    return RecapSection(Text("tournaments.recap.title"), Text.lines(lines), ORDER_TOURNAMENTS)
