"""Challenges and the dojo at service level: daily games from the next day (Paris), the 5-level window,
a battle watched step by step to its settlement, XP for the challenger only, the offline owner told by
DM, an idempotent launch, the finishing job, dojo progress and a replay from the seed."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest

from core.clock import ManualClock, from_db
from core.errors import NotAllowed
from engine.dinocard import DinocardCatalog, xp_for_win
from services.dinocard import DinocardServices
from services.dinocard.economy import DINO_GOLD
from services.dinocard.packs import pack_by_id
from services.dinocard.results import MATCHES, WIN_COINS
from services.infra import ledger
from services.infra.scheduler import Job
from services.shared.collecting import DeckInvalid
from store.connection import Connection
from store.db import Database
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack

GUILD, CHANNEL = 900, 901


async def two_packs(dino: DinocardServices, catalog: DinocardCatalog) -> tuple[int, int]:
    mine = await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))
    return mine.pack.id, theirs.pack.id


async def launch(
    dino: DinocardServices, mine: int, theirs: int, key: str = "k1", bonus: tuple[str, ...] = ()
):
    return await dino.battles.launch(ALICE, mine, theirs, bonus, guild=GUILD, channel=CHANNEL, key=key)


async def watch_to_end(dino: DinocardServices, match_id: int) -> int:
    """« Suivant » until the end; how many clicks it took."""
    clicks = 0
    while True:
        match = await dino.battles.db.read(lambda conn: MATCHES.load_trusted(conn, match_id))
        if match.status != "live":
            return clicks
        await dino.battles.advance(match_id, ALICE, match.version, "step", guild=GUILD)
        clicks += 1


def dms(conn: Connection, player: int) -> list[str]:
    return [
        str(p)
        for (p,) in conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ?", (player,)
        ).fetchall()
    ]


async def test_a_new_pack_challenges_only_from_the_next_day_in_paris(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    clock.set(clock.now().replace(hour=22, minute=30))  # 23:30 in Paris, 1 December
    mine, theirs = await two_packs(dino, catalog)
    with pytest.raises(NotAllowed, match="new_pack"):
        await launch(dino, mine, theirs)
    clock.advance(timedelta(minutes=45))  # 00:15 in Paris on 2 December, still 1 December in UTC
    match = await launch(dino, mine, theirs)
    assert match.status == "live"


async def test_daily_challenges_are_counted_per_pack(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    await launch(dino, mine, theirs, "a")
    await launch(dino, mine, theirs, "b")
    with pytest.raises(NotAllowed, match="no_daily"):
        await launch(dino, mine, theirs, "c")
    clock.advance(timedelta(days=1))
    await launch(dino, mine, theirs, "d")


async def test_a_double_click_launches_one_battle(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    results = await asyncio.gather(*(launch(dino, mine, theirs, "same") for _ in range(10)))
    assert len({m.id for m in results}) == 1
    used = await db.read(lambda conn: conn.execute("SELECT SUM(used) FROM dinocard_launches").fetchone()[0])
    assert used == 1


async def test_the_five_level_window(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog
) -> None:
    _mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    await db.write(lambda conn: conn.execute("UPDATE dinocard_packs SET level = 7 WHERE id = ?", (theirs,)))
    with pytest.raises(NotAllowed, match="window"):
        await dino.battles.prepare(ALICE, "Feu", theirs, ())
    await db.write(lambda conn: conn.execute("UPDATE dinocard_packs SET level = 6 WHERE id = ?", (theirs,)))
    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert prep.opponent_level == 6
    assert prep.seen == {"size": 20}  # no Perception point: only the size


async def test_bonus_cards_need_the_skill_and_free_copies(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    _mine, theirs = await two_packs(dino, catalog)
    water = element_pack(catalog, "eau")[0]
    with pytest.raises(DeckInvalid) as refused:
        await dino.battles.prepare(ALICE, "Feu", theirs, (water,))
    assert [p.key for p in refused.value.problems] == ["dinocard.bonus.problem.too_many_bonus"]
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    prep = await dino.battles.prepare(ALICE, "Feu", theirs, (water,))
    assert prep.bonus == (water,)


async def test_a_challenge_watched_step_by_step_is_settled_at_its_last_step(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    assert match.state is not None
    steps = len(match.state.log)
    gold_before = await db.read(lambda conn: ledger.balance(conn, ALICE, DINO_GOLD))
    with pytest.raises(NotAllowed):  # the defender cannot drive the challenger's battle
        await dino.battles.advance(match.id, BOB, match.version, "step", guild=GUILD)
    assert await db.read(lambda conn: dms(conn, BOB)) == []  # nothing told before the end
    clicks = await watch_to_end(dino, match.id)
    assert clicks == steps
    over = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert over.status == "over"
    assert over.result is not None
    mine_after = await db.read(lambda conn: pack_by_id(conn, mine))
    theirs_after = await db.read(lambda conn: pack_by_id(conn, theirs))
    assert mine_after is not None
    assert theirs_after is not None
    assert (theirs_after.level, theirs_after.xp, theirs_after.wins, theirs_after.losses) == (1, 0, 0, 0)
    gold_after = await db.read(lambda conn: ledger.balance(conn, ALICE, DINO_GOLD))
    if over.result["winner"] == 0:
        assert mine_after.xp == xp_for_win(1, 1)
        assert gold_after == gold_before + WIN_COINS
        assert mine_after.wins == 1
    else:
        assert mine_after.xp == 0
        assert gold_after == gold_before
    told = await db.read(lambda conn: dms(conn, BOB))
    assert len(told) == 1
    assert "dinocard.notice.defence" in told[0]
    with pytest.raises(NotAllowed):
        await dino.battles.advance(match.id, ALICE, over.version, "step", guild=GUILD)


async def test_the_owner_who_turned_notices_off_gets_no_dm(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    await dino.battles.set_notify(BOB, False)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    await dino.battles.advance(match.id, ALICE, match.version + 0, "all", guild=GUILD)
    assert await db.read(lambda conn: dms(conn, BOB)) == []


async def test_nobody_watching_the_job_finishes_and_settles(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    fresh = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert fresh.deadline_job is not None
    job = Job(fresh.deadline_job, "dinocard:finish", clock.now(), {"match": match.id}, None, 0)
    await db.write(lambda conn: dino.battles.on_finish(conn, job, clock.now()))
    over = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert over.status == "over"
    edits = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM outbox WHERE edit_of = ? AND not_before IS NOT NULL", (over.message_item,)
        ).fetchone()[0]
    )
    assert edits >= 1
    assert len(await db.read(lambda conn: dms(conn, BOB))) == 1


async def test_the_dojo_opens_master_by_master_without_daily_games_or_xp(
    dino: DinocardServices, db: Database, catalog: DinocardCatalog
) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    with pytest.raises(NotAllowed, match="locked"):
        await dino.battles.dojo(ALICE, "Feu", catalog.masters[1].id, guild=GUILD, channel=CHANNEL, key="d0")
    match = await dino.battles.dojo(
        ALICE, "Feu", catalog.masters[0].id, guild=GUILD, channel=CHANNEL, key="d1"
    )
    assert match.seats == (ALICE, None)
    await dino.battles.advance(match.id, ALICE, match.version, "all", guild=GUILD)
    over = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert over.result is not None
    pack = await db.read(lambda conn: conn.execute("SELECT xp, wins FROM dinocard_packs").fetchone())
    assert tuple(pack) == (0, 0)
    beaten = await dino.battles.dojo_progress(ALICE)
    assert beaten == (1 if over.result["winner"] == 0 else 0)


async def test_a_finished_battle_replays_from_its_seed(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    assert match.number is not None
    with pytest.raises(NotAllowed, match="replay_live"):
        await dino.battles.replay(ALICE, match.number, guild=GUILD)
    await dino.battles.advance(match.id, ALICE, match.version, "all", guild=GUILD)
    replayed, spec = await dino.battles.replay(ALICE, match.number, guild=GUILD)
    assert replayed.id == match.id
    (log,) = spec.attachments
    assert f"seed: {replayed.seed}" in log.body("fr")
    assert json.dumps(spec.to_json())  # serialisable as the outbox stores it


async def test_the_owner_is_told_when_the_public_battle_reaches_its_end(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    """« Tout voir » shows the phases 5 s apart: the owner's DM leaves with the last one, not while the
    channel still watches the first phase (issue 35)."""
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    fresh = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert fresh.message_item is not None
    await dino.battles.advance(match.id, ALICE, fresh.version, "all", guild=GUILD)
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT target_kind, not_before FROM outbox WHERE edit_of = ? OR target_kind = 'dm' ORDER BY id",
            (fresh.message_item,),
        ).fetchall()
    )
    edits = [from_db(when) for kind, when in rows if kind == "channel"]
    (told,) = [from_db(when) for kind, when in rows if kind == "dm"]
    assert len(edits) >= 2
    assert told == max(edits) > clock.now()
