"""A player's /profile is kept per process (services/infra/players.py `profiles`) and forgotten by every
write that changes one of its lines: a balance, a game's record or profile row, a reset, an erasure. Each
test keeps a profile, makes the change, and reads it again: every test compares a kept profile with a
fresh read (tests/conftest.py), and each change's own announcement is checked where another change of
the same unit (gold paid) would make the profile forgotten anyway."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from services import choco, pillz
from services.choco.leagues import record_result
from services.community.privacy import PrivacyService
from services.infra import ledger
from services.infra.games import GameRegistry, GameSpec, SummaryLine
from services.infra.messages import Number
from services.infra.players import PROFILE_TOPIC, PlayerService, Profile, ensure_player
from services.pillz.economy import CURRENCY as PILLZ_COINS
from services.pillz.economy import ensure_profile
from services.pillz.ladder import record_friend_result
from services.pillz.reset import reset as reset_pillz
from store.connection import Connection
from store.db import Database

GUILD = 500
GRANT = ledger.Movement("test.grant")


@pytest.fixture
def registry() -> GameRegistry:
    return GameRegistry((pillz.GAME, choco.GAME))


@pytest.fixture
def players(db: Database, clock: ManualClock, registry: GameRegistry) -> PlayerService:
    return PlayerService(db, clock, registry)


@pytest.fixture
def announced(db: Database) -> list[str | None]:
    """The players a commit announced under PROFILE_TOPIC, in order."""
    seen: list[str | None] = []
    db.subscribe_keys(PROFILE_TOPIC, seen.append)
    return seen


async def kept(players: PlayerService, player: int) -> Profile:
    """The player's profile, read and kept."""
    await players.profile(player, create=True)  # a new player's is made by a write, and not kept
    profile = await players.profile(player, create=False)
    assert profile is not None
    assert players.profiles.get(player) == profile
    return profile


async def lines(players: PlayerService, player: int, game: GameSpec) -> list[SummaryLine]:
    return dict((await kept(players, player)).summaries)[game.name_key]


async def coins(players: PlayerService, player: int) -> int:
    return dict((await kept(players, player)).wallets)[PILLZ_COINS.name_key]


async def test_a_kept_profile_costs_no_read(db: Database, players: PlayerService) -> None:
    players.check_kept_profiles = False  # the check's own fresh read would count
    await kept(players, 1)
    reads = db.reads
    for _ in range(5):
        await players.profile(1, create=False)
    assert db.reads == reads


async def test_a_credit_and_a_debit_show_on_a_kept_profile(
    db: Database, clock: ManualClock, players: PlayerService
) -> None:
    before = await coins(players, 1)
    await db.write(lambda conn: ledger.credit(conn, clock.now(), 1, PILLZ_COINS.code, 25, GRANT))
    assert await coins(players, 1) == before + 25
    await db.write(lambda conn: ledger.debit(conn, clock.now(), 1, PILLZ_COINS.code, 5, GRANT))
    assert await coins(players, 1) == before + 20


async def test_a_pillz_profile_and_its_record_show_on_a_kept_profile(
    db: Database,
    clock: ManualClock,
    players: PlayerService,
    announced: list[str | None],
    registry: GameRegistry,
) -> None:
    await db.write(lambda conn: ensure_player(conn, 2, clock.now(), registry))
    assert await lines(players, 1, pillz.GAME) == []
    await db.write(lambda conn: ensure_profile(conn, clock.now(), registry, 1))
    [line] = await lines(players, 1, pillz.GAME)
    assert (line.params["rating"], line.params["games"]) == (Number(1000), 0)
    assert announced == ["1"]
    await db.write(
        lambda conn: ensure_profile(conn, clock.now(), registry, 1)
    )  # already there: nothing to say
    assert announced == ["1"]
    await db.write(lambda conn: ensure_profile(conn, clock.now(), registry, 2))
    announced.clear()
    await db.write(lambda conn: record_friend_result(conn, clock.now(), registry, GUILD, 7, (1, 2), 0))
    [line] = await lines(players, 1, pillz.GAME)
    assert (line.params["games"], line.params["wins"]) == (1, 1)
    rating = line.params["rating"]
    assert isinstance(rating, Number)
    assert rating.value > 1000
    assert sorted(k for k in announced if k is not None) == ["1", "2"]


async def test_a_chocobataille_result_shows_on_a_kept_profile(
    db: Database, clock: ManualClock, players: PlayerService, announced: list[str | None]
) -> None:
    assert await lines(players, 3, choco.GAME) == []

    def unit(conn: Connection) -> None:
        record_result(conn, GUILD, 3, "bronze", "win", absence_forfeit=False, cards_lost=0)

    await db.write(unit)
    [wins] = await lines(players, 3, choco.GAME)
    assert wins.params["bronze"] == 1
    assert announced == ["3"]


async def test_a_reset_shows_on_a_kept_profile(
    db: Database,
    clock: ManualClock,
    players: PlayerService,
    announced: list[str | None],
    registry: GameRegistry,
) -> None:
    await db.write(lambda conn: ensure_profile(conn, clock.now(), registry, 4))
    assert await lines(players, 4, pillz.GAME) != []
    announced.clear()
    await db.write(lambda conn: reset_pillz(conn, clock.now(), 4))
    assert await lines(players, 4, pillz.GAME) == []
    assert announced == ["4"]  # the profile row's deletion itself, beside the coins taken back


async def test_an_erased_player_is_not_kept(
    db: Database, clock: ManualClock, players: PlayerService, registry: GameRegistry
) -> None:
    await kept(players, 5)
    assert await PrivacyService(db, clock, registry).erase(5)
    assert players.profiles.get(5) is None
    assert await players.profile(5, create=False) is None


async def test_the_cards_a_profile_shows_are_kept_until_a_copy_changes(
    players: PlayerService, db: Database, clock: ManualClock
) -> None:
    """The best cards of /profile's picture: read once, kept, forgotten when a copy of the player's is
    minted or given away (`ledger.CARDS_TOPIC`), and read again."""
    await players.profile(1, create=True)
    await players.profile(2, create=True)
    assert await players.owned_cards(1) == ()
    now = clock.now()
    copy = await db.write(lambda conn: ledger.mint_card(conn, now, 1, "choco", "merlin", GRANT))
    assert await players.owned_cards(1) == (("choco", "merlin"),)
    reads = db.reads
    assert await players.owned_cards(1) == (("choco", "merlin"),)
    assert db.reads == reads  # kept: no trip
    await db.write(lambda conn: ledger.transfer_card(conn, now, copy, 1, 2, GRANT))
    assert (await players.owned_cards(1), await players.owned_cards(2)) == ((), (("choco", "merlin"),))
