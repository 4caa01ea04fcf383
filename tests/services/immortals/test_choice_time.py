"""A server's time per choice (`/setup immortals`): bounded, stored per server, and the deadline every
round of a duel on that server is armed with; another server keeps the default 2 minutes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from core.errors import BadInput
from services.immortals import ImmortalsServices
from store.db import Database
from tests.services.immortals.conftest import deadline

GUILD, OTHER, CHANNEL = 500, 501, 600
ALICE, BOB = 11, 12


async def test_the_choice_time_is_bounded_and_stored_per_server(services: ImmortalsServices) -> None:
    assert await services.duels.choice_seconds(GUILD) == 120
    for wrong in (29, 3601, 0):
        with pytest.raises(BadInput, match=r"immortals\.error\.choice_time"):
            await services.duels.set_choice_time(GUILD, wrong)
    assert await services.duels.set_choice_time(GUILD, 45) == 45
    assert await services.duels.set_choice_time(GUILD, 300) == 300  # a second save updates the row
    assert await services.duels.choice_seconds(GUILD) == 300
    assert await services.duels.choice_seconds(OTHER) == 120


async def test_each_round_is_armed_with_the_servers_time(
    services: ImmortalsServices, db: Database, clock: ManualClock
) -> None:
    await services.duels.set_choice_time(GUILD, 45)
    duel = await services.duels.practice(GUILD, CHANNEL, ALICE, key="p1")
    assert await deadline(db, duel.id) == timedelta(seconds=45)
    assert duel.state is not None
    duel = await services.duels.choose(duel.id, ALICE, duel.state.round, 0, None, guild=GUILD)
    assert duel.state is not None
    if not duel.state.finished:  # the next choice's timeout, armed with the same time
        assert await deadline(db, duel.id) == timedelta(seconds=45)
    elsewhere = await services.duels.practice(OTHER, CHANNEL, BOB, key="p2")
    assert await deadline(db, elsewhere.id) == timedelta(minutes=2)
