"""The end of an Arena attack: points and gold from the rulebook's table, paid once, and what the battle's
result screen shows of it.

Below both the Arena's service (`arena.py`) and the battles (`battles.py`): a battle's end asks here
whether it decided an attack (`settle_battle`), in the unit that ends it, so an attack is settled exactly
once whoever ends its battle (the player, the 2-minute deadline, a skip, an abandonment, the season's
close). Decisions: docs/hoss/arena.md.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from core.clock import to_db
from core.errors import NotAllowed
from engine.hoss import ArenaResult, Settlement, settle
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.erased import is_erased
from store.connection import Connection

REASON_BATTLE = "hoss.arena.battle"  # ledger reason of both sides' gold (ref = the attack id)
ATTACKER_SEAT = 0  # the attacker plays seat 0 live; the defender's saved deck is seat 1, played by the AI
SETTLED = {ArenaResult.WIN: "won", ArenaResult.LOSS: "lost", ArenaResult.TIE: "tie"}


class AttackSettled(NotAllowed):
    key = "hoss.arena.error.settled"


@dataclass(frozen=True)
class ArenaTag:
    """What a battle's message needs to know of the attack it plays: whom it attacks."""

    attack_id: int
    defender: int


@dataclass(frozen=True)
class ArenaReward:
    """Both sides of a settled attack, for the result screen (none of it is secret: the points are public
    in the ranking, and defence gold is the rulebook's fixed table)."""

    result: str  # ArenaResult value, from the attacker's side
    abandoned: bool
    defender: int
    attacker_points: int  # after the battle
    attacker_change: int  # the points actually moved (nobody goes below 0)
    attacker_gold: int
    defender_points: int
    defender_change: int
    defender_gold: int

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ArenaReward:
        return ArenaReward(**dict(data))


def tag_of(conn: Connection, battle_id: int) -> ArenaTag | None:
    row = conn.execute(
        "SELECT id, defender_id FROM hoss_arena_attacks WHERE battle_id = ?", (battle_id,)
    ).fetchone()
    return None if row is None else ArenaTag(int(row[0]), int(row[1]))


def settle_attack(
    conn: Connection, now: datetime, attack_id: int, result: ArenaResult, battle_ref: str
) -> Settlement:
    """Points and gold of a finished attack, once: the attack's 'drawn' -> result transition is the
    guard (a second settlement raises `AttackSettled` and rolls its unit back)."""
    row = conn.execute(
        "SELECT guild_id, season, attacker_id, defender_id FROM hoss_arena_attacks WHERE id = ?",
        (attack_id,),
    ).fetchone()
    if row is None:
        raise ValueError(f"no arena attack {attack_id}")
    guild_id, season, attacker, defender = int(row[0]), str(row[1]), int(row[2]), int(row[3])
    moved = conn.execute(
        "UPDATE hoss_arena_attacks SET status = ?, battle_ref = ?, settled_at = ? WHERE id = ? AND status = 'drawn'",
        (SETTLED[result], battle_ref, to_db(now), attack_id),
    ).rowcount
    if moved != 1:
        raise AttackSettled()
    points = _points(conn, guild_id, season, attacker, defender)
    outcome = settle(points[0], points[1], result)
    why = ledger.Movement(REASON_BATTLE, ref=str(attack_id))
    for player, new_points, gold in (
        (attacker, outcome.attacker_points, outcome.attacker_gold),
        (defender, outcome.defender_points, outcome.defender_gold),
    ):
        if is_erased(player):
            continue  # a defender who erased their data since the draw: no entry any more, nothing paid
        conn.execute(
            "UPDATE hoss_arena_entries SET points = ?, reached_at = CASE WHEN points = ? THEN reached_at ELSE ? END"
            " WHERE guild_id = ? AND season = ? AND player_id = ?",
            (new_points, new_points, to_db(now), guild_id, season, player),
        )
        ledger.credit(conn, now, player, GOLD, gold, why)  # defence gold arrives offline too
    if result is ArenaResult.WIN:
        conn.execute(
            "UPDATE hoss_arena_entries SET attack_wins = attack_wins + 1"
            " WHERE guild_id = ? AND season = ? AND player_id = ?",
            (guild_id, season, attacker),
        )
    return outcome


def _points(conn: Connection, guild_id: int, season: str, attacker: int, defender: int) -> tuple[int, int]:
    found = dict(
        conn.execute(
            "SELECT player_id, points FROM hoss_arena_entries WHERE guild_id = ? AND season = ?"
            " AND player_id IN (?, ?)",
            (guild_id, season, attacker, defender),
        ).fetchall()
    )
    return int(found.get(attacker, 0)), int(found.get(defender, 0))


def result_of(winners: Collection[int], *, abandoned: bool = False) -> ArenaResult:
    """« Un combat abandonné compte comme une défaite »; a battle without a winner is a tie."""
    if abandoned:
        return ArenaResult.LOSS
    if ATTACKER_SEAT in winners:
        return ArenaResult.WIN
    return ArenaResult.LOSS if winners else ArenaResult.TIE


def settle_battle(
    conn: Connection,
    now: datetime,
    battle_id: int,
    winners: Collection[int],
    *,
    abandoned: bool = False,
) -> dict[str, Any] | None:
    """Settle the attack `battle_id` decided, inside the unit ending the battle; None when the battle is
    no attack (a ranked battle). Returns the battle's reward JSON: `{"arena": ArenaReward}`. Every
    Arena battle counts, however short (docs/hoss/arena.md)."""
    tag = tag_of(conn, battle_id)
    if tag is None:
        return None
    row = conn.execute(
        "SELECT guild_id, season, attacker_id FROM hoss_arena_attacks WHERE id = ?", (tag.attack_id,)
    ).fetchone()
    before = _points(conn, int(row[0]), str(row[1]), int(row[2]), tag.defender)
    result = result_of(winners, abandoned=abandoned)
    outcome = settle_attack(conn, now, tag.attack_id, result, str(battle_id))
    reward = ArenaReward(
        result=result.value,
        abandoned=abandoned,
        defender=tag.defender,
        attacker_points=outcome.attacker_points,
        attacker_change=outcome.attacker_points - before[0],
        attacker_gold=outcome.attacker_gold,
        defender_points=outcome.defender_points,
        defender_change=outcome.defender_points - before[1],
        defender_gold=outcome.defender_gold,
    )
    return {"arena": asdict(reward)}
