"""A closed Arena season's opponent draws as a record anyone can check (engine/hoss/arena_draws.py).

The seed stays secret while the season is open (it would let a player predict their opponents), so only
a closed season can be verified; its record lists every attack with the candidates it was drawn from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from core.errors import NotAllowed, NotFound
from engine.fair_draw import Verdict
from engine.hoss import DrawnAttack, SeasonRecord, verify_season
from services.infra.erased import ERASED, is_erased
from services.infra.messages import Day
from store.connection import Connection


class NoSeason(NotFound):
    key = "hoss.arena.error.no_season"


class SeasonStillOpen(NotAllowed):
    key = "hoss.arena.error.verify_open"


@dataclass(frozen=True)
class ArenaVerification:
    guild_id: int
    season: date
    record: SeasonRecord
    verdict: Verdict


def season_record(conn: Connection, guild_id: int, season: date) -> SeasonRecord:
    """The published record of a closed season of this server (its seed, its attacks in order)."""
    row = conn.execute(
        "SELECT status, seed, commitment FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?",
        (guild_id, season.isoformat()),
    ).fetchone()
    if row is None:
        raise NoSeason(season=Day(season))
    if row[0] != "closed":
        raise SeasonStillOpen(season=Day(season))
    attacks = tuple(
        DrawnAttack(int(a), int(n), int(d), tuple(int(c) for c in json.loads(candidates)))
        for a, n, d, candidates in conn.execute(
            "SELECT attacker_id, number, defender_id, candidates FROM hoss_arena_attacks"
            " WHERE guild_id = ? AND season = ? ORDER BY drawn_at, id",
            (guild_id, season.isoformat()),
        )
    )
    return SeasonRecord(str(row[2]), str(row[1]), attacks)


def verification(conn: Connection, guild_id: int, season: date) -> ArenaVerification:
    record = season_record(conn, guild_id, season)
    verdict = verify_season(record)
    players = {p for a in record.attacks for p in (a.attacker, a.defender, *a.candidates)}
    if not verdict.ok and any(is_erased(p) for p in players):
        verdict = Verdict(False, ERASED)  # their ids are gone: the draws can only be checked on the post
    return ArenaVerification(guild_id, season, record, verdict)
