"""« Montrer »: a pull of Or or better shown off in public by its owner, once per copy.

The game says which copies qualify (`GameSpec.show_off`: owned, visible, rare enough). One write unit
checks that for the clicking player, claims the copy's idempotency key (`showoff:<game>:<copy>`) and
enqueues the public post in the same unit: twenty clicks at once make one post, and a crash after the
commit still delivers it (the outbox). The post names the player (a mention, pinging nobody) and the
card, with the card's picture, composed when it is delivered in the server's language.

Every game mints one `cards` row per pulled card, so the idempotency key is per pulled copy in every
game. Where copies are interchangeable (Chocobataille, Pillz, Dinocard: a collection counts them), the
player "still owns the card" when the copy came to them once and they own a copy of that card now:
which row a sale or a trade takes is not theirs to choose (`counted_show_off`). The buttons on a
purchase's reply are `show_off_buttons`, one per qualifying copy of that purchase.

The same unit keeps the pull in `showoff_log` (the server's weekly recap shows its rarest pulls) and
tells the server's players who wish for the card, by DM, once per card and day (docs/drops.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from core.errors import NotAllowed
from engine.cards import CardBase
from services.community.card_images.spec import CardArt
from services.community.wishlists.service import notify_shown
from services.infra.catalogs import CardRef
from services.infra.games import GameRegistry, ShownCopy, ShowOffReader
from services.infra.messages import Button, CardStrip, MessageSpec, StripCard, Target, Text
from services.infra.outbox import enqueue
from services.shared.collecting import owned_counts
from services.shared.shop import MintedCard
from store.connection import Connection
from store.idempotency import once

SHOW_SCALE = 1.0  # the card at its full size: the point is to look at it
MAX_BUTTONS = 25  # Discord's limit on a message's buttons (5 rows of 5); a purchase rarely pulls more

# A game's reading of « Or or better » on a catalog card: its rarity's name when the card qualifies,
# else None (docs/card-images.md lists each game's top tiers).
RareReader = Callable[[Any], Text | None]


def show_off_button(game: str, copy_id: int, card: CardBase) -> Button:
    """« Montrer : <card> », the button `ShowOffButton` (cogs/shared/cards.py) answers."""
    name = Text.per_locale({"fr": card.name.fr, "en": card.name.en})
    return Button(Text("showoff.button", {"card": name}), f"showoff:{game}:{copy_id}", "success")


def show_off_buttons(game: str, pulled: Iterable[MintedCard[Any]], rare: RareReader) -> tuple[Button, ...]:
    """One button per copy of a purchase that `rare` accepts, in the order they were pulled; whether the
    player still owns it is checked at the click."""
    shown = [show_off_button(game, m.copy_id, m.card) for m in pulled if rare(m.card) is not None]
    return tuple(shown[:MAX_BUTTONS])


def counted_show_off(game: str, rare: RareReader, art: CardArt) -> ShowOffReader:
    """The reader of a game whose copies are interchangeable: the copy was once the player's (a ledger row
    gave it to them: pulled, or received), they own a copy of its card now, and the card is rare enough.
    The picture is the card's default copy (its own rarity), as the game's `art` draws it."""

    def read(conn: Connection, catalog: Any, player_id: int, copy_id: int) -> ShownCopy | None:
        row = conn.execute(
            "SELECT c.card_key FROM cards c WHERE c.id = ? AND c.game = ? AND EXISTS"
            " (SELECT 1 FROM ledger l WHERE l.player_id = ? AND l.card_id = c.id AND l.delta = 1)",
            (copy_id, game, player_id),
        ).fetchone()
        card = catalog.card(str(row[0])) if row is not None else None
        rarity = rare(card) if card is not None else None
        if card is None or rarity is None or owned_counts(conn, player_id, game).get(card.id, 0) <= 0:
            return None
        return ShownCopy(card.id, art.default_copy(card), rarity)

    return read


class ShowOffs:
    def __init__(
        self, db: Any, clock: Clock, registry: GameRegistry, catalogs: Mapping[str, Any], zone: ZoneInfo
    ) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self._catalogs = dict(catalogs)
        self.zone = zone  # the Paris day of the wishlists' « once a day » (services/community/wishlists)

    async def show(
        self, game: str, player_id: int, copy_id: int, channel_id: int, guild_id: int | None
    ) -> bool:
        """Post the copy in `channel_id` (of the server `guild_id`); True when this call posted it, False
        when it was already shown.
        A copy the player does not own (any more), cannot see or that is not rare enough is refused."""
        spec = self.registry.get(game)
        reader = spec.show_off if spec is not None else None
        catalog = self._catalogs.get(game)
        if spec is None or reader is None or catalog is None:
            raise NotAllowed("showoff.error.not_eligible")
        now = self.clock.now()

        def unit(conn: Connection) -> bool:
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
                lambda: enqueue(conn, now, Target("channel", channel_id, guild_id=guild_id), message),
            )
            if fresh and guild_id is not None:
                self._shown(conn, now, guild_id, channel_id, player_id, game, card, shown)
            return bool(fresh)

        result: bool = await self.db.write(unit)
        return result

    def _shown(
        self,
        conn: Connection,
        now: datetime,
        guild_id: int,
        channel_id: int,
        player_id: int,
        game: str,
        card: CardBase,
        shown: ShownCopy,
    ) -> None:
        """Kept for the server's weekly recap (its rarest pulls), and told to the players of the server
        who wish for the card (services/community/wishlists/service.py)."""
        copy = shown.copy
        kept = {"copy": [copy.rarity, copy.stars, copy.holo], "rarity": shown.rarity.to_json()}
        conn.execute(
            "INSERT INTO showoff_log (guild_id, player_id, game, card_key, copy, shown_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, player_id, game, card.id, json.dumps(kept, sort_keys=True), to_db(now)),
        )
        ref = CardRef(game, card.id, card.name)
        notify_shown(
            conn, now, now.astimezone(self.zone).date(), guild_id, channel_id, player_id, ref, self.registry
        )
