"""Pillz's lines of /cooldowns (the duels waiting for the player's choice) and their reminders
(services/shared/duel_timers.py)."""

from __future__ import annotations

from services.pillz.duel_match import CHOICE_TIME, DUELS
from services.shared.duel_timers import DuelTimers

timers = DuelTimers(
    DUELS, "pillz.timer.duel.label", "pillz.timer.duel.due", "pillz.timer.reminder", CHOICE_TIME
)
