"""Immortal's War's lines of /cooldowns: the duels waiting for the player's choice, with their deadline
(services/shared/duel_timers.py). No reminder: a choice lasts 2 minutes unless the server's
`/setup immortals` changed it, and the duel's message already shows the deadline to the player."""

from __future__ import annotations

from services.immortals.duel_match import DUELS
from services.shared.duel_timers import DuelTimers

timers = DuelTimers(DUELS, "immortals.timer.duel", "immortals.timer.due")
