"""What a game declares about the daily loop: its daily reward and the timers a player has in it.

A game fills two optional fields of its `GameSpec` (services/infra/games.py): `daily`, a
`DailyReward` (its currency and streak table: the platform claims, pays and reminds), and `timers`, a
function listing the player's timers in that game (a ticket that can be bought again, a turn to play
before a deadline). `/cooldowns` shows every line and the reminders service DMs a line's `remind` text
at its `remind_at`, so the platform never imports a game to learn either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from services.infra.messages import Text
from store.connection import Connection

STREAK_DAYS = 7  # a streak's bonus grows for a week, then stays
STREAK_STEP_PERCENT = 10  # +10 % of the base amount per consecutive day


def streak_table(
    base: int, *, step_percent: int = STREAK_STEP_PERCENT, days: int = STREAK_DAYS
) -> tuple[int, ...]:
    """The amounts of streak days 1..`days`: the base, then `step_percent` of it more per day (rounded
    down to whole units, so the table a player reads is the one paid)."""
    if base <= 0 or days < 1 or step_percent < 0:
        raise ValueError(f"invalid streak table: base {base}, {days} days, +{step_percent} %")
    return tuple(base * (100 + step_percent * day) // 100 for day in range(days))


@dataclass(frozen=True)
class DailyReward:
    """A game's daily reward: `amounts[n - 1]` on the n-th consecutive Paris day, the last one beyond."""

    currency: str  # a currency code the game declares (wallets.currency)
    amounts: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.amounts or any(a <= 0 for a in self.amounts):
            raise ValueError(f"a daily reward needs positive amounts, got {self.amounts}")

    def amount(self, streak: int) -> int:
        if streak < 1:
            raise ValueError(f"a streak counts from 1, got {streak}")
        return self.amounts[min(streak, len(self.amounts)) - 1]


@dataclass(frozen=True)
class Timer:
    """One line of `/cooldowns`, and possibly a reminder.

    `key` names this occurrence within its game (a reminder job stores it and, when it fires, sends its
    DM only if the game still lists a timer of that key with a reminder: a ticket bought or a turn played
    meanwhile withdraws it). `at` is when the timer ends or opens again (None: ready now)."""

    key: str
    label: Text
    status: Text
    at: datetime | None = None
    remind_at: datetime | None = None
    remind: Text | None = None  # the DM, sent at `remind_at` to a player who turned reminders on


@dataclass(frozen=True)
class TimerQuery:
    player_id: int
    now: datetime
    zone: ZoneInfo  # the scheduler's zone: Paris days and wall-clock times


# Reads only (it runs on the read connection for /cooldowns and inside a job's unit for reminders).
TimerSource = Callable[[Connection, TimerQuery], list[Timer]]


def relative(at: datetime) -> str:
    """A Discord timestamp each reader sees in their own time and language (« dans 3 heures »)."""
    return f"<t:{int(at.timestamp())}:R>"
