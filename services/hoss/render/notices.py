"""A ranked milestone's notice (services/hoss/battle/notices.py) in words: what the player reached and
the gold it pays."""

from __future__ import annotations

from core.i18n import format_int
from services.hoss.battle.notices import Notice
from services.hoss.keys import RANK_NAME_KEYS
from services.infra.messages import Text


def notice_text(notice: Notice, locale: str) -> Text:
    """Built when shown, not stored with the notice, because its numbers are grouped as the reader's
    language writes them."""
    params = {
        "wins": format_int(notice.wins, locale),
        "rank": Text(RANK_NAME_KEYS[notice.rank]),
        "gold": format_int(notice.gold, locale),
    }
    return Text("hoss.ranked.notice.milestone", params)
