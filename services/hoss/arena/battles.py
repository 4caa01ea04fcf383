"""The battle of an Arena attack: started from both players' saved decks, abandoned, or played to its end
by the AI at the season's close. Steps of `ArenaService`'s write units (services/hoss/arena/seasons.py).

An attack's battle is an ordinary HOSS battle row (services/hoss/battle/battles.py): the attacker in seat 0 plays
live with the ranked battles' message, controls, 2-minute deadline and skip (`RankedService` drives it),
and the defender's saved defence deck sits in seat 1, played by the strong AI. Its end settles the attack
(services/hoss/arena/results.py). Decisions: docs/hoss/arena.md.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from core.errors import NotAllowed
from engine.hoss import (
    ENGINE,
    MAX_RANK,
    MOVE_PAUSES_OPTION,
    HossCatalog,
    Record,
    highest_unlocked_rank,
    new_battle,
)
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.hoss.arena import results as arena_results
from services.hoss.battle import battles
from services.hoss.battle import edits as battle_edits
from services.hoss.battle.battles import AI, PLAYER, Decision
from services.hoss.shop import rank_wins
from services.infra import scheduler
from store.connection import Connection

LOST = "lost"  # the status of an abandoned battle


def saved_decks(
    conn: Connection, guild_id: int, season: str, attacker: int, defender: int
) -> tuple[PlayerSetup, PlayerSetup]:
    """The attacker's saved attack deck (slot A) in seat 0 and the defender's saved defence deck (slot B)
    in seat 1, as last saved with the registration: « tes adversaires affrontent toujours les derniers
    decks que tu as enregistrés ». Edits of the deck slots since then are not played."""
    rows = {
        int(r[0]): (str(r[1]), str(r[2]))
        for r in conn.execute(
            "SELECT player_id, deck_a, deck_b FROM hoss_arena_entries WHERE guild_id = ? AND season = ?"
            " AND player_id IN (?, ?)",
            (guild_id, season, attacker, defender),
        )
    }
    attack = PlayerSetup(seat=0, player_id=attacker, deck=(), extra=json.loads(rows[attacker][0]))
    defence = PlayerSetup(seat=1, player_id=defender, deck=(), extra=json.loads(rows[defender][1]))
    return attack, defence


def start(
    conn: Connection,
    now: datetime,
    attack: tuple[int, int, str, int, int],
    *,
    seed: int,
    key: str,
    catalog: HossCatalog,
    number: int,
) -> int:
    """Start the battle of `attack` (id, guild, season, attacker, defender) at its first pause, as battle
    `number` (`battles.live_and_next`); returns its id. The battle's rank is the attacker's highest
    unlocked one (shown by replays only)."""
    attack_id, guild_id, season, attacker, defender = attack
    setups = saved_decks(conn, guild_id, season, attacker, defender)
    battle = new_battle(setups, seed, {CATALOG_OPTION: catalog, MOVE_PAUSES_OPTION: True}, log=True)

    def link(row: battles.BattleRow) -> None:
        linked = conn.execute(
            "UPDATE hoss_arena_attacks SET battle_id = ? WHERE id = ? AND battle_id IS NULL AND status = 'drawn'",
            (row.id, attack_id),
        ).rowcount
        if linked != 1:
            raise NotAllowed("hoss.arena.error.settled")

    row, _ = battles.begin(
        conn,
        now,
        player_id=attacker,
        rank=min(MAX_RANK, highest_unlocked_rank(rank_wins(conn, attacker))),
        key=f"arena:{key}",
        seed=seed,
        setups=setups,
        battle=battle,
        guild=guild_id,
        number=number,
        created=link,
    )
    return row.id


def forfeit(
    conn: Connection,
    now: datetime,
    player_id: int,
    battle_id: int,
    guild: int | None,
    catalog: HossCatalog,
    pace: timedelta,
) -> battles.BattleResult:
    """« Un combat abandonné compte comme une défaite »: the player's own live Arena battle, reached from
    its server, ends lost and its attack is settled as a `LOSS`; its message shows the result after the
    rounds still being shown."""
    row = battles.owned(conn, player_id, battle_id, guild)
    if not row.live:
        raise NotAllowed("hoss.error.ranked.over")
    if arena_results.tag_of(conn, row.id) is None:
        raise NotAllowed("hoss.arena.error.not_arena")
    if row.timeout_job is not None:
        scheduler.cancel(conn, row.timeout_job)
    reward = arena_results.settle_battle(conn, now, row.id, (), abandoned=True)
    assert reward is not None
    battles.end(conn, now, row.id, LOST, reward, int(reward["arena"]["attacker_gold"]))
    battle_edits.queue_now(conn, now, row.id, catalog, pace)
    ended = battles.load(conn, row.id)
    assert ended is not None
    result = battles.result_of(ended, ENGINE.from_json(ended.state))
    assert result is not None
    return result


def play_out(conn: Connection, now: datetime, battle_id: int, catalog: HossCatalog, pace: timedelta) -> None:
    """Play a live battle to its end, the AI deciding for the player at every pause as the 2-minute
    deadline does (recorded as 'timeout'), and settle it."""
    row = battles.load(conn, battle_id)
    assert row is not None
    assert row.live
    battle = battles.restore(row)
    decisions: list[Decision] = []
    records: list[Record] = []
    pause = row.pause
    while not battle.over:
        battles.answer_all(battle, PLAYER, AI, "timeout", pause, decisions)
        pause = battles.advance(battle, pause, decisions, records)
    saved = battles.step(conn, now, row, battle, decisions, records, pause)
    battle_edits.queue_edits(conn, now, saved, records, catalog, pace)


def finish_season(
    conn: Connection, now: datetime, guild_id: int, season: str, catalog: HossCatalog, pace: timedelta
) -> int:
    """Before the season's final ranking: every attack battle still live is played to its end and
    settled, so its points count and nothing of the season stays open. Returns how many."""
    live = [
        int(r[0])
        for r in conn.execute(
            "SELECT a.battle_id FROM hoss_arena_attacks a"
            " JOIN matches m ON m.game = 'hoss' AND m.number = a.battle_id"
            " WHERE a.guild_id = ? AND a.season = ? AND a.status = 'drawn' AND m.status = 'live' ORDER BY a.id",
            (guild_id, season),
        )
    ]
    for battle_id in live:
        play_out(conn, now, battle_id, catalog, pace)
    return len(live)
