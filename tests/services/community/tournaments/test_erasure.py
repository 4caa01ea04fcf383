"""A player's erasure and the tournaments they are in (docs/privacy.md, "What erasure ends"): a
registration is withdrawn and refunded before the wallets are emptied, a waiting match refuses the
erasure, a running tournament plays on without them and pays them nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.errors import DomainError
from services.infra.container import Services
from tests.services.community.tournaments.conftest import advance, create, ready_all, register, rows
from tests.services.conftest import check_conservation


async def test_an_erased_registration_is_withdrawn_and_its_fee_refunded_first(services: Services) -> None:
    t = await create(services, fee=100)
    players = await register(services, t, 5)
    assert await services.privacy.erase(players[0])
    assert (await services.tournaments.get(t.id)).pot == 400
    entries = await rows(services, "SELECT player_id FROM tournament_entries ORDER BY player_id")
    assert [p for (p,) in entries] == players[1:]
    moves = await rows(
        services,
        "SELECT reason, delta FROM ledger WHERE player_id < 0 AND currency = 'pillz_gold' ORDER BY id",
    )
    assert moves[-3:] == [("tournament.fee", -100), ("tournament.refund", 100), ("privacy_erase", -300)]
    await services.db.read(check_conservation)


async def test_a_match_waiting_for_the_player_refuses_the_erasure(services: Services) -> None:
    t = await create(services)
    players = await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    with pytest.raises(DomainError, match=r"privacy\.error\.busy"):
        await services.privacy.erase(players[0])


async def test_a_player_erased_mid_tournament_is_no_longer_paired_and_paid_nothing(
    services: Services,
) -> None:
    t = await create(services, format="elimination", fee=100)
    await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    first = await rows(
        services, "SELECT first_id, second_id FROM tournament_tables WHERE round = 1 ORDER BY table_no"
    )
    here = [int(str(p)) for p in first[0]]
    await ready_all(services, here)  # the first table plays; the second waits for its deadline
    for _ in range(12):
        await advance(services, timedelta(minutes=3))
    decided = await rows(services, "SELECT winner_id FROM tournament_tables WHERE round = 1 AND table_no = 0")
    loser = next(p for p in here if p != decided[0][0])
    assert await services.privacy.erase(loser)
    await advance(services, timedelta(hours=1))  # the deadline: the round closes, the last one opens
    third = await rows(
        services,
        "SELECT first_id, second_id, winner_id, reason FROM tournament_tables WHERE round = 2 AND table_no = 1",
    )
    (a, b, winner, reason) = third[0]
    assert reason == "walkover"
    assert int(str(a)) < 0 or int(str(b)) < 0
    assert int(str(winner)) > 0
    for _ in range(2):
        await advance(services, timedelta(hours=1))
    t = await services.tournaments.get(t.id)
    assert t.status == "finished"
    places = await rows(
        services, "SELECT player_id, place, prize, status FROM tournament_entries ORDER BY place"
    )
    assert int(str(places[-1][0])) < 0  # the erased player, after every player still in
    assert places[-1][2:] == (None, "withdrawn")
    prizes = await rows(services, "SELECT player_id FROM ledger WHERE reason = 'tournament.prize'")
    assert all(int(str(p)) > 0 for (p,) in prizes)
    assert (
        sum(
            int(str(d))
            for (d,) in await rows(services, "SELECT delta FROM ledger WHERE reason = 'tournament.prize'")
        )
        == 400
    )
    await services.db.read(check_conservation)
