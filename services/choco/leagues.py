"""Chocobataille leagues: who may enter which, results, the leaderboards, badges, rewards, characters,
and each server's Chocobataille settings.

Entry (rulebook VI, with the per-server membership age): Bronze needs 24 Bronze copies of which 12
different cards and a member of the server for its `min_member_days` ("inscrit depuis 1 mois": the
community is the server, so the age counts from when Discord says the member joined it, not from their
first command to the bot, which would block a whole server for a month after installing the bot and
treat its veterans as newcomers); Argent a Bronze win
(any server) and one Argent card; Or an Argent win and one Or card. A league the player has already
played (a result row, any server) stays open: winning never closes a lower league (VI.4).
Results are per server, player and league (choco_results); the leaderboard sums a server's rows, the
badges and /profile sum every server's. The leaderboard scores wins minus absence forfeits (a voluntary
forfeit is a plain loss, an absence penalises: VI.4 and IV.4), then fewer cards lost first.
Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, Literal

from core.clock import Clock, from_db, to_db
from core.errors import BadInput
from engine.choco import ChocoCard, ChocoCatalog, FrogPool, draw_among
from services.choco.collection import owned_counts
from services.choco.economy import GAME_KEY, LEAGUE_KEYS, LEAGUES, REWARD_RARITIES, League, league_of
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry, SummaryLine
from services.infra.messages import Text
from services.infra.players import ensure_player, summary_changed
from services.shared.collecting import Problem
from services.shared.ladder import LEADERBOARD_SIZE, top
from store.connection import Connection
from store.db import Database

REASON_REWARD = "choco.reward"
BRONZE_COPIES = 24
BRONZE_DISTINCT = 12
CHARACTER_MAX = 64
FORBIDDEN_IN_NAMES = ("@", "<", ">", "\n", "\r")
MASTER_WINS = 2  # "Maître des Ligues": 2 wins in each league
CHAMPION_WINS = 5  # "Champion de la Ligue ...": 5 wins in that league
BADGE_KEYS = {
    "master": "choco.badge.master",
    "champion_bronze": "choco.badge.champion_bronze",
    "champion_argent": "choco.badge.champion_argent",
    "champion_or": "choco.badge.champion_or",
}
CARD_NEEDED_KEYS: Mapping[League, str] = {
    "bronze": "choco.league.problem.bronze_card",
    "argent": "choco.league.problem.argent_card",
    "or": "choco.league.problem.or_card",
}
COLOUR_OF: Mapping[str, str] = {
    "bronze_1": "bronze",
    "bronze_2": "bronze",
    "argent_1": "argent",
    "argent_2": "argent",
    "or_1": "or",
    "or_2": "or",
}

# --- per-server settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChocoSettings:
    """A server's Chocobataille settings; the defaults (no row) are the migration's."""

    referee_role_id: int | None = None
    min_member_days: int = 30
    reminder_hours: tuple[int, ...] = (12, 1)
    absence_cap_hours: int = 168
    forgive_downtime: bool = False


SETTING_FIELDS = frozenset(ChocoSettings.__dataclass_fields__)
MAX_REMINDERS = 4
MAX_REMINDER_HOURS = 72


def guild_choco_settings(conn: Connection, guild_id: int) -> ChocoSettings:
    row = conn.execute(
        "SELECT referee_role_id, min_member_days, reminder_hours, absence_cap_hours, forgive_downtime"
        " FROM choco_guild_settings WHERE guild_id = ?",
        (guild_id,),
    ).fetchone()
    if row is None:
        return ChocoSettings()
    role, days, hours, cap, forgive = row
    return ChocoSettings(
        None if role is None else int(role),
        int(days),
        tuple(int(h) for h in json.loads(hours)),
        int(cap),
        bool(forgive),
    )


def _checked_settings(current: ChocoSettings, fields: Mapping[str, Any]) -> ChocoSettings:
    """Values come from admins' options: each is checked with a message naming the setting."""
    unknown = sorted(set(fields) - SETTING_FIELDS)
    if unknown:
        raise BadInput("choco.error.settings.unknown", name=", ".join(unknown))
    values = {name: getattr(current, name) for name in SETTING_FIELDS}

    def integer(name: str, low: int, high: int) -> int:
        value = fields[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadInput("choco.error.settings.range", name=name, minimum=low, maximum=high)
        return value

    for name in fields:
        if name == "referee_role_id":
            role = fields[name]
            if role is not None and (isinstance(role, bool) or not isinstance(role, int) or role <= 0):
                raise BadInput("choco.error.settings.range", name=name, minimum=1, maximum=2**63 - 1)
            values[name] = role
        elif name == "min_member_days":
            values[name] = integer(name, 0, 365)
        elif name == "absence_cap_hours":
            values[name] = integer(name, 0, 2160)
        elif name == "forgive_downtime":
            if not isinstance(fields[name], bool):
                raise BadInput("choco.error.settings.boolean", name=name)
            values[name] = fields[name]
        elif name == "reminder_hours":
            hours = list(fields[name])
            if len(hours) > MAX_REMINDERS or any(
                isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= MAX_REMINDER_HOURS
                for h in hours
            ):
                raise BadInput(
                    "choco.error.settings.reminders", count=MAX_REMINDERS, maximum=MAX_REMINDER_HOURS
                )
            values[name] = tuple(sorted(set(hours), reverse=True))
    return ChocoSettings(**values)


# --- entry ----------------------------------------------------------------------------------------------


def wins_by_league(conn: Connection, player_id: int) -> dict[League, int]:
    """Wins per league over every server."""
    rows = conn.execute(
        "SELECT league, SUM(wins) FROM choco_results WHERE player_id = ? GROUP BY league", (player_id,)
    )
    found = {str(league): int(wins) for league, wins in rows}
    return {league: found.get(league, 0) for league in LEAGUES}


def _played(conn: Connection, player_id: int) -> set[str]:
    rows = conn.execute("SELECT DISTINCT league FROM choco_results WHERE player_id = ?", (player_id,))
    return {str(row[0]) for row in rows}


MEMBER_DAYS = "choco.league.problem.member_days"  # the reason "not a member of this server for long enough"


def _first_seen(conn: Connection, player_id: int, now: datetime) -> datetime:
    row = conn.execute("SELECT created_at FROM players WHERE id = ?", (player_id,)).fetchone()
    return now if row is None else from_db(row[0])


def leagues_open(
    conn: Connection,
    player_id: int,
    guild_id: int,
    now: datetime,
    cards: Mapping[str, ChocoCard] | None = None,
    *,
    joined_at: datetime | None = None,
) -> dict[League, list[Problem]]:
    """Per league, every reason the player may not enter it on this server; an empty list = may enter.

    `joined_at` is when the player joined this server (Discord's member join date, in every interaction
    in a server). A caller without the member at hand passes None: the membership age then counts from
    the player's first use of the bot, the only date the bot itself knows."""
    known = cards if cards is not None else default_cards()
    owned = owned_counts(conn, player_id)
    by_colour: dict[str, list[tuple[str, int]]] = {"bronze": [], "argent": [], "or": []}
    for card_id, count in owned.items():
        card = known.get(card_id)
        if card is not None and count > 0:
            by_colour[COLOUR_OF[card.rarity]].append((card_id, count))
    wins = wins_by_league(conn, player_id)
    played = _played(conn, player_id)
    result: dict[League, list[Problem]] = {league: [] for league in LEAGUES}

    bronze = result["bronze"]
    copies = sum(n for _, n in by_colour["bronze"])
    distinct = len(by_colour["bronze"])
    if copies < BRONZE_COPIES:
        bronze.append(
            Problem("choco.league.problem.bronze_copies", {"count": copies, "needed": BRONZE_COPIES})
        )
    if distinct < BRONZE_DISTINCT:
        bronze.append(
            Problem("choco.league.problem.bronze_distinct", {"count": distinct, "needed": BRONZE_DISTINCT})
        )
    needed_days = guild_choco_settings(conn, guild_id).min_member_days
    since = joined_at if joined_at is not None else _first_seen(conn, player_id, now)
    opens = since + timedelta(days=needed_days)
    if now < opens:
        opens_at = int(opens.timestamp())
        bronze.append(
            Problem(
                MEMBER_DAYS,
                {"needed": needed_days, "opens": f"<t:{opens_at}:R>", "date": f"<t:{opens_at}:f>"},
            )
        )

    steps: tuple[tuple[League, League], ...] = (("argent", "bronze"), ("or", "argent"))
    for league, below in steps:
        problems = result[league]
        if wins[below] < 1:
            problems.append(Problem("choco.league.problem.win_needed", {"league": Text(LEAGUE_KEYS[below])}))
        if not by_colour[league]:
            problems.append(Problem(CARD_NEEDED_KEYS[league]))
    for league in LEAGUES:
        if league in played:  # entered once: stays open (VI.4)
            result[league] = []
    return result


# --- results, badges, profile -------------------------------------------------------------------------

Outcome = Literal["win", "loss", "draw"]


def record_result(
    conn: Connection,
    guild_id: int,
    player_id: int,
    league: League | str,
    outcome: Outcome | str,
    *,
    absence_forfeit: bool,
    cards_lost: int,
) -> None:
    """Add one game's result for one player (call in the unit that ends the game). League and outcome
    are checked at run time too (a ValueError/BadInput for anything else), so stored strings may be passed."""
    if outcome not in ("win", "loss", "draw"):
        raise ValueError(f"unknown outcome {outcome!r}")
    if cards_lost < 0:
        raise ValueError("cards_lost cannot be negative")
    chosen = league_of(league)
    win, loss, draw = int(outcome == "win"), int(outcome == "loss"), int(outcome == "draw")
    conn.execute(
        "INSERT INTO choco_results"
        " (guild_id, player_id, league, wins, losses, draws, absence_forfeits, cards_lost)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_id, league) DO UPDATE SET"
        " wins = choco_results.wins + excluded.wins, losses = choco_results.losses + excluded.losses,"
        " draws = choco_results.draws + excluded.draws,"
        " absence_forfeits = choco_results.absence_forfeits + excluded.absence_forfeits,"
        " cards_lost = choco_results.cards_lost + excluded.cards_lost",
        (guild_id, player_id, chosen, win, loss, draw, int(absence_forfeit), cards_lost),
    )
    summary_changed(conn, player_id)


def badges(conn: Connection, player_id: int) -> list[str]:
    """The badge keys the player holds (rulebook VI.5), over every server, in a fixed order."""
    wins = wins_by_league(conn, player_id)
    held = []
    if all(wins[league] >= MASTER_WINS for league in LEAGUES):
        held.append(BADGE_KEYS["master"])
    champions = {
        "bronze": BADGE_KEYS["champion_bronze"],
        "argent": BADGE_KEYS["champion_argent"],
        "or": BADGE_KEYS["champion_or"],
    }
    held += [champions[league] for league in LEAGUES if wins[league] >= CHAMPION_WINS]
    return held


def profile_summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    """/profile: wins per league (once the player has a result) and each badge held."""
    if not _played(conn, player_id):
        return []
    wins = wins_by_league(conn, player_id)
    lines = [
        SummaryLine(
            "choco.profile.wins", {"bronze": wins["bronze"], "argent": wins["argent"], "or": wins["or"]}
        )
    ]
    lines += [SummaryLine("choco.profile.badge", {"badge": Text(key)}) for key in badges(conn, player_id)]
    return lines


# --- rewards ----------------------------------------------------------------------------------------------


@cache
def _default_catalog() -> ChocoCatalog:
    return load_catalog(DATA_DIR / f"{GAME_KEY}.json", ChocoCatalog)


def default_cards() -> Mapping[str, ChocoCard]:
    """The shipped catalog, for the module-level rules called without one (loaded once)."""
    return {c.id: c for c in _default_catalog().cards}


def reward_card(
    conn: Connection,
    now: datetime,
    player_id: int,
    league: League | str,
    rng: random.Random,
    ref: str,
    *,
    catalog: ChocoCatalog | None = None,
) -> tuple[int, str]:
    """Mint the win's card: one card of the league's colour, uniformly (VI.1-3); returns (cards.id, id)."""
    pool = FrogPool.of(catalog if catalog is not None else _default_catalog())
    card = draw_among(pool, rng, REWARD_RARITIES[league_of(league)])
    copy_id = ledger.mint_card(conn, now, player_id, GAME_KEY, card, ledger.Movement(REASON_REWARD, ref=ref))
    return copy_id, card


# --- leaderboard and characters ------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    rank: int  # 1-based position on its board
    player_id: int
    wins: int
    absence_forfeits: int
    cards_lost: int
    character: str | None  # the player's character name on this server (always set on the inRP board)

    @property
    def score(self) -> int:
        return self.wins - self.absence_forfeits


@dataclass(frozen=True)
class Leaderboard:
    hrp: tuple[Standing, ...]  # every player with a result on this server
    inrp: tuple[Standing, ...]  # those with a character name, shown by it
    players: int  # rows on the hRP board before the cut
    characters: int  # rows on the inRP board before the cut


def standings(conn: Connection, guild_id: int) -> list[Standing]:
    """Every player with a result on the server, best first: score, fewer cards lost, player id."""
    rows = conn.execute(
        "SELECT r.player_id, SUM(r.wins), SUM(r.absence_forfeits), SUM(r.cards_lost), MAX(c.name)"
        " FROM choco_results r LEFT JOIN choco_characters c"
        " ON c.guild_id = r.guild_id AND c.player_id = r.player_id"
        " WHERE r.guild_id = ? GROUP BY r.player_id",
        (guild_id,),
    ).fetchall()
    ordered = sorted(rows, key=lambda r: (-(int(r[1]) - int(r[2])), int(r[3]), int(r[0])))
    return [
        Standing(i, int(p), int(w), int(a), int(lost), name)
        for i, (p, w, a, lost, name) in enumerate(ordered, start=1)
    ]


def clean_character(name: str) -> str:
    """A character name as stored: trimmed, 1 to 64 characters, no mention syntax and no line break."""
    if any(mark in name for mark in FORBIDDEN_IN_NAMES):
        raise BadInput("choco.error.character.forbidden")
    clean = name.strip()
    if not 1 <= len(clean) <= CHARACTER_MAX:
        raise BadInput("choco.error.character.length", maximum=CHARACTER_MAX)
    return clean


class LeagueService:
    """Leagues, results, leaderboards, characters and server settings, for the cogs."""

    def __init__(self, db: Database, clock: Clock, catalog: ChocoCatalog, *, registry: GameRegistry) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.cards: Mapping[str, ChocoCard] = {c.id: c for c in catalog.cards}

    async def open_leagues(
        self, player_id: int, guild_id: int, joined_at: datetime | None = None
    ) -> dict[League, list[Problem]]:
        """`joined_at`: when the player joined this server (see `leagues_open`)."""
        now = self.clock.now()

        def unit(conn: Connection) -> dict[League, list[Problem]]:
            ensure_player(conn, player_id, now, self.registry)
            return leagues_open(conn, player_id, guild_id, now, self.cards, joined_at=joined_at)

        return await self.db.write(unit)

    async def leaderboard(self, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
        def unit(conn: Connection) -> Leaderboard:
            board = standings(conn, guild_id)
            named = [s for s in board if s.character is not None]
            inrp = [
                Standing(i, s.player_id, s.wins, s.absence_forfeits, s.cards_lost, s.character)
                for i, s in enumerate(named, start=1)
            ]
            (hrp, players), (shown, characters) = top(board, limit), top(inrp, limit)
            return Leaderboard(hrp, shown, players, characters)

        return await self.db.read(unit)

    async def character(self, guild_id: int, player_id: int) -> str | None:
        def unit(conn: Connection) -> str | None:
            row = conn.execute(
                "SELECT name FROM choco_characters WHERE guild_id = ? AND player_id = ?",
                (guild_id, player_id),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self.db.read(unit)

    async def set_character(self, guild_id: int, player_id: int, name: str | None) -> str | None:
        """Set (or, with None, clear) the player's character name on this server; returns what is stored."""
        clean = None if name is None else clean_character(name)
        now = self.clock.now()

        def unit(conn: Connection) -> str | None:
            ensure_player(conn, player_id, now, self.registry)
            if clean is None:
                conn.execute(
                    "DELETE FROM choco_characters WHERE guild_id = ? AND player_id = ?", (guild_id, player_id)
                )
                return None
            conn.execute(
                "INSERT INTO choco_characters (guild_id, player_id, name, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, player_id) DO UPDATE SET name = excluded.name,"
                " updated_at = excluded.updated_at",
                (guild_id, player_id, clean, to_db(now)),
            )
            return clean

        return await self.db.write(unit)

    async def settings(self, guild_id: int) -> ChocoSettings:
        return await self.db.read(lambda conn: guild_choco_settings(conn, guild_id))

    async def update_settings(self, guild_id: int, **fields: Any) -> ChocoSettings:
        """Change some settings of a server, the others kept; a bad value raises `BadInput`, nothing changes."""
        now = self.clock.now()

        def unit(conn: Connection) -> ChocoSettings:
            new = _checked_settings(guild_choco_settings(conn, guild_id), fields)
            conn.execute(
                "INSERT INTO choco_guild_settings (guild_id, referee_role_id, min_member_days, reminder_hours,"
                " absence_cap_hours, forgive_downtime, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET referee_role_id = excluded.referee_role_id,"
                " min_member_days = excluded.min_member_days, reminder_hours = excluded.reminder_hours,"
                " absence_cap_hours = excluded.absence_cap_hours,"
                " forgive_downtime = excluded.forgive_downtime, updated_at = excluded.updated_at",
                (
                    guild_id,
                    new.referee_role_id,
                    new.min_member_days,
                    json.dumps(list(new.reminder_hours)),
                    new.absence_cap_hours,
                    int(new.forgive_downtime),
                    to_db(now),
                ),
            )
            return new

        return await self.db.write(unit)
