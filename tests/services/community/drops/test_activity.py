"""The activity tracker: a slash command is written only for a player new to the server that Paris day, or
when a minute has passed since the server's last write; otherwise it costs no database trip."""

from __future__ import annotations

from datetime import datetime, timedelta

from services.community.drops.activity import TOUCH_EVERY, ActivityTracker
from tests.services.community.drops.conftest import PARIS

GUILD, OTHER = 1, 2
EVENING = datetime(2026, 3, 28, 23, 59, 30, tzinfo=PARIS)  # the eve of the spring change of hour


def test_a_player_is_written_once_a_day_and_the_server_once_a_minute() -> None:
    tracker = ActivityTracker(PARIS)
    now = EVENING - timedelta(hours=2)

    assert tracker.due(GUILD, 1, now) == now.date()
    assert tracker.due(GUILD, 1, now + timedelta(seconds=59)) is None
    assert tracker.due(GUILD, 2, now + timedelta(seconds=59)) == now.date()  # a new player of the day
    assert tracker.due(OTHER, 1, now + timedelta(seconds=59)) == now.date()  # another server
    assert tracker.due(GUILD, 1, now + timedelta(seconds=59) + TOUCH_EVERY) == now.date()  # a minute later


def test_paris_midnight_starts_a_new_day_for_every_player() -> None:
    tracker = ActivityTracker(PARIS)
    assert tracker.due(GUILD, 1, EVENING) == EVENING.date()
    assert tracker.due(GUILD, 1, EVENING + timedelta(seconds=20)) is None

    after_midnight = EVENING + timedelta(seconds=40)

    assert tracker.due(GUILD, 1, after_midnight) == after_midnight.astimezone(PARIS).date()
    assert after_midnight.astimezone(PARIS).date() > EVENING.date()
