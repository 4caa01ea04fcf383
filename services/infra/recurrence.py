"""When recurring jobs are due: pure period and wall-clock arithmetic, apart so DST rules are testable alone.

Every occurrence belongs to a *period* named by a stable key (a local date, or a UTC hour). The scheduler
stores one job row per (kind, period key), which is what makes a rerun or a restart unable to fire a
period twice. Daily and weekly times are wall-clock times in the scheduler's zone, so "20:00 in Paris"
stays 20:00 for players across daylight-saving changes:

- a wall time that does not exist (02:30 on the spring-forward day) is due at the first valid instant
  after the gap (03:00 local), not shifted by the gap's length;
- a wall time that happens twice (02:30 on the fall-back day) is due once, at its first reading (fold=0).

Hourly periods follow UTC hours instead: a local-hour series would have a 23-hour day with a missing
hour and a 25-hour day with a repeated one, and "hourly" should mean every 60 minutes, 24 times a day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

HOUR_KEY_FORMAT = "%Y-%m-%dT%HZ"  # e.g. "2026-03-29T01Z"


@dataclass(frozen=True)
class Occurrence:
    key: str  # the period's stable name, stored in jobs.period_key
    due: datetime  # aware UTC


class Recurrence(Protocol):
    def first_after(self, when: datetime, zone: ZoneInfo) -> Occurrence:
        """The earliest occurrence strictly after `when`."""
        ...

    def following(self, key: str, zone: ZoneInfo) -> Occurrence:
        """The occurrence of the period right after the one named `key`."""
        ...


def resolve_wall_time(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The UTC instant a wall-clock time happens on `day`, with the gap and fold rules of this module."""
    wall = datetime.combine(day, at, tzinfo=zone)  # fold=0: the first reading of an ambiguous time
    instant = wall.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) == wall.replace(tzinfo=None):
        return instant
    # In a gap, fold=0 and fold=1 map the wall time with the offsets before and after the transition, so the
    # transition lies between the two readings; bisect to the first instant that has the later offset.
    lo, hi = sorted((instant, wall.replace(fold=1).astimezone(UTC)))
    after = hi.astimezone(zone).utcoffset()
    while hi - lo > timedelta(seconds=1):
        mid = lo + timedelta(seconds=int((hi - lo).total_seconds()) // 2)
        if mid.astimezone(zone).utcoffset() == after:
            hi = mid
        else:
            lo = mid
    return hi


def _check_time(hour: int, minute: int) -> None:
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise ValueError(f"invalid time of day {hour}:{minute}")


@dataclass(frozen=True)
class Daily:
    """Every day at a wall-clock time; the period key is the local date, e.g. "2026-03-29"."""

    hour: int
    minute: int = 0

    def __post_init__(self) -> None:
        _check_time(self.hour, self.minute)

    def on(self, day: date, zone: ZoneInfo) -> Occurrence:
        return Occurrence(day.isoformat(), resolve_wall_time(day, time(self.hour, self.minute), zone))

    def first_after(self, when: datetime, zone: ZoneInfo) -> Occurrence:
        day = when.astimezone(zone).date() - timedelta(days=1)
        while (occurrence := self.on(day, zone)).due <= when:
            day += timedelta(days=1)
        return occurrence

    def following(self, key: str, zone: ZoneInfo) -> Occurrence:
        return self.on(date.fromisoformat(key) + timedelta(days=1), zone)


@dataclass(frozen=True)
class Weekly:
    """Every week on `weekday` (Monday 0 ... Sunday 6, as `date.weekday()`) at a wall-clock time.

    The period key is the local date of that occurrence, e.g. "2026-03-29" for Sunday 29 March.
    """

    weekday: int
    hour: int = 0
    minute: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.weekday <= 6:
            raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), got {self.weekday}")
        _check_time(self.hour, self.minute)

    def on(self, day: date, zone: ZoneInfo) -> Occurrence:
        if day.weekday() != self.weekday:
            raise ValueError(f"{day} is not weekday {self.weekday}")
        return Occurrence(day.isoformat(), resolve_wall_time(day, time(self.hour, self.minute), zone))

    def first_after(self, when: datetime, zone: ZoneInfo) -> Occurrence:
        day = when.astimezone(zone).date() - timedelta(days=7)
        day += timedelta(days=(self.weekday - day.weekday()) % 7)
        while (occurrence := self.on(day, zone)).due <= when:
            day += timedelta(days=7)
        return occurrence

    def following(self, key: str, zone: ZoneInfo) -> Occurrence:
        return self.on(date.fromisoformat(key) + timedelta(days=7), zone)


@dataclass(frozen=True)
class Hourly:
    """Every UTC hour at `minute`; the period key is the UTC hour, e.g. "2026-03-29T01Z"; no zone involved."""

    minute: int = 0

    def __post_init__(self) -> None:
        _check_time(0, self.minute)

    def on(self, hour: datetime) -> Occurrence:
        start = hour.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
        return Occurrence(start.strftime(HOUR_KEY_FORMAT), start + timedelta(minutes=self.minute))

    def first_after(self, when: datetime, zone: ZoneInfo) -> Occurrence:
        hour = when - timedelta(hours=1)
        while (occurrence := self.on(hour)).due <= when:
            hour += timedelta(hours=1)
        return occurrence

    def following(self, key: str, zone: ZoneInfo) -> Occurrence:
        start = datetime.strptime(key, HOUR_KEY_FORMAT).replace(tzinfo=UTC)
        return self.on(start + timedelta(hours=1))
