"""The ranked ladder's lines are written once per language and record (services/hoss/render/ladder.py,
issue 39): a ladder asked again after one battle writes only the line of the rank that battle changed,
and every line reads as the ladder's line key says it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.i18n import format_int
from engine.hoss import RANKS
from services.hoss.battle.ranked import Ladder, RankStatus
from services.hoss.keys import RANK_NAME_KEYS
from services.hoss.render import ladder as render_ladder
from services.hoss.render.collection import gold
from services.infra.messages import Text, render_text


def a_ladder(wins: int) -> Ladder:
    ranks = tuple(
        RankStatus(
            s.rank,
            Text(RANK_NAME_KEYS[s.rank]),
            wins if s.rank == 1 else 0,
            2,
            s.rank <= 2,
            s.rank == 1,
            s.win_gold,
            s.loss_gold,
        )
        for s in RANKS
    )
    return Ladder(ranks, 2, (1,), None, ())


def line_as_written(status: RankStatus, locale: str) -> str:
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
    return render_text(Text("hoss.ladder.line", params), locale)


def test_a_ladder_asked_again_writes_only_the_changed_ranks_line(monkeypatch: pytest.MonkeyPatch) -> None:
    render_ladder._line.cache_clear()
    written: list[str] = []
    render = render_text

    def counted(value: Text | None, locale: str | None) -> str:
        if value is not None and value.key == "hoss.ladder.line":
            written.append(str(locale))
        return render(value, locale)

    monkeypatch.setattr(render_ladder, "render_text", counted)
    first = a_ladder(wins=4)
    render_text(render_ladder.ladder_spec(first, "fr").embeds[0].description, "fr")
    assert written == ["fr"] * len(RANKS)
    written.clear()
    after = a_ladder(wins=5)  # one more win at Rang 1
    shown = render_text(render_ladder.ladder_spec(after, "fr").embeds[0].description, "fr")
    assert written == ["fr"]
    for locale in ("fr", "en"):
        lines = render_text(render_ladder.ladder_spec(after, locale).embeds[0].description, locale)
        assert lines.split("\n") == [line_as_written(s, locale) for s in after.ranks]
    assert "5" in shown.split("\n")[0]
    assert replace(after.ranks[0], wins=4) == first.ranks[0]
