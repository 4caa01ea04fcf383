"""A server's drop settings (`/setup drops`): the rhythm, off until a manager turns it on, and the games
drops may come from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from core.clock import from_db, to_db
from core.errors import BadInput
from core.i18n import t
from core.message_guard import echo
from core.settings import SUPPORTED_LOCALES
from services.community.drops.rhythm import OFF, RHYTHM_NAMES, RHYTHMS, Rhythm, RhythmName
from services.infra.catalogs import fold
from services.infra.games import GameRegistry
from store.connection import Connection

ALL_GAMES = ""  # stored for "every game that has drops"
MAX_LISTED = 10  # unknown names quoted back in a refusal


@dataclass(frozen=True)
class DropSettings:
    guild_id: int
    rhythm: RhythmName = OFF
    games: tuple[str, ...] = ()  # the chosen game keys; () = every game that has drops
    last_active_at: datetime | None = None
    next_job: int | None = None

    @property
    def on(self) -> bool:
        return self.rhythm != OFF

    @property
    def pace(self) -> Rhythm:
        if self.rhythm == OFF:
            raise ValueError("drops are off on this server")
        return RHYTHMS[self.rhythm]

    def eligible(self, available: Iterable[str]) -> list[str]:
        """The games a drop may come from now: the chosen ones that have drops, in key order."""
        keys = sorted(set(available))
        return keys if not self.games else [key for key in keys if key in self.games]


def drop_games(registry: GameRegistry) -> list[str]:
    """The keys of the registered games that declare drops."""
    return [spec.key for spec in registry.all_games() if spec.drops is not None]


def read(conn: Connection, guild_id: int) -> DropSettings:
    row = conn.execute(
        "SELECT rhythm, games, last_active_at, next_job FROM drop_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return DropSettings(guild_id)
    rhythm = str(row[0])
    return DropSettings(
        guild_id,
        rhythm if rhythm in RHYTHM_NAMES else OFF,
        tuple(key for key in str(row[1]).split(",") if key),
        None if row[2] is None else from_db(str(row[2])),
        None if row[3] is None else int(row[3]),
    )


def write(
    conn: Connection, now: datetime, guild_id: int, rhythm: RhythmName, chosen: Sequence[str] | None
) -> None:
    """Save the rhythm, and the games when `chosen` is given (None keeps the games saved before)."""
    if rhythm not in RHYTHM_NAMES:
        raise ValueError(rhythm)
    conn.execute(
        "INSERT INTO drop_settings (guild_id, rhythm, games, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET rhythm = excluded.rhythm, updated_at = excluded.updated_at",
        (guild_id, rhythm, ALL_GAMES, to_db(now)),
    )
    if chosen is not None:
        conn.execute(
            "UPDATE drop_settings SET games = ? WHERE guild_id = ?", (",".join(sorted(chosen)), guild_id)
        )


ALL_WORDS = frozenset({"tous", "toutes", "tout", "all", "every", "*"})


def parse_games(registry: GameRegistry, typed: str, locale: str | None) -> tuple[str, ...]:
    """The games a manager typed, by name (in French or English, case and accents ignored), key or slash
    command group, separated by commas; « tous » (all) is every game. An unknown name is refused with the
    names that would do, and nothing is saved."""
    names = [part.strip() for part in typed.split(",") if part.strip()]
    if not names or any(fold(name) in ALL_WORDS for name in names):
        return ()
    known: dict[str, str] = {}
    for key in drop_games(registry):
        spec = registry.get(key)
        assert spec is not None
        for word in (key, spec.command_group, *(t(spec.name_key, lang) for lang in SUPPORTED_LOCALES)):
            known[fold(word)] = key
    unknown = [name for name in names if fold(name) not in known]
    if unknown:
        listed = [name[:50] for name in unknown[:MAX_LISTED]]
        raise BadInput(
            "drops.error.unknown_games",
            names=echo(", ".join(listed), 200),
            games=game_names(registry, locale),
        )
    return tuple(sorted({known[fold(name)] for name in names}))


def game_names(registry: GameRegistry, locale: str | None, keys: Iterable[str] | None = None) -> str:
    """The games' names in the reader's language, by key order ("every game" when `keys` is empty)."""
    chosen = drop_games(registry) if not keys else sorted(keys)
    names = [t(spec.name_key, locale) for key in chosen if (spec := registry.get(key)) is not None]
    return ", ".join(names)
