"""A finished HOSS battle as an option of the replay select: its number, opponent and result."""

from __future__ import annotations

from services.hoss.battle.history import PastBattle
from services.hoss.keys import RANK_NAME_KEYS
from services.infra.messages import Text

STATUS_KEYS = {
    "won": "hoss.replay.status.won",
    "lost": "hoss.replay.status.lost",
    "draw": "hoss.replay.status.draw",
}


def option_label(past: PastBattle) -> Text:
    against = Text("hoss.replay.arena") if past.arena else Text(RANK_NAME_KEYS[past.rank])
    return Text(
        "hoss.replay.option",
        {"battle": past.battle_id, "against": against, "status": Text(STATUS_KEYS[past.status])},
    )
