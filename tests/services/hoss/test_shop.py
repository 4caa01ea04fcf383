"""Boosters: the rulebook's odds (exact, and measured over 200,000 cards), tier tables and prices, the
purchase as one idempotent unit, the opening order, flipping and selling on the spot."""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import partial

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, InsufficientFunds, NotAllowed, NotFound
from engine.hoss import boosters
from engine.hoss.boosters import BoosterPool, DrawnCard, draw_booster, draw_rarity, opening_order
from engine.hoss.catalog import RARITIES, CreatureCard, HossCatalog
from engine.hoss.economy import booster_price, highest_unlocked_rank, odds_table, race_booster_unlocked
from services.hoss.sale import SaleResult
from services.hoss.shop import HossShop, Opening
from services.infra.games import GameRegistry, money
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import assert_localized, gold, new_player, set_wins, snapshot

Conservation = Callable[[Connection], None]

# --- pure: odds, tiers, prices --------------------------------------------------------------------------


def test_rarity_odds_are_the_rulebooks() -> None:
    odds = boosters.rarity_odds()
    assert sum(odds.values()) == 1
    at_least = {r: sum(odds[x] for x in RARITIES[i:]) for i, r in enumerate(RARITIES)}
    assert at_least == {
        "basique": 1,
        "argent": Fraction(1, 10),
        "or": Fraction(1, 100),
        "platine": Fraction(1, 800),
        "diamant": Fraction(1, 6500),
        "divin": Fraction(1, 25000),
    }
    assert odds["or"] == Fraction(1, 100) - Fraction(1, 800)
    assert odds_table().holo == Fraction(1, 50000)


@pytest.mark.parametrize(
    ("u", "rarity"),
    [
        (0, "divin"),
        (51, "divin"),  # 52 / 1,300,000 = 1 / 25,000
        (52, "diamant"),
        (199, "diamant"),  # 200 / 1,300,000 = 1 / 6,500
        (200, "platine"),
        (1624, "platine"),  # 1,625 / 1,300,000 = 1 / 800
        (1625, "or"),
        (12999, "or"),
        (13000, "argent"),
        (129999, "argent"),
        (130000, "basique"),
        (1299999, "basique"),
    ],
)
def test_rarity_thresholds_are_exact(u: int, rarity: str) -> None:
    rng = random.Random()
    rng.randrange = lambda *_: u  # type: ignore[method-assign]  # a draw exactly on the threshold
    assert draw_rarity(rng) == rarity


def test_rank_tables_grow_with_the_tier() -> None:
    assert boosters.rank_odds(1) == {1: 1, 2: 0, 3: 0}
    assert boosters.rank_odds(9) == {1: Fraction(3, 4), 2: Fraction(1, 5), 3: Fraction(1, 20)}
    table = odds_table()
    assert [t.tier for t in table.tiers] == list(range(1, 10))
    for lower, higher in zip(table.tiers, table.tiers[1:], strict=False):
        assert sum(lower.ranks) == 1
        assert higher.ranks[1] > lower.ranks[1]
        assert higher.ranks[2] > lower.ranks[2]
        assert higher.price > lower.price
        assert higher.race_price > lower.race_price
    for bad in (0, 10):
        with pytest.raises(ValueError, match=r"booster tier must be 1\.\.9"):
            boosters.rank_odds(bad)


def test_prices() -> None:
    assert booster_price(1) == 100
    assert 300 // booster_price(1) == 3
    assert [booster_price(t) for t in (2, 9)] == [200, 900]
    assert [booster_price(t, race=True) for t in (1, 2, 9)] == [250, 500, 2250]


@pytest.mark.parametrize(
    ("wins", "tier", "race"),
    [
        ({}, 1, False),
        ({1: 9}, 1, False),
        ({1: 10}, 2, True),
        ({1: 10, 2: 9}, 2, True),
        ({1: 9, 2: 50}, 1, False),  # no skipping a rank
        ({r: 10 for r in range(1, 10)}, 9, True),
        ({1: 10, 2: 10}, 3, True),
    ],
)
def test_tier_is_the_highest_unlocked_rank(wins: dict[int, int], tier: int, race: bool) -> None:
    assert highest_unlocked_rank(wins) == tier
    assert race_booster_unlocked(wins) is race


def test_opening_order_is_common_to_rare_then_holos_stable() -> None:
    cards = [
        DrawnCard("a", "creature", "or", False),
        DrawnCard("b", "creature", "basique", True),
        DrawnCard("c", "creature", "basique", False),
        DrawnCard("d", "creature", "divin", False),
        DrawnCard("e", "creature", "basique", False),
        DrawnCard("f", "buff", "argent", False),
    ]
    assert [c.card for c in opening_order(cards)] == ["c", "e", "f", "a", "d", "b"]


def test_a_booster_holds_five_creatures_and_one_buff(catalog: HossCatalog) -> None:
    pool = BoosterPool.of(catalog)
    cards = {c.id: c for c in catalog.cards}
    rng = random.Random(3)
    for tier in (1, 9):
        for race in (None, "orc"):
            for _ in range(200):
                drawn = draw_booster(pool, rng, tier, race)
                kinds = Counter(d.kind for d in drawn)
                assert kinds == {"creature": 5, "buff": 1}
                creatures = [cards[d.card] for d in drawn if d.kind == "creature"]
                assert all(isinstance(c, CreatureCard) for c in creatures)
                if race:
                    assert {c.race for c in creatures if isinstance(c, CreatureCard)} == {race}
                if tier == 1:
                    assert {c.rank for c in creatures if isinstance(c, CreatureCard)} == {1}
                assert drawn == opening_order(drawn)


# --- the statistical test --------------------------------------------------------------------------------

BOOSTERS = 33_334  # x 6 = 200,004 cards
SIGMAS = 4


def _bounds(n: int, p: float) -> tuple[float, float]:
    """Accepted range for a count of n draws with chance p: mean +- 4 standard deviations (binomial).

    Over 200,004 cards: Divin expects 8.0 (accepts 0..19), Diamant 22.8 (4..41), Platine 219.2 (160..278),
    holo 4.0 (0..12), Or 1,750 (1,583..1,917), Argent 18,000 (17,488..18,512).
    """
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    return mean - SIGMAS * sd, mean + SIGMAS * sd


@pytest.mark.slow
def test_200000_cards_follow_the_odds(catalog: HossCatalog) -> None:
    """The pure draw the service uses (`test_the_service_draws_with_draw_booster` proves it), 33,334 tier-9
    boosters: rarity and holo per card, rank per creature, uniform lines, paths and buffs."""
    pool = BoosterPool.of(catalog)
    cards = {c.id: c for c in catalog.cards}
    rng = random.Random(20260105)
    rarity: Counter[str] = Counter()
    ranks: Counter[int] = Counter()
    lines: Counter[str] = Counter()
    buffs: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    holo = 0
    for _ in range(BOOSTERS):
        for d in draw_booster(pool, rng, 9):
            rarity[d.rarity] += 1
            holo += d.holo
            card = cards[d.card]
            if isinstance(card, CreatureCard):
                ranks[card.rank] += 1
                lines[card.line] += 1
                if card.rank == 2:
                    seconds[card.id] += 1
            else:
                buffs[card.id] += 1
    n = BOOSTERS * 6
    assert sum(rarity.values()) == n >= 200_000
    for name, p in boosters.rarity_odds().items():
        low, high = _bounds(n, float(p))
        assert low <= rarity[name] <= high, (name, rarity[name], low, high)
    low, high = _bounds(n, 1 / 50_000)
    assert low <= holo <= high
    creatures = BOOSTERS * 5
    for rank, p in boosters.rank_odds(9).items():
        low, high = _bounds(creatures, float(p))
        assert low <= ranks[rank] <= high, (rank, ranks[rank])
    assert len(lines) == len(pool.lines)
    for count in lines.values():
        low, high = _bounds(creatures, 1 / len(pool.lines))
        assert low <= count <= high
    for count in buffs.values():
        low, high = _bounds(BOOSTERS, 1 / len(pool.buffs))
        assert low <= count <= high
    for line in (x for x in pool.lines if len(x.paths) == 2):  # each path of a two-path line: half
        a, b = (seconds[p.rank2] for p in line.paths)
        low, high = _bounds(a + b, 0.5)
        assert low <= a <= high


def _cards_of(openings: list[int], conn: Connection) -> list[list[str]]:
    """Each opening's cards by position."""
    sql = (
        "SELECT c.card_key FROM hoss_opening_cards oc JOIN cards c ON c.id = oc.card_id"
        " WHERE oc.opening_id = ? ORDER BY oc.position"
    )
    return [[row[0] for row in conn.execute(sql, (opening,))] for opening in openings]


async def test_a_purchase_asks_the_operating_system_for_one_seed(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Production's `SystemRandom` asked the kernel for every draw (about 310 times for ten boosters); a
    purchase now asks once, for 256 bits, and its boosters are those of a generator seeded with them: a
    new seed per purchase, so the draws stay the OS's to decide (docs/hoss/economy.md)."""
    asked: list[int] = []
    seeds = iter([bytes(range(32)), bytes(range(32, 64))])

    def urandom(size: int) -> bytes:
        asked.append(size)
        seed = next(seeds, None)
        return os.urandom(size) if seed is None else seed[:size]

    shop = HossShop(db, clock, catalog, random.SystemRandom(), registry=registry)
    await new_player(db, clock, 1, gold=100_000, registry=registry)
    await set_wins(db, 1, {1: 10, 2: 10, 3: 10})  # tier 4
    monkeypatch.setattr(random, "_urandom", urandom)  # what SystemRandom reads the kernel's entropy with
    bought = [(await shop.buy(1, 10, key=f"k{key}")).openings for key in range(2)]
    monkeypatch.undo()
    assert asked == [32, 32], f"{len(asked)} requests for entropy"
    pool = BoosterPool.of(catalog)
    for openings, seed in zip(bought, (bytes(range(32)), bytes(range(32, 64))), strict=True):
        for opening in openings:
            await shop.flip_all(1, opening.id)
        reference = random.Random(int.from_bytes(seed))
        expected = [[d.card for d in draw_booster(pool, reference, 4)] for _ in openings]
        drawn = await db.read(partial(_cards_of, [o.id for o in openings]))
        assert drawn == expected


async def test_the_service_draws_with_draw_booster(
    db: Database, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry
) -> None:
    """Same seed, same cards: the service's boosters are exactly `draw_booster`'s, in position order."""
    shop = HossShop(db, clock, catalog, random.Random(99), registry=registry)
    await new_player(db, clock, 1, gold=100_000, registry=registry)
    await set_wins(db, 1, {1: 10, 2: 10, 3: 10})  # tier 4
    bought: list[Opening] = []
    for key in range(5):
        bought += (await shop.buy(1, 10, key=f"k{key}")).openings
    for opening in bought:  # the sealed ones minted
        await shop.flip_all(1, opening.id)
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT oc.opening_id, c.card_key, c.attrs FROM hoss_opening_cards oc JOIN cards c ON c.id = oc.card_id"
            " ORDER BY oc.opening_id, oc.position"
        ).fetchall()
    )
    reference = random.Random(99)
    expected = []
    for _ in bought:
        expected += [
            (d.card, f'{{"holo": {str(d.holo).lower()}, "rarity": "{d.rarity}", "stars": 0}}')
            for d in draw_booster(BoosterPool.of(catalog), reference, 4)
        ]
    assert [(key, attrs) for _, key, attrs in rows] == expected
    assert len(rows) == 300
    basique = sum('"basique"' in attrs for _, _, attrs in rows)
    low, high = _bounds(300, 0.9)
    assert low <= basique <= high


# --- buying ----------------------------------------------------------------------------------------------


async def test_300_starting_gold_buys_three_boosters_in_one_unit(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation
) -> None:
    purchase = await shop.buy(1, 3, key="i-1")  # the first use creates the player with 300 gold
    assert (purchase.count, purchase.tier, purchase.price, purchase.total) == (3, 1, 100, 300)
    assert purchase.balance == 0
    assert purchase.race is None
    assert not purchase.replayed
    assert all(len(o.cards) == 6 and o.next_position == 0 for o in purchase.openings)
    assert all(not c.flipped and c.card is None for o in purchase.openings for c in o.cards)  # nothing shown
    assert [o.sealed for o in purchase.openings] == [False, True, True]  # only the first one's copies minted
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]) == 6
    assert [(await shop.open_next(1, after=purchase.openings[0].id)) for _ in range(2)] == [
        await shop.opening(1, purchase.openings[1].id)
    ] * 2  # the second booster opened once, shown again until flipped
    await shop.flip_all(1, purchase.openings[1].id)
    third = await shop.open_next(1, after=purchase.openings[0].id)
    assert third is not None
    assert (third.id, third.sealed) == (purchase.openings[2].id, False)
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT currency, card_id IS NOT NULL, delta, reason, ref FROM ledger"
            " WHERE reason = 'hoss.booster' ORDER BY id"
        ).fetchall()
    )
    assert tuple(rows[0]) == ("hoss_gold", 0, -300, "hoss.booster", "i-1")
    opening_ids = [str(o.id) for o in purchase.openings]
    assert [r[4] for r in rows[1:]] == [i for i in opening_ids for _ in range(6)]
    assert all(r[1] == 1 and r[2] == 1 for r in rows[1:])
    kinds = await db.read(
        lambda conn: conn.execute("SELECT kind, tier, purchase_key FROM hoss_openings").fetchall()
    )
    assert [tuple(k) for k in kinds] == [("normal", 1, "i-1")] * 3
    attrs = await db.read(lambda conn: conn.execute("SELECT attrs FROM cards").fetchall())
    assert {json.loads(a[0])["stars"] for a in attrs} == {0}  # a new copy always has 0 stars
    await db.read(conservation)


async def test_a_double_click_buys_once_and_answers_the_same(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation
) -> None:
    first, again = await asyncio.gather(shop.buy(1, 2, key="dbl"), shop.buy(1, 2, key="dbl"))
    later = await shop.buy(1, 2, key="dbl")
    assert [o.id for o in first.openings] == [o.id for o in again.openings] == [o.id for o in later.openings]
    assert sorted([first.replayed, again.replayed]) == [False, True]
    assert later.replayed
    assert await gold(db, 1) == 100
    assert [o.sealed for o in first.openings] == [False, True]
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]) == 6
    with pytest.raises(NotAllowed):  # someone else replaying the interaction id gets nothing
        await shop.buy(2, 2, key="dbl")
    await db.read(conservation)


async def test_race_booster_needs_ten_rank1_wins(
    db: Database, clock: ManualClock, shop: HossShop, catalog: HossCatalog, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=5000, registry=registry)
    await set_wins(db, 1, {1: 9})
    before = await db.read(snapshot)
    with pytest.raises(NotAllowed) as caught:
        await shop.buy(1, 1, key="r1", race="orc")
    assert caught.value.key == "hoss.error.shop.race_locked"
    assert caught.value.params == {"wins": 9, "needed": 10}
    assert_localized(caught.value)
    assert await db.read(snapshot) == before
    await set_wins(db, 1, {1: 10})
    purchase = await shop.buy(1, 2, key="r2", race="orc")
    assert (purchase.tier, purchase.price, purchase.total, purchase.race) == (2, 500, 1000, "orc")
    flipped = [await shop.flip_all(1, o.id) for o in purchase.openings]
    cards = [c.card for f in flipped for c in f.opening.cards]
    assert {c.race for c in cards if isinstance(c, CreatureCard)} == {"orc"}
    assert sum(isinstance(c, CreatureCard) for c in cards) == 10
    assert {f.opening.kind for f in flipped} == {"race"}


async def test_the_tier_follows_rank_progress(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=1000, registry=registry)
    await set_wins(db, 1, {1: 12, 2: 10, 3: 4})
    offer = await shop.offer(1)
    assert (offer.tier, offer.price, offer.race_unlocked, offer.race_price, offer.balance) == (
        3,
        300,
        True,
        750,
        1000,
    )
    purchase = await shop.buy(1, 3, key="t")
    assert (purchase.tier, purchase.total, purchase.balance) == (3, 900, 100)


@pytest.mark.parametrize("count", [0, 11, -1, True, "3"])
async def test_a_bad_count_is_refused_and_changes_nothing(
    db: Database, clock: ManualClock, shop: HossShop, count: object, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    before = await db.read(snapshot)
    with pytest.raises(BadInput) as caught:
        await shop.buy(1, count, key="bad")  # type: ignore[arg-type]
    assert caught.value.key == "hoss.error.shop.count"
    assert caught.value.params == {"minimum": 1, "maximum": 10}
    assert_localized(caught.value)
    assert await db.read(snapshot) == before


async def test_unknown_race_and_missing_gold_change_nothing(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    await set_wins(db, 1, {1: 10})
    before = await db.read(snapshot)
    with pytest.raises(BadInput) as caught:
        await shop.buy(1, 1, key="x", race="elfe")
    assert caught.value.key == "hoss.error.shop.unknown_race"
    assert_localized(caught.value)
    with pytest.raises(InsufficientFunds) as short:
        await shop.buy(1, 2, key="y")  # tier 2: 400 > 300
    assert short.value.params == {
        "currency": "hoss_gold",
        "needed": money("hoss_gold", 400),
        "available": money("hoss_gold", 300),
        "name": Text("hoss.gold"),
        "earn": Text("hoss.guide.earn"),  # the refusal says how to earn gold
    }
    assert_localized(short.value)
    assert await db.read(snapshot) == before


# --- opening: flipping and selling on the spot -----------------------------------------------------------


async def test_cards_flip_in_order_one_by_one_and_idempotently(
    db: Database, clock: ManualClock, shop: HossShop
) -> None:
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    first = await shop.flip(1, opening.id)
    assert first.flipped == (0,)
    assert first.opening.next_position == 1
    assert first.opening.cards[0].card is not None
    assert all(c.card is None for c in first.opening.cards[1:])
    again = await shop.flip(1, opening.id, 0)  # a repeated click on the card already shown
    assert again.flipped == ()
    assert again.opening == first.opening
    with pytest.raises(NotAllowed) as caught:
        await shop.flip(1, opening.id, 3)
    assert caught.value.key == "hoss.error.shop.flip_order"
    assert caught.value.params == {"position": 2}
    assert_localized(caught.value)
    assert (await shop.flip(1, opening.id, 1)).flipped == (1,)
    rest = await shop.flip_all(1, opening.id)
    assert rest.flipped == (2, 3, 4, 5)
    assert rest.opening.next_position is None
    assert (await shop.flip_all(1, opening.id)).flipped == ()
    assert (await shop.flip(1, opening.id)).flipped == ()
    shown = rest.opening.cards
    assert [(c.holo, RARITIES.index(c.rarity or "")) for c in shown] == sorted(
        (c.holo, RARITIES.index(c.rarity or "")) for c in shown
    )
    assert await shop.unopened(1) == []


async def test_flipping_someone_elses_or_a_bad_position_is_refused(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    await new_player(db, clock, 2, registry=registry)
    with pytest.raises(NotFound) as missing:
        await shop.flip(2, opening.id)
    assert missing.value.key == "hoss.error.shop.opening_not_found"
    assert_localized(missing.value)
    with pytest.raises(NotFound):
        await shop.opening(2, opening.id)
    with pytest.raises(BadInput) as caught:
        await shop.flip(1, opening.id, 6)
    assert caught.value.key == "hoss.error.shop.position"
    assert_localized(caught.value)
    assert [o.id for o in await shop.unopened(1)] == [opening.id]


async def test_a_flipped_card_sells_on_the_spot_and_a_face_down_one_does_not(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=300, registry=registry)
    openings = (await shop.buy(1, 3, key="b")).openings  # 15 creatures: well above the 6 Rang 1 floor
    opening = openings[0]
    for other in openings[1:]:  # opened, so their copies are the player's
        await shop.flip_all(1, other.id)
    with pytest.raises(NotAllowed) as caught:
        await shop.sell_from_opening(1, opening.id, 5, key="s0")
    assert caught.value.key == "hoss.error.card.face_down"
    assert_localized(caught.value)
    await shop.flip(1, opening.id)
    shown = (await shop.opening(1, opening.id)).cards[0]
    # confirmed: an Argent-or-rarer card asks first (tests/services/hoss/test_sale_from_booster.py)
    sold = await shop.sell_from_opening(1, opening.id, 0, key="s1", confirmed=True)
    assert isinstance(sold, SaleResult)
    assert sold.copy_ids == (shown.copy_id,)
    assert sold.total == shown.price
    assert sold.balance == shown.price
    again = await shop.sell_from_opening(1, opening.id, 0, key="s1", confirmed=True)
    assert isinstance(again, SaleResult)
    assert again.replayed
    with pytest.raises(CardUnavailable):
        await shop.sell_from_opening(1, opening.id, 0, key="s2", confirmed=True)
    after = (await shop.opening(1, opening.id)).cards[0]
    assert after.owned is False
    assert after.card == shown.card
    await db.read(conservation)
