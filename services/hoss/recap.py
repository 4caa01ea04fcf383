"""HOSS's section of a server's weekly recap (`GameSpec.recap_sections`): the podium of the Arena season
that closed at the end of the week (docs/hoss/arena.md), its three first places and their points."""

from __future__ import annotations

from services.community.recap.providers import medal_line
from services.community.recap.sections import ORDER_PODIUMS, RecapSection, RecapWeek
from services.infra.messages import Text
from store.connection import Connection


def arena_podium(conn: Connection, week: RecapWeek) -> RecapSection | None:
    rows = conn.execute(
        "SELECT e.player_id, e.points FROM hoss_arena_entries e JOIN hoss_arena_seasons s"
        " ON s.guild_id = e.guild_id AND s.season = e.season"
        " WHERE e.guild_id = ? AND e.season = ? AND s.status = 'closed' AND e.place BETWEEN 1 AND 3"
        " ORDER BY e.place",
        (week.guild_id, week.monday.isoformat()),
    ).fetchall()
    if not rows:
        return None
    lines = [
        medal_line(place, int(player), Text("hoss.recap.arena.points", {"points": int(points)}))
        for place, (player, points) in enumerate(rows)
    ]
    return RecapSection(Text("hoss.recap.arena.title"), Text.lines(lines), ORDER_PODIUMS)


RECAP_SECTIONS = (arena_podium,)
