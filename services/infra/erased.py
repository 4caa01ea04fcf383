"""Erased players (`/privacy delete`, docs/privacy.md): what the platform's code needs to know of them.

An erased player's rows that others share keep a fresh anonymous id, negative: Discord's ids are positive
snowflakes, so no user can ever have one, and a negative id is all it takes to know that a stored player
erased their data. Nothing may move to such an id (the store refuses it: migration `NNNN_erased_players`),
and a screen that names one shows "an anonymous player", not a mention of an unknown user.
"""

from __future__ import annotations

from core.errors import NotAllowed
from services.infra.messages import Text

ANONYMOUS = "privacy.anonymous"
# The verdict on a published draw (a raffle, an Arena season) that named a player who erased their data
# since: their id is gone from the bot's records, so the draw can only be checked on the post itself.
ERASED = "erased"


def is_erased(player_id: int) -> bool:
    return player_id < 0


def mention(player_id: int) -> Text:
    """A player as a screen names them: a mention (embeds never ping), or "an anonymous player"."""
    return Text(ANONYMOUS) if is_erased(player_id) else Text.raw(f"<@{player_id}>")


def refuse_erased(player_id: int) -> None:
    """Before anything is handed to `player_id`: refused, changing nothing, when they erased their data."""
    if is_erased(player_id):
        raise NotAllowed("privacy.error.erased")
