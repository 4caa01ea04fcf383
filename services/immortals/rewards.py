"""What a finished Immortal's War duel pays each player, applied exactly as the engine computes it
(`duel_result`: card XP, player XP, combat points, gold, soul fragments, the anti-farm halving).

The anti-farm rule needs each player's earlier opponents: `immortals_results` keeps one row per human
seat of every finished duel, in the order duels ended, with the opponent (0 for the AI); the engine
counts the unbroken run against the same opponent. Decisions (practice duels pay no combat points, a
player the AI stood in for on every round gains nothing): docs/immortals/economy.md.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime

from core.clock import to_db
from engine.immortals import DuelResult, ImmortalsCatalog, ImmortalsState, duel_result, level_of
from services.immortals.economy import FRAGMENTS, GOLD, ensure_profile
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import summary_changed
from store.connection import Connection

AI_PLAYER = 0  # the AI's player id in the engine and in `immortals_results.opponent_id`
HISTORY = 64  # earlier opponents read: the recap names the run's length up to this
REASON_GAINS = "immortals.reason.duel"


@dataclass(frozen=True)
class CardGain:
    copy_id: int
    card_id: str
    xp: int
    level_before: int
    level_after: int


@dataclass(frozen=True)
class Gains:
    """One seat's recap: what the engine computed, and what was applied."""

    seat: int
    player_id: int
    outcome: str
    cards: tuple[CardGain, ...]
    player_xp: int
    combat_points: int  # applied (0 in practice: the ranking counts duels between players only)
    gold: int
    fragments: int
    halvings: int  # how many times every gain was halved: 1 after a duel against the same opponent
    absent: bool = False  # the AI chose for this player every round: nothing applied
    consecutive: int = 0  # duels against the same opponent just before this one (a recap before: absent)

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, object]) -> Gains:
        cards = tuple(CardGain(**c) for c in data["cards"])  # type: ignore[attr-defined]
        return Gains(**{**data, "cards": cards})  # type: ignore[arg-type]


def previous_opponents(conn: Connection, player_id: int) -> list[int]:
    """The player's latest opponents, oldest first (what `consecutive_duels` reads)."""
    rows = conn.execute(
        "SELECT opponent_id FROM immortals_results WHERE player_id = ? ORDER BY id DESC LIMIT ?",
        (player_id, HISTORY),
    ).fetchall()
    return [int(r[0]) for r in reversed(rows)]


def _credit_xp(conn: Connection, copy_id: int, owner: int, xp: int) -> int | None:
    """Add XP to a copy the player still owns; its XP before, or None when the copy is gone."""
    owned = conn.execute("SELECT 1 FROM cards WHERE id = ? AND owner_id = ?", (copy_id, owner)).fetchone()
    if owned is None:
        return None
    row = conn.execute("SELECT xp FROM immortals_card_xp WHERE card_id = ?", (copy_id,)).fetchone()
    before = 0 if row is None else int(row[0])
    if xp > 0:
        conn.execute(
            "INSERT INTO immortals_card_xp (card_id, xp) VALUES (?, ?)"
            " ON CONFLICT (card_id) DO UPDATE SET xp = immortals_card_xp.xp + excluded.xp",
            (copy_id, xp),
        )
    return before


def apply_result(
    conn: Connection,
    now: datetime,
    registry: GameRegistry,
    catalog: ImmortalsCatalog,
    *,
    match_id: int,
    guild_id: int | None,
    seat: int,
    player_id: int,
    state: ImmortalsState,
    deck: list[int],
    practice: bool,
    absent: bool,
) -> Gains:
    """Compute the seat's gains with the engine and apply them once (the result row is unique per match
    and player: a second call returns what the first applied)."""
    stored = conn.execute(
        "SELECT gains FROM immortals_results WHERE match_id = ? AND player_id = ?", (match_id, player_id)
    ).fetchone()
    if stored is not None:
        return Gains.from_json(json.loads(stored[0]))
    ensure_profile(conn, now, registry, player_id)
    opponent = state.player_ids[1 - seat]
    result: DuelResult = duel_result(state, seat, previous_opponents(conn, player_id))
    gains = _apply(conn, now, catalog, result, match_id, player_id, deck, practice, absent)
    conn.execute(
        "INSERT INTO immortals_results (match_id, player_id, opponent_id, guild_id, outcome, gains, recorded_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (match_id, player_id, opponent, guild_id, result.result, json.dumps(gains.to_json()), to_db(now)),
    )
    return gains


def _apply(
    conn: Connection,
    now: datetime,
    catalog: ImmortalsCatalog,
    result: DuelResult,
    match_id: int,
    player_id: int,
    deck: list[int],
    practice: bool,
    absent: bool,
) -> Gains:
    if absent:
        return Gains(
            result.seat,
            player_id,
            result.result,
            (),
            0,
            0,
            0,
            0,
            result.halvings,
            absent=True,
            consecutive=result.consecutive,
        )
    cards: list[CardGain] = []
    for gain in result.cards:
        copy_id = deck[gain.deck_index]
        before = _credit_xp(conn, copy_id, player_id, gain.xp)
        if before is None:
            continue
        levels = (level_of(before, catalog.level_xp), level_of(before + gain.xp, catalog.level_xp))
        cards.append(CardGain(copy_id, gain.card_id, gain.xp, *levels))
    points = 0 if practice else result.combat_points
    conn.execute(
        "UPDATE immortals_profiles SET xp = xp + ?, combat_points = combat_points + ?, duels = duels + 1,"
        " wins = wins + ?, draws = draws + ?, losses = losses + ? WHERE player_id = ?",
        (
            result.player_xp,
            points,
            int(result.result == "win"),
            int(result.result == "draw"),
            int(result.result == "loss"),
            player_id,
        ),
    )
    summary_changed(conn, player_id)
    why = ledger.Movement(REASON_GAINS, ref=f"match:{match_id}")
    for currency, amount in ((GOLD, result.gold), (FRAGMENTS, result.fragments)):
        if amount > 0:
            ledger.credit(conn, now, player_id, currency, amount, why)
    return Gains(
        result.seat,
        player_id,
        result.result,
        tuple(cards),
        result.player_xp,
        points,
        result.gold,
        result.fragments,
        result.halvings,
        consecutive=result.consecutive,
    )
