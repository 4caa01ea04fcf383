"""Settings come from the environment or `.env`; a bad one must stop start-up with one readable line, not a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SUPPORTED_LOCALES = ("fr", "en")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="Bot token from the Discord developer portal.")
    database_path: Path = Field(default=Path("var/bot.sqlite3"), description="SQLite database file.")
    database_url: str | None = Field(
        default=None,
        description="sqlite:///path or postgresql://user:password@host:port/name; wins over DATABASE_PATH.",
    )
    dev_guild_id: int | None = Field(default=None, description="Server where commands sync instantly.")
    owner_ids: Annotated[frozenset[int], NoDecode] = Field(
        default=frozenset(), description="Comma-separated Discord user ids allowed to run owner commands."
    )
    card_image_cache: Path = Field(
        default=Path("var/card-images"),
        description="Folder of the card images drawn once and kept (any size).",
    )
    default_locale: Literal["fr", "en"] = Field(default="fr", description="Language when none is known.")
    timezone: str = Field(default="Europe/Paris", description="Time zone of daily and weekly schedules.")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(default="INFO", description="Log level.")
    shard_count: int | None = Field(
        default=None, ge=1, description="Gateway shards of the whole bot; empty: one unsharded connection."
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="Comma-separated shards this process holds; empty: all of SHARD_COUNT."
    )

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()]
            return frozenset(int(p) for p in parts)
        if isinstance(value, int):
            return frozenset({value})
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _database_url(cls, value: object) -> object:
        if value == "":
            return None
        if isinstance(value, str) and not value.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise ValueError("must start with sqlite:/// or postgresql://")
        return value

    @field_validator("dev_guild_id", "shard_count", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shards(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()]
            try:
                return tuple(int(p) for p in parts) or None
            except ValueError:
                raise ValueError(f"expected shard numbers separated by commas, got {value!r}") from None
        if isinstance(value, int):
            return (value,)
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_of_the_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        """Checked here rather than left to discord.py, which would only fail once connecting (Discord closes
        an identify with a shard past the count with 4010): a typo must stop start-up with one line."""
        if value is None:
            return None
        if "shard_count" not in info.data:
            return value  # SHARD_COUNT itself is invalid: that is the error reported
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs SHARD_COUNT")
        if len(set(value)) != len(value):
            raise ValueError("a shard is listed twice")
        wrong = [shard for shard in value if not 0 <= shard < count]
        if wrong:
            raise ValueError(f"shard {wrong[0]} is not in 0..{count - 1} (SHARD_COUNT={count})")
        return tuple(sorted(value))

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @property
    def database(self) -> str:
        """The database to open, as a URL: DATABASE_URL, else the SQLite file DATABASE_PATH."""
        return self.database_url or f"sqlite:///{self.database_path}"

    @property
    def database_setting(self) -> str:
        """The setting a database problem is reported under."""
        return "DATABASE_URL" if self.database_url else "DATABASE_PATH"

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shards this process connects, or None for one unsharded connection (every server)."""
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    def holds(self, guild_id: int) -> bool:
        """Whether this process receives `guild_id`'s events: Discord's sharding formula."""
        shards = self.shards
        if shards is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in shards


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to (`(guild_id >> 22) % shard_count`, the gateway page)."""
    return (guild_id >> 22) % shard_count


class SettingsError(Exception):
    """Carries the one line shown to the person starting the bot."""


NO_TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Put it in a .env file (copy .env.example to .env and fill DISCORD_TOKEN=...) "
    "or export it in the environment. To try the bot without Discord, run: python bot.py --sandbox"
)


def load_settings(*, require_token: bool, env_file: str | None = ".env") -> Settings:
    try:
        settings = Settings(_env_file=env_file)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "settings"
        raise SettingsError(f"Invalid setting {name}: {first['msg']}.") from None
    if require_token and not settings.discord_token.strip():
        raise SettingsError(NO_TOKEN_HELP)
    return settings
