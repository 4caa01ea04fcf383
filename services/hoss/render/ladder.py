"""The ranked ladder (`/hoss rank`): each rank's record and what it pays. Apart from battle.py, which the
battle's edits import: the ladder is a result of the ranked service, which imports those edits."""

from __future__ import annotations

from core.i18n import format_int
from services.hoss.battle.ranked import Ladder
from services.hoss.render.collection import gold
from services.infra.messages import Embed, MessageSpec, Text


def ladder_spec(ladder: Ladder, locale: str) -> MessageSpec:
    """The ranked ladder: each rank's record, whether it may be played now and what a win and a loss pay."""
    lines = []
    for status in ladder.ranks:
        state = (
            "hoss.ladder.playable"
            if status.playable
            else ("hoss.ladder.closed" if status.unlocked else "hoss.ladder.locked")
        )
        params = {
            "rank": status.name,
            "wins": format_int(status.wins, locale),
            "losses": format_int(status.losses, locale),
            "state": Text(state),
            "win": gold(status.win_gold, locale),
            "loss": gold(status.loss_gold, locale),
        }
        lines.append(Text("hoss.ladder.line", params))
    if ladder.live_battle is not None:
        lines.append(Text("hoss.ladder.live", {"battle": ladder.live_battle}))
    return MessageSpec(embeds=(Embed(title=Text("hoss.ladder.title"), description=Text.lines(lines)),))
