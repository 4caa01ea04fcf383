"""/setup pillz: the time a Pillz player has for each choice on a server, a section of the platform's
/setup group (cogs/shared/setup.py)."""

from __future__ import annotations

from cogs.pillz.duel import pillz_of
from cogs.shared.setup import ChoiceTimeKeys, choice_time_section

KEYS = ChoiceTimeKeys(
    description="cmd.setup.pillz.description",
    seconds="cmd.setup.pillz.opt.seconds.description",
    summary="pillz.setup.summary",
)
SETUP_SECTION = choice_time_section("pillz", lambda interaction: pillz_of(interaction).duels, KEYS)
