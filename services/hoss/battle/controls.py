"""What a ranked battle shows its player (`RankedService.view`, and `controls` for « Décider »: the hand,
the legal actions), and the controls kept from the unit that saved the battle.

« Décider » is the next click after a start or an answer, and its controls are the battle as that unit
saved it: the unit keeps them (`KeptControls.keep`), so the click reads nothing, where it read the battle,
its seats and its moves on the event loop (issue 39). Kept per battle until any save of it commits
(`MATCHES_TOPIC`, in every process: another one forgets it once the NOTIFY arrives) or a player's language
or erasure is announced (`LOCALE_TOPIC`: everything is forgotten); only when the unit's own commit is the
one save heard since it was queued (the cache's generation moved by exactly the saves the unit made), so
a kept view is never older than a save this process heard. Only the battle's player, reaching it from
where it was started, is answered from it, as `battles.owned` checks a read; an answer acts on the pause
the controls were drawn for and is refused if the battle moved on, kept or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.hoss import HossAction, HossView, Record
from services.hoss.battle import battle_log, battles
from services.hoss.battle.battles import PLAYER, BattleResult, BattleRow
from services.hoss.battle.view import NOTABLE_EVENTS, player_view
from services.infra.keyed_cache import KeyedCache
from services.infra.players import LOCALE_TOPIC
from services.shared.matches import MATCHES_TOPIC
from store.connection import Connection
from store.db import Database

KEPT_CONTROLS = 4096  # battles whose controls are kept; the oldest goes first beyond it


@dataclass(frozen=True)
class RoundView:
    round: int
    record: Record  # the engine's log record: events, and both sides after the round

    @property
    def sides(self) -> list[dict[str, Any]]:
        """Per seat: hand and pile counts, synergies, creatures (card, rank, PV, shield, statuses...)."""
        sides: list[dict[str, Any]] = self.record["sides"]
        return sides

    @property
    def notable(self) -> list[dict[str, Any]]:
        return [e for e in self.record["events"] if e["k"] in NOTABLE_EVENTS]


@dataclass(frozen=True)
class BattleView:
    battle_id: int
    rank: int
    status: str
    pause: int
    round: int
    deadline: datetime | None  # when the AI decides for the player
    snapshot: HossView  # ENGINE.view for the player: both sides, the hand, the legal actions
    legal: tuple[
        HossAction, ...
    ]  # the player's legal actions now, in the engine's order; empty when not asked
    new_rounds: tuple[RoundView, ...]  # the rounds played since the previous view
    ai_decided: tuple[int, ...]  # pauses where the deadline passed and the AI decided for the player
    result: BattleResult | None

    @property
    def hand(self) -> tuple[str, ...]:
        """The uids of the player's cards in hand (private: only the player's controls show them)."""
        return tuple(c.id for c in self.snapshot.seats[PLAYER].hand_cards or ())

    @property
    def cards(self) -> dict[str, str]:
        """Card ids by uid: both sides' creatures and the player's hand, to name what actions refer to."""
        cards: dict[str, str] = {}
        for seat in self.snapshot.seats:
            cards.update({c.uid: c.card for c in seat.creatures})
            cards.update({c.id: c.card for c in seat.hand_cards or ()})
        return cards


def view_of(row: BattleRow, new_rounds: tuple[RoundView, ...], ai_decided: tuple[int, ...]) -> BattleView:
    state = row.hoss_state
    snapshot = player_view(state)
    return BattleView(
        battle_id=row.id,
        rank=row.rank,
        status=row.status,
        pause=row.pause,
        round=row.round,
        deadline=row.deadline_at,
        snapshot=snapshot,
        legal=(snapshot.seats[PLAYER].legal or ()) if row.live else (),
        new_rounds=new_rounds,
        ai_decided=ai_decided,
        result=battles.result_of(row, state),
    )


def read_view(conn: Connection, row: BattleRow, new_rounds: tuple[RoundView, ...]) -> BattleView:
    """The battle for its player as a read finds it: the pauses the AI took come from its moves."""
    return view_of(
        row, new_rounds, tuple(battle_log.timeout_pauses(battle_log.decisions_of(conn, row.match_id)))
    )


@dataclass(frozen=True)
class _Kept:
    player_id: int
    guild_id: int | None
    view: BattleView


class KeptControls:
    def __init__(self, db: Database) -> None:
        self.cache: KeyedCache[_Kept] = KeyedCache(KEPT_CONTROLS)
        self._matches: dict[int, int] = {}  # battle number -> match id (what a save announces)
        db.subscribe_keys(MATCHES_TOPIC, self.cache.changed)
        db.subscribe_keys(LOCALE_TOPIC, lambda _player: self.cache.clear())

    @property
    def generation(self) -> int:
        """Read before queuing the unit that keeps controls (`keep`)."""
        return self.cache.generation

    def get(self, player_id: int, battle_id: int, guild: int | None) -> BattleView | None:
        match_id = self._matches.get(battle_id)
        kept = None if match_id is None else self.cache.get(match_id)
        if kept is None or kept.player_id != player_id or kept.guild_id != guild:
            return None
        return kept.view

    def keep(self, generation: int, saves: int, row: BattleRow, view: BattleView) -> None:
        """Keep a live battle's controls as the unit that committed `saves` saves of it left it, unless
        any other save was heard since `generation` was read."""
        if not row.live or self.cache.generation != generation + saves:
            return
        if len(self._matches) >= KEPT_CONTROLS:
            self._matches.clear()
        self._matches[row.id] = row.match_id
        self.cache.put(row.match_id, _Kept(row.player_id, row.guild_id, view), generation + saves)
