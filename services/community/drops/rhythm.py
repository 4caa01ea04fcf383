"""How often a server may have a drop, and the bound on what drops are worth (docs/drops.md).

A drop needs slash commands used in the server recently, a minimum gap since the server's last drop, and
room under two daily limits: a cap per server, and one drop a day for every `players_per_drop` players who
used a slash command there that Paris day. The second limit is what keeps drops small beside the daily
rewards whatever the server's size: the drops of a day are worth at most `players_per_drop` times less per
active player than one drop, so `value_per_active_player` bounds the expected value of drops per active
player per day, and `tests/services/community/drops/test_value.py` checks it against 25 % of each game's `/daily`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from typing import Literal

RhythmName = Literal["off", "rare", "normal", "frequent"]
OFF: RhythmName = "off"


@dataclass(frozen=True)
class Rhythm:
    gap: timedelta  # the least time between two drops of a server
    daily_cap: int  # drops a server may have in a Paris day
    players_per_drop: int  # a drop a day for every this many players active in the server that day


RHYTHMS: dict[RhythmName, Rhythm] = {
    "rare": Rhythm(timedelta(hours=2), 3, 8),
    "normal": Rhythm(timedelta(minutes=30), 6, 5),
    "frequent": Rhythm(timedelta(minutes=15), 12, 3),
}
RHYTHM_NAMES: tuple[RhythmName, ...] = (OFF, *RHYTHMS)

WINS_PER_DAY = 3  # drops one player may win in a Paris day, in every server together
ENTRY_WINDOW = timedelta(seconds=10)  # from the drop's appearance: every click within it enters
ACTIVE_WINDOW = timedelta(minutes=15)  # "recently": a slash command in the server within this time
# The next drop is armed this long after the activity that arms it (at random, so that it cannot be
# summoned by typing a command), and never before the gap since the last one has passed.
ARM_DELAY = (timedelta(minutes=1), timedelta(minutes=10))
# A close job that runs later than this after the window's end (the bot was down meanwhile) voids the
# drop: players could not click during the downtime, so nobody is drawn and nothing is paid.
LATE_CLOSE = timedelta(seconds=60)
DAILY_SHARE_BOUND = Fraction(1, 4)  # drops per active player and day, against one day of /daily


def allowed_today(rhythm: Rhythm, drops_today: int, active_players: int) -> bool:
    """Whether one more drop fits in the server's day: under the cap, and one drop for every
    `players_per_drop` active players (never rounded up: two players on a "frequent" server get none)."""
    return drops_today < rhythm.daily_cap and (drops_today + 1) * rhythm.players_per_drop <= active_players


def value_per_active_player(rhythm: Rhythm, drop_value: Fraction) -> Fraction:
    """The most the drops of one day are worth per player active that day, in expectation: at most one
    drop per `players_per_drop` of them, each worth `drop_value` on average."""
    return drop_value / rhythm.players_per_drop
