"""Due times of recurring jobs, checked against UTC instants worked out by hand for Paris in 2026.

Paris is UTC+1 in winter and UTC+2 in summer; in 2026 it springs forward on 29 March (02:00 -> 03:00)
and falls back on 25 October (03:00 -> 02:00).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from services.infra.recurrence import Daily, Hourly, Weekly, resolve_wall_time

PARIS = ZoneInfo("Europe/Paris")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def series(rule: Daily | Weekly | Hourly, start: datetime, count: int) -> list[tuple[str, datetime]]:
    occurrence = rule.first_after(start, PARIS)
    found = [(occurrence.key, occurrence.due)]
    while len(found) < count:
        occurrence = rule.following(occurrence.key, PARIS)
        found.append((occurrence.key, occurrence.due))
    return found


def test_daily_evening_across_spring_forward() -> None:
    assert series(Daily(20, 0), utc(2026, 3, 27, 12), 4) == [
        ("2026-03-27", utc(2026, 3, 27, 19)),
        ("2026-03-28", utc(2026, 3, 28, 19)),
        ("2026-03-29", utc(2026, 3, 29, 18)),  # the day of the change is already summer time at 20:00
        ("2026-03-30", utc(2026, 3, 30, 18)),
    ]


def test_daily_evening_across_fall_back() -> None:
    assert series(Daily(20, 0), utc(2026, 10, 23, 12), 4) == [
        ("2026-10-23", utc(2026, 10, 23, 18)),
        ("2026-10-24", utc(2026, 10, 24, 18)),
        ("2026-10-25", utc(2026, 10, 25, 19)),
        ("2026-10-26", utc(2026, 10, 26, 19)),
    ]


def test_nonexistent_time_fires_when_the_gap_ends() -> None:
    # 02:30 does not exist on 29 March: due at 03:00 local (01:00 UTC), not 03:30.
    assert series(Daily(2, 30), utc(2026, 3, 27, 12), 4) == [
        ("2026-03-28", utc(2026, 3, 28, 1, 30)),
        ("2026-03-29", utc(2026, 3, 29, 1, 0)),
        ("2026-03-30", utc(2026, 3, 30, 0, 30)),
        ("2026-03-31", utc(2026, 3, 31, 0, 30)),
    ]
    assert utc(2026, 3, 29, 1).astimezone(PARIS).time() == time(3, 0)


def test_ambiguous_time_fires_once_at_its_first_reading() -> None:
    # 02:30 happens twice on 25 October (00:30 and 01:30 UTC): only the first counts, and only one period.
    assert series(Daily(2, 30), utc(2026, 10, 23, 12), 4) == [
        ("2026-10-24", utc(2026, 10, 24, 0, 30)),
        ("2026-10-25", utc(2026, 10, 25, 0, 30)),
        ("2026-10-26", utc(2026, 10, 26, 1, 30)),
        ("2026-10-27", utc(2026, 10, 27, 1, 30)),
    ]


def test_first_after_is_strictly_after() -> None:
    assert Daily(20).first_after(utc(2026, 3, 28, 19), PARIS).key == "2026-03-29"
    assert Daily(20).first_after(utc(2026, 3, 28, 18, 59, 59), PARIS).key == "2026-03-28"
    # Just after the first 02:30 of the fall-back day, the second 02:30 is not another occurrence.
    assert Daily(2, 30).first_after(utc(2026, 10, 25, 0, 31), PARIS).key == "2026-10-26"
    # Inside the spring gap, the occurrence is the gap's end.
    assert Daily(2, 30).first_after(utc(2026, 3, 29, 0, 45), PARIS).due == utc(2026, 3, 29, 1)


def test_weekly_sunday_midnight() -> None:
    assert series(Weekly(6, 0, 0), utc(2026, 3, 25, 12), 3) == [
        ("2026-03-29", utc(2026, 3, 28, 23)),  # Sunday 00:00 is still winter time on the change day
        ("2026-04-05", utc(2026, 4, 4, 22)),
        ("2026-04-12", utc(2026, 4, 11, 22)),
    ]
    assert series(Weekly(6), utc(2026, 10, 24, 12), 2) == [
        ("2026-10-25", utc(2026, 10, 24, 22)),
        ("2026-11-01", utc(2026, 10, 31, 23)),
    ]
    # Exactly at an occurrence, the next one is a week later.
    assert Weekly(6).first_after(utc(2026, 3, 28, 23), PARIS).key == "2026-04-05"


def test_hourly_follows_utc_hours_through_both_changes() -> None:
    for day in (date(2026, 3, 29), date(2026, 10, 25)):
        start = datetime.combine(day, time(0), tzinfo=UTC) - timedelta(seconds=1)
        found = series(Hourly(), start, 24)
        assert [due for _, due in found] == [datetime.combine(day, time(h), tzinfo=UTC) for h in range(24)]
        assert found[1][0] == f"{day.isoformat()}T01Z"
        assert len({key for key, _ in found}) == 24
    assert Hourly().first_after(utc(2026, 3, 29, 1, 0), PARIS).key == "2026-03-29T02Z"
    assert Hourly(15).first_after(utc(2026, 3, 29, 1, 0), PARIS).due == utc(2026, 3, 29, 1, 15)


def test_resolve_wall_time_in_another_zone_with_a_half_hour_shift() -> None:
    # Lord Howe Island moves by 30 minutes: 02:15 does not exist on 2026-10-04, the gap ends at 02:30 local.
    zone = ZoneInfo("Australia/Lord_Howe")
    instant = resolve_wall_time(date(2026, 10, 4), time(2, 15), zone)
    assert instant.astimezone(zone).replace(tzinfo=None) == datetime(2026, 10, 4, 2, 30)


@pytest.mark.parametrize("bad", [(24, 0), (-1, 0), (12, 60)])
def test_invalid_times_are_refused(bad: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="invalid time of day"):
        Daily(*bad)
    with pytest.raises(ValueError, match=r"weekday must be 0 \(Monday\) to 6 \(Sunday\)"):
        Weekly(7, 0, 0)
