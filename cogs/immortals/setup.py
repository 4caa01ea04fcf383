"""/setup immortals: the time an Immortal's War player has for each round's choice on a server, a section
of the platform's /setup group (cogs/shared/setup.py)."""

from __future__ import annotations

from cogs.immortals.duel import immortals_of
from cogs.shared.setup import ChoiceTimeKeys, choice_time_section

KEYS = ChoiceTimeKeys(
    description="cmd.setup.immortals.description",
    seconds="cmd.setup.immortals.opt.seconds.description",
    summary="immortals.setup.summary",
)
SETUP_SECTION = choice_time_section("immortals", lambda interaction: immortals_of(interaction).duels, KEYS)
