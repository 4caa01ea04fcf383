"""/tournoi's commands as services: who may do what, every option's bounds, the fee's guarded debit, the
secret seed (docs/tournaments.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable
from datetime import timedelta

import pytest

from engine.errors import DomainError
from services.infra import ledger
from services.infra.container import Services
from services.infra.messages import MessageSpec
from services.pillz.economy import PILLZ_GOLD
from store.connection import Connection
from tests.services.community.tournaments.conftest import (
    CHANNEL,
    GUILD,
    MANAGER,
    PLAYERS,
    advance,
    asked,
    create,
    ready_all,
    register,
    rows,
)
from tests.services.community.tournaments.render import said
from tests.services.conftest import check_conservation

ALICE, BOB = PLAYERS[0], PLAYERS[1]


async def refused(call: Awaitable[object]) -> str:
    with pytest.raises(DomainError) as caught:
        await call
    return caught.value.key


async def state(services: Services) -> tuple[object, ...]:
    def unit(conn: Connection) -> tuple[object, ...]:
        return tuple(
            tuple(tuple(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall())
            for table in ("tournaments", "tournament_entries", "wallets", "ledger", "jobs", "outbox")
        )

    return await services.db.read(unit)


async def test_only_the_servers_managers_create_and_cancel(services: Services) -> None:
    assert (
        await refused(services.tournaments.create(GUILD, CHANNEL, ALICE, manages=False, asked=asked(), key=1))
        == "tournaments.error.manager"
    )
    t = await create(services)
    assert (
        await refused(services.tournaments.cancel(GUILD, t.id, ALICE, manages=False))
        == "tournaments.error.manager"
    )
    other = await refused(services.tournaments.cancel(GUILD + 1, t.id, MANAGER, manages=True))
    assert other == "tournaments.error.not_found"  # a manager of another server reads it as unknown


OUT_OF_BOUNDS = (
    ({"max_players": 0}, "tournaments.error.players"),
    ({"max_players": 65}, "tournaments.error.players"),
    ({"closes": "01/01/2020 10:00"}, "tournaments.error.too_soon"),
    ({"closes": "2m"}, "tournaments.error.too_soon"),
    ({"closes": "40j"}, "tournaments.error.too_late"),
    ({"closes": "demain soir"}, "tournaments.error.when"),
    ({"round_hours": 2}, "tournaments.error.round_hours"),
    ({"fee": -1}, "tournaments.error.fee"),
    ({"fee": 10**9}, "tournaments.error.fee"),
    ({"format": "elimination", "rounds": 3}, "tournaments.error.rounds"),
    ({"rounds": 11}, "tournaments.error.rounds"),
    ({"game": "hoss"}, "tournaments.error.game"),
    ({"game": "choco"}, "tournaments.error.game"),
    ({"game": "nope"}, "tournaments.error.game"),
)


async def test_an_option_out_of_its_bounds_is_refused_and_changes_nothing(services: Services) -> None:
    for changes, key in OUT_OF_BOUNDS:
        before = await state(services)
        fields = dict(changes)
        game = str(fields.pop("game", "pillz"))
        call = services.tournaments.create(
            GUILD, CHANNEL, MANAGER, manages=True, asked=asked(game, **fields), key=2
        )
        assert await refused(call) == key, changes
        assert await state(services) == before, changes


async def test_the_registration_may_close_at_a_paris_date(services: Services) -> None:
    t = await create(services, closes="05/01/2026 20:00")  # the clock starts on 5 January 2026 at 12:00 UTC
    assert t.starts_at.isoformat() == "2026-01-05T19:00:00+00:00"


async def test_a_replayed_creation_makes_one_tournament_and_a_server_holds_five(services: Services) -> None:
    first = await services.tournaments.create(GUILD, CHANNEL, MANAGER, manages=True, asked=asked(), key=7)
    again = await services.tournaments.create(GUILD, CHANNEL, MANAGER, manages=True, asked=asked(), key=7)
    assert again.id == first.id
    for key in range(8, 12):
        await services.tournaments.create(GUILD, CHANNEL, MANAGER, manages=True, asked=asked(), key=key)
    sixth = services.tournaments.create(GUILD, CHANNEL, MANAGER, manages=True, asked=asked(), key=12)
    assert await refused(sixth) == "tournaments.error.too_many"


async def test_joining_pays_the_fee_once_and_leaving_refunds_it(services: Services) -> None:
    t = await create(services, fee=120)
    await services.tournaments.join(GUILD, t.id, ALICE, "Alice")
    assert (
        await refused(services.tournaments.join(GUILD, t.id, ALICE, "Alice")) == "tournaments.error.already"
    )
    gold = await services.db.read(lambda conn: ledger.balance(conn, ALICE, PILLZ_GOLD))
    assert gold == 300 - 120
    assert (await services.tournaments.get(t.id)).pot == 120
    await services.tournaments.leave(GUILD, t.id, ALICE)
    assert await services.db.read(lambda conn: ledger.balance(conn, ALICE, PILLZ_GOLD)) == 300
    assert (await services.tournaments.get(t.id)).pot == 0
    assert await refused(services.tournaments.leave(GUILD, t.id, ALICE)) == "tournaments.error.not_registered"
    await services.db.read(check_conservation)


async def test_a_fee_larger_than_the_wallet_is_refused_and_changes_nothing(services: Services) -> None:
    t = await create(services, fee=5000)
    await services.players.ensure(ALICE)
    before = await state(services)
    assert await refused(services.tournaments.join(GUILD, t.id, ALICE, "Alice")) == "error.insufficient_funds"
    assert await state(services) == before


async def test_an_unknown_or_another_servers_tournament_reads_as_unknown(services: Services) -> None:
    t = await create(services)
    assert (
        await refused(services.tournaments.join(GUILD + 1, t.id, ALICE, "A")) == "tournaments.error.not_found"
    )
    assert (
        await refused(services.tournaments.join(GUILD, t.id + 9, ALICE, "A")) == "tournaments.error.not_found"
    )
    assert await refused(services.tournaments.join(None, t.id, ALICE, "A")) == "tournaments.error.not_found"
    assert await refused(services.tournaments.show(GUILD + 1, t.id)) == "tournaments.error.not_found"


async def test_a_full_tournament_refuses_the_next_player(services: Services) -> None:
    t = await create(services, max_players=4)
    await register(services, t, 4)
    assert await refused(services.tournaments.join(GUILD, t.id, PLAYERS[4], "E")) == "tournaments.error.full"


async def test_a_dinocard_player_without_a_pack_cannot_join(services: Services) -> None:
    t = await create(services, "dinocard")
    assert (
        await refused(services.tournaments.join(GUILD, t.id, ALICE, "A"))
        == "dinocard.error.tournament.no_pack"
    )


async def test_after_the_start_nobody_joins_or_leaves(services: Services) -> None:
    t = await create(services)
    await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    assert await refused(services.tournaments.leave(GUILD, t.id, PLAYERS[0])) == "tournaments.error.started"
    assert (
        await refused(services.tournaments.join(GUILD, t.id, PLAYERS[9], "J")) == "tournaments.error.not_open"
    )


async def test_too_few_players_at_the_start_cancels_and_refunds(services: Services) -> None:
    t = await create(services, fee=50)
    await register(services, t, 3)
    await advance(services, timedelta(hours=1))
    assert (await services.tournaments.get(t.id)).status == "cancelled"
    refunds = await rows(
        services, "SELECT COUNT(*), SUM(delta) FROM ledger WHERE reason = 'tournament.refund'"
    )
    assert refunds == [(3, 150)]
    await services.db.read(check_conservation)


async def test_cancelling_a_running_tournament_refunds_and_ends_the_waiting_matches(
    services: Services,
) -> None:
    t = await create(services, fee=10)
    players = await register(services, t, 4)
    await advance(services, timedelta(hours=1))
    await ready_all(services, players[:1])  # one waits for an opponent
    t = await services.tournaments.cancel(GUILD, t.id, MANAGER, manages=True)
    assert (t.status, t.pot) == ("cancelled", 0)
    assert await rows(services, "SELECT DISTINCT status FROM matches WHERE kind = 'tournament'") == [
        ("expired",)
    ]
    assert await rows(services, "SELECT SUM(delta) FROM ledger WHERE reason = 'tournament.refund'") == [(40,)]
    assert (
        await refused(services.tournaments.cancel(GUILD, t.id, MANAGER, manages=True))
        == "tournaments.error.over"
    )
    await advance(services, timedelta(hours=2))  # its deadline was withdrawn: nothing more happens
    assert (await services.tournaments.get(t.id)).status == "cancelled"


async def test_the_seed_stays_secret_until_the_start_and_matches_its_commitment(services: Services) -> None:
    t = await create(services)
    await register(services, t, 4)
    shown = said(await services.tournaments.show(GUILD, t.id))
    assert t.commitment in shown
    assert t.seed not in shown
    posts = await rows(services, "SELECT payload FROM outbox")
    assert all(t.seed not in str(payload) for (payload,) in posts)
    await advance(services, timedelta(hours=1))
    assert t.seed in said(await services.tournaments.show(GUILD, t.id))
    assert hashlib.sha256(bytes.fromhex(t.seed)).hexdigest() == t.commitment


async def test_seeding_by_rating_puts_the_best_rated_first(services: Services) -> None:
    t = await create(services, seeding="rating")
    players = await register(services, t, 4)

    def rate(conn: Connection) -> None:
        for rating, player in zip((900, 1300, 1000, 1100), players, strict=True):
            conn.execute("UPDATE pillz_profiles SET rating = ? WHERE player_id = ?", (rating, player))

    await services.db.write(rate)
    await advance(services, timedelta(hours=1))
    ranks = await rows(services, "SELECT player_id FROM tournament_entries ORDER BY seed_rank")
    assert [p for (p,) in ranks] == [players[1], players[3], players[2], players[0]]


async def test_the_list_shows_the_servers_live_tournaments(services: Services) -> None:
    assert "Aucun tournoi" in said(await services.tournaments.show(GUILD, None))
    t = await create(services)
    listed = said(await services.tournaments.show(GUILD, None))
    assert f"N° {t.id}" in listed
    assert isinstance(await services.tournaments.show(GUILD, t.id), MessageSpec)
