"""The ranked ladder (`/hoss rank`): each rank's record and what it pays. Apart from battle.py, which the
battle's edits import: the ladder is a result of the ranked service, which imports those edits."""

from __future__ import annotations

from functools import lru_cache

from core.i18n import format_int
from services.hoss.battle.ranked import Ladder, RankStatus
from services.hoss.render.collection import gold
from services.infra.messages import Embed, MessageSpec, Text, render_text


def ladder_spec(ladder: Ladder, locale: str) -> MessageSpec:
    """The ranked ladder: each rank's record, whether it may be played now and what a win and a loss pay."""
    lines = [Text.raw(rank_line(status, locale)) for status in ladder.ranks]
    if ladder.live_battle is not None:
        lines.append(Text("hoss.ladder.live", {"battle": ladder.live_battle}))
    return MessageSpec(embeds=(Embed(title=Text("hoss.ladder.title"), description=Text.lines(lines)),))


def rank_line(status: RankStatus, locale: str) -> str:
    """A rank's line, written once per language and record as it stands: a battle changes one rank's
    record, and `/hoss rang` wrote the nine lines again at each start (about half of its rendering on the
    event loop, issue 39)."""
    state = (
        "hoss.ladder.playable"
        if status.playable
        else ("hoss.ladder.closed" if status.unlocked else "hoss.ladder.locked")
    )
    return _line(
        status.name.key, status.wins, status.losses, state, status.win_gold, status.loss_gold, locale
    )


@lru_cache(maxsize=4096)
def _line(name: str, wins: int, losses: int, state: str, win: int, loss: int, locale: str) -> str:
    params = {
        "rank": Text(name),
        "wins": format_int(wins, locale),
        "losses": format_int(losses, locale),
        "state": Text(state),
        "win": gold(win, locale),
        "loss": gold(loss, locale),
    }
    return render_text(Text("hoss.ladder.line", params), locale)
