"""A tournament's duel hides what its game hides (docs/tournaments.md, "The games' matches"): a Pillz duel
started by two « Prêt » is scanned move by move with the Pillz duel's own secrets (a pending bet, the cards
left in each deck, the seeds while live), and the tournament's seed reaches nobody before the start."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from discord_app.render import text
from sandbox.harness import BotHarness
from services.pillz.names import ability_text
from tests.e2e.conftest import run_harness
from tests.e2e.leak_scan import EVERYONE, LeakScan, Moment, Secret, check
from tests.e2e.pillz.helpers import PillzSecrets, pillz, play_duel
from tests.e2e.tournaments.scenes import created, joined, match_of, started
from tests.fixtures import postgres

pytestmark = pytest.mark.sweep


class DuelSecrets(PillzSecrets):
    """The Pillz duel's secrets, its line-up's abilities readable by all: an ability that names a number
    of pillz (« s'il perd, vous récupérez 2 pillz ») is no pending bet."""

    async def moment(self) -> Moment:
        secrets, allowed = await super().moment()
        duel = await pillz(self.h).duels.get(self.duel_id)
        assert duel.state is not None
        catalog = pillz(self.h).duels.catalog
        for fighter in (f for hand in duel.state.hands for f in hand):
            card = catalog.card(fighter.card_id)
            said = ability_text(card, "fr") if card is not None else None
            if said is not None:
                allowed[EVERYONE] |= {text(said, "fr").split(" : ", 1)[-1].replace("\u00a0", " ")}
        return secrets, allowed


@pytest.fixture
async def seeded(tmp_path: Path) -> AsyncIterator[BotHarness]:
    async for h in run_harness(BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",), seed=23)):
        yield h


async def test_a_tournament_duel_shows_no_pending_bet_deck_or_seed(seeded: BotHarness) -> None:
    h = seeded
    assert h.games_channel is not None
    scan = LeakScan(h.emu)
    tournament = await created(h, h.games_channel, "pillz", "elimination")
    users = await joined(h, h.games_channel, tournament)
    with postgres.connect(h.db_path) as conn:
        seed = str(conn.execute("SELECT seed FROM tournaments").fetchone()[0])
    scan.scan([Secret("the tournament's seed before its start", re.compile(seed))], {})
    await started(h)
    alice = users[0]
    duel_id, opponent_id = match_of(h, alice)
    opponent = next(u for u in users if u.id == opponent_id)
    for user in (alice, opponent):
        await h.emu.click(user, "Prêt", message=h.emu.dm_messages(user)[-1])
    await h.settle()
    tracker = DuelSecrets(h, duel_id, set(h.emu.world.users))
    await check(scan, tracker)
    await play_duel(h, scan, tracker, {alice.id: alice, opponent.id: opponent})
    assert tracker.bets_checked >= 1
    assert scan.findings == [], "\n" + scan.report()
