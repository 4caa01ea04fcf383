"""The platform's sections of the weekly recap: each game's best players of the week, the rarest pulls
shown off, the drops won. Each reads one server's week and says nothing (None) when it had nothing."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from core.clock import to_db
from services.community.drops.pool import DropPrize
from services.community.recap.sections import (
    ORDER_DROPS,
    ORDER_PLAYERS,
    ORDER_PULLS,
    Highlight,
    RecapSection,
    RecapWeek,
    SectionProvider,
)
from services.infra.erased import is_erased, mention
from services.infra.games import GameRegistry
from services.infra.messages import Number, StripCard, Text
from store.connection import Connection

PODIUM = ("🥇", "🥈", "🥉")
PULLS_SHOWN = 5


def medal_line(place: int, player: int, score: Text) -> Text:
    return Text("recap.medal", {"medal": PODIUM[place], "player": mention(player), "score": score})


def best_players(conn: Connection, week: RecapWeek) -> RecapSection | None:
    """Each game with wins this week on the server, its three best (`GameSpec.standings.week`)."""
    lines = []
    for spec in week.registry.all_games():
        if spec.standings is None:
            continue
        best = spec.standings.week(conn, week.guild_id, week.since, week.until)[: len(PODIUM)]
        if best:
            medals = [medal_line(place, s.player_id, s.score) for place, s in enumerate(best)]
            lines.append(Text("recap.players.game", {"game": Text(spec.name_key), "players": medals}))
    if not lines:
        return None
    return RecapSection(Text("recap.players.title"), Text.lines(lines), ORDER_PLAYERS)


def worth(registry: GameRegistry, game: str, catalog: Any, card_id: str, copy: StripCard) -> tuple[int, int]:
    """How prized a copy is, by its game's own measures: its card's rarity or tier (`CardArt.worth`), then
    its value in trades (HOSS prices a copy by its own rarity)."""
    spec = registry.get(game)
    card = catalog.card(card_id) if catalog is not None else None
    if spec is None or card is None:
        return (0, 0)
    art = spec.card_art.worth(card) if spec.card_art is not None else 0
    value_of = spec.trading.card_value
    attrs = {"rarity": copy.rarity, "stars": copy.stars, "holo": copy.holo}
    value = value_of(catalog, card_id, attrs) if value_of is not None else 0
    return (art, value)


def rarest_pulls(conn: Connection, week: RecapWeek) -> RecapSection | None:
    """The pulls shown off (« Montrer ») on the server this week: each game's most prized, most prized
    first (at most five lines); their pictures are the recap's candidates."""
    rows = conn.execute(
        "SELECT player_id, game, card_key, copy FROM showoff_log WHERE guild_id = ? AND shown_at >= ?"
        " AND shown_at < ? ORDER BY id",
        (week.guild_id, to_db(week.since), to_db(week.until)),
    ).fetchall()
    best: dict[str, tuple[tuple[int, int], int, str, StripCard, Text]] = {}
    for player, game, card_id, raw in rows:
        kept = json.loads(str(raw))
        rarity, stars, holo = kept["copy"]
        strip = StripCard(str(card_id), rarity, int(stars), bool(holo))
        prized = worth(week.registry, str(game), week.catalogs.get(str(game)), str(card_id), strip)
        if str(game) not in best or prized >= best[str(game)][0]:  # a tie goes to the latest
            best[str(game)] = (prized, int(player), str(card_id), strip, Text.from_json(kept["rarity"]))
    if not best:
        return None
    ordered = sorted(best.items(), key=lambda item: item[1][0], reverse=True)[:PULLS_SHOWN]
    lines, highlights = [], []
    for game, (prized, player, card_id, strip, rarity) in ordered:
        catalog = week.catalogs.get(game)
        card = catalog.card(card_id) if catalog is not None else None
        if card is None or is_erased(player):
            continue
        spec = week.registry.get(game)
        lines.append(
            Text(
                "recap.pulls.line",
                {
                    "player": mention(player),
                    "card": Text.per_locale({"fr": card.name.fr, "en": card.name.en}),
                    "rarity": rarity,
                    "game": Text(spec.name_key) if spec is not None else Text.raw(game),
                },
            )
        )
        highlights.append(Highlight(game, strip, prized))
    if not lines:
        return None
    return RecapSection(Text("recap.pulls.title"), Text.lines(lines), ORDER_PULLS, tuple(highlights))


def drops_won(conn: Connection, week: RecapWeek) -> RecapSection | None:
    """How many drops the server had this week, how many were won and by how many players, and the
    luckiest one."""
    rows = conn.execute(
        "SELECT status, winner_id, game, prize FROM drops WHERE guild_id = ? AND opened_at >= ? AND opened_at < ?",
        (week.guild_id, to_db(week.since), to_db(week.until)),
    ).fetchall()
    won = [(int(winner), str(game), str(prize)) for status, winner, game, prize in rows if status == "drawn"]
    if not won:
        return None
    by_player = Counter(winner for winner, _, _ in won if not is_erased(winner))
    luckiest = min(by_player.items(), key=lambda item: (-item[1], item[0])) if by_player else None
    lines = [
        Text(
            "recap.drops.count",
            {"drops": Number(len(rows)), "won": Number(len(won)), "players": len(by_player)},
        )
    ]
    if luckiest is not None and luckiest[1] > 1:
        lines.append(Text("recap.drops.luckiest", {"player": mention(luckiest[0]), "wins": luckiest[1]}))
    highlights = []
    for _, game, raw in won:
        prize = DropPrize.from_json(raw)
        if prize.card_id is not None:
            strip = StripCard(prize.card_id, prize.copy.rarity, prize.copy.stars, prize.copy.holo)
            highlights.append(
                Highlight(
                    game, strip, worth(week.registry, game, week.catalogs.get(game), prize.card_id, strip)
                )
            )
    return RecapSection(Text("recap.drops.title"), Text.lines(lines), ORDER_DROPS, tuple(highlights))


PLATFORM_PROVIDERS: tuple[SectionProvider, ...] = (best_players, rarest_pulls, drops_won)
