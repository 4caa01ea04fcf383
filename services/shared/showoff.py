"""« Montrer »: a pull of Or or better shown off in public by its owner, once per copy.

The game says which copies qualify (`GameSpec.show_off`: owned, visible, rare enough). One write unit
checks that for the clicking player, claims the copy's idempotency key (`showoff:<game>:<copy>`) and
enqueues the public post in the same unit: twenty clicks at once make one post, and a crash after the
commit still delivers it (the outbox). The post names the player (a mention, pinging nobody) and the
card, with the card's picture, composed when it is delivered in the server's language.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from core.clock import Clock
from core.errors import NotAllowed
from services.platform import games
from services.platform.messages import CardStrip, MessageSpec, StripCard, Target, Text
from services.platform.outbox import enqueue
from store.idempotency import once

SHOW_SCALE = 1.0  # the card at its full size: the point is to look at it


class ShowOffs:
    def __init__(self, db: Any, clock: Clock, catalogs: Mapping[str, Any]) -> None:
        self.db = db
        self.clock = clock
        self._catalogs = dict(catalogs)

    async def show(self, game: str, player_id: int, copy_id: int, channel_id: int) -> bool:
        """Post the copy in `channel_id`; True when this call posted it, False when it was already shown.
        A copy the player does not own (any more), cannot see or that is not rare enough is refused."""
        spec = games.get(game)
        reader = spec.show_off if spec is not None else None
        catalog = self._catalogs.get(game)
        if spec is None or reader is None or catalog is None:
            raise NotAllowed("showoff.error.not_eligible")
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> bool:
            shown = reader(conn, catalog, player_id, copy_id)
            card = catalog.card(shown.card_id) if shown is not None else None
            if shown is None or card is None:
                raise NotAllowed("showoff.error.not_eligible")
            copy = shown.copy
            message = MessageSpec(
                content=Text(
                    "showoff.post",
                    {
                        "player": f"<@{player_id}>",
                        "card": Text.per_locale({"fr": card.name.fr, "en": card.name.en}),
                        "rarity": shown.rarity,
                        "game": Text(spec.name_key),
                    },
                ),
                strips=(
                    CardStrip(
                        f"{game}-{shown.card_id}.png",
                        game,
                        (StripCard(shown.card_id, copy.rarity, copy.stars, copy.holo),),
                        SHOW_SCALE,
                    ),
                ),
            )
            _, fresh = once(
                conn,
                f"showoff:{game}:{copy_id}",
                now,
                lambda: enqueue(conn, now, Target("channel", channel_id), message),
            )
            return bool(fresh)

        result: bool = await self.db.write(unit)
        return result
