"""A trade never breaks a deck silently (services/community/trades/decks.py, docs/trades.md "Decks"): the
giver's own window says which deck uses a copy on offer, the swap lets the deck take the best copy left
(or tells the giver it is incomplete), and the next command that needs the deck names the missing card
in the reader's language with the command that completes it. One test per game, on the real catalogs."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from engine.errors import DomainError
from services.community.trades.service import MIN_MEMBERSHIP, TradeService
from services.community.trades.store import Trade
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameContext, GameRegistry
from services.infra.messages import MessageSpec, Text, render_text
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.conftest import check_conservation
from tests.support.public_wording import parts
from tests.support.registries import every_game

GUILD, CHANNEL = 500, 510
ALICE, BOB, CAROL = 1, 2, 3
GRANT = ledger.Movement("test.grant")


@pytest.fixture(scope="module")
def cards() -> CardIndex:
    return CardIndex(load_all(DATA_DIR, every_game().all_games()))


class Desk:
    """Three players old enough to trade, the trade service and any game's services on one database."""

    def __init__(self, db: Database, clock: ManualClock, cards: CardIndex, registry: GameRegistry) -> None:
        self.db, self.clock, self.cards = db, clock, cards
        self.scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
        self.trades = TradeService(db, clock, registry, self.scheduler, cards)
        self.keys = 0

    def game(self, key: str, registry: GameRegistry) -> Any:
        spec = every_game().get(key)
        assert spec is not None
        assert spec.build is not None
        context = GameContext(
            self.db, self.clock, self.cards.catalog(key), self.scheduler, random.Random(7), registry
        )
        return spec.build(context)

    def name(self, game: str, card: str, locale: str) -> str:
        found = self.cards.get(game, card)
        assert found is not None
        return found.name.get(locale)

    async def mint(self, owner: int, game: str, card: str, attrs: dict[str, Any] | None = None) -> int:
        now = self.clock.now()
        return await self.db.write(lambda conn: ledger.mint_card(conn, now, owner, game, card, GRANT, attrs))

    async def copies(self, owner: int, game: str, card: str) -> list[int]:
        sql = "SELECT id FROM cards WHERE owner_id = ? AND game = ? AND card_key = ? ORDER BY id"
        return await self.db.read(lambda conn: [int(r[0]) for r in conn.execute(sql, (owner, game, card))])

    async def offer(self, giver: int, partner: int, game: str, copies: list[int]) -> Trade:
        trade = await self.trades.open(GUILD, CHANNEL, giver, partner, game)
        for copy in copies:
            trade = await self.trades.add_card(GUILD, trade.id, giver, f"#{copy}")
        return trade

    async def swap(self, trade: Trade) -> Trade:
        for player in (trade.proposer_id, trade.partner_id):
            self.keys += 1
            trade = await self.trades.confirm(GUILD, trade.id, player, trade.version, f"k{self.keys}")
        assert trade.status == "done"
        await self.db.read(check_conservation)
        return trade

    async def dms(self, player: int) -> list[MessageSpec]:
        sql = "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ? ORDER BY id"
        rows = await self.db.read(lambda conn: conn.execute(sql, (player,)).fetchall())
        return [MessageSpec.from_json(str(payload)) for (payload,) in rows]

    async def window(self, trade: Trade, viewer: int, locale: str = "fr") -> str:
        return shown(await self.trades.window(trade, viewer), locale)


def shown(spec: MessageSpec, locale: str) -> str:
    return "\n".join(p.text for p in parts(spec, locale))


async def refusal(call: Awaitable[object], locale: str) -> str:
    """The refusal as its reader gets it."""
    with pytest.raises(DomainError) as caught:
        await call
    return render_text(Text(caught.value.key, caught.value.params), locale)


def said_about_decks(spec: MessageSpec) -> bool:
    return "trades.decks." in spec.to_json()


@pytest.fixture
async def w(
    db: Database, clock: ManualClock, cards: CardIndex, registry: GameRegistry
) -> AsyncIterator[Desk]:
    desk = Desk(db, clock, cards, registry=registry)

    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB, CAROL):
            ensure_player(conn, player, clock.now(), registry)

    await db.write(unit)
    clock.advance(MIN_MEMBERSHIP + timedelta(days=1))
    try:
        yield desk
    finally:
        await desk.scheduler.stop()


async def test_pillz_a_starter_card_traded_away_is_named_in_the_window_the_notice_and_the_refusal(
    w: Desk,
    registry: GameRegistry,
) -> None:
    pillz = w.game("pillz", registry=registry)
    starter = await pillz.economy.decks.show(ALICE, 1)  # the starter deck, slot 1, active
    card = starter.cards[0]
    (copy,) = await w.copies(ALICE, "pillz", card)
    name_fr, name_en = w.name("pillz", card, "fr"), w.name("pillz", card, "en")
    trade = await w.offer(ALICE, BOB, "pillz", [copy])

    mine = await w.window(trade, ALICE)
    assert f"{name_fr}** (#{copy})\u00a0: cette carte est dans votre deck actif (emplacement 1)" in mine
    assert (
        "Aucun autre exemplaire ne la remplacera\u00a0: complétez-le avec `/pillz deck emplacement:1" in mine
    )
    assert "Your decks" in await w.window(trade, ALICE, "en")
    assert "deck" not in await w.window(trade, BOB)  # the partner never learns what her decks hold
    assert not any(said_about_decks(dm) for dm in await w.dms(BOB))

    (bob_copy,) = await w.copies(BOB, "pillz", (await pillz.economy.decks.show(BOB, 1)).cards[0])
    trade = await w.trades.add_card(GUILD, trade.id, BOB, f"#{bob_copy}")  # both give a deck card
    hers, his = f"(#{copy})\u00a0: cette carte est dans", f"(#{bob_copy})\u00a0: cette carte est dans"
    mine, theirs = await w.window(trade, ALICE), await w.window(trade, BOB)
    assert hers in mine
    assert his not in mine
    assert his in theirs
    assert hers not in theirs
    told = shown((await w.dms(ALICE))[-1], "fr")  # bob's change, sent to alice with her own warning
    assert hers in told
    assert his not in told

    await w.swap(trade)
    notice = shown((await w.dms(ALICE))[-1], "fr")
    assert "Échange n° 1\u00a0: vos decks" in notice
    assert f"{name_fr}** (#{copy}) a quitté votre deck actif (emplacement 1)" in notice
    assert f"(#{bob_copy})" not in notice
    his_notice = shown((await w.dms(BOB))[-1], "fr")
    assert f"(#{bob_copy}) a quitté votre deck actif (emplacement 1)" in his_notice
    assert f"(#{copy})" not in his_notice

    for locale, name, command in (
        ("fr", name_fr, "`/pillz deck emplacement:1 personnages:…`"),
        ("en", name_en, "`/pillz deck slot:1 characters:…`"),
    ):
        said = await refusal(pillz.duels.practice(GUILD, CHANNEL, ALICE, key=f"p-{locale}"), locale)
        assert name in said
        assert command in said
        assert card not in said  # never the catalog id


async def test_pillz_a_spare_copy_keeps_the_deck_and_the_window_quiet(
    w: Desk, registry: GameRegistry
) -> None:
    pillz = w.game("pillz", registry=registry)
    card = (await pillz.economy.decks.show(ALICE, 1)).cards[0]
    spare = await w.mint(ALICE, "pillz", card)
    trade = await w.offer(ALICE, BOB, "pillz", [spare])
    assert "deck" not in await w.window(trade, ALICE)  # the deck counts on the copy no trade holds
    await w.swap(trade)
    assert (await pillz.economy.decks.show(ALICE, 1)).valid
    assert not any(said_about_decks(dm) for dm in await w.dms(ALICE))

    (last,) = await w.copies(ALICE, "pillz", card)
    gift = await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, "pillz", f"#{last}", None)
    assert "cette carte est dans votre deck actif (emplacement 1)" in await w.window(gift, ALICE)


async def test_pillz_a_challenge_accepted_after_the_challengers_deck_broke_keeps_its_cards_private(
    w: Desk,
    registry: GameRegistry,
) -> None:
    pillz = w.game("pillz", registry=registry)
    card = (await pillz.economy.decks.show(ALICE, 1)).cards[0]
    await pillz.economy.decks.show(BOB, 1)
    duel = await pillz.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c")
    await w.swap(await w.offer(ALICE, CAROL, "pillz", await w.copies(ALICE, "pillz", card)))
    said = await refusal(pillz.duels.answer(duel.id, BOB, True, guild=GUILD), "fr")
    assert f"<@{ALICE}> n'a plus de deck jouable" in said
    assert w.name("pillz", card, "fr") not in said


async def test_choco_a_pair_broken_by_a_trade_is_told_and_refused_by_practice(
    w: Desk, registry: GameRegistry
) -> None:
    choco = w.game("choco", registry=registry)
    catalog = w.cards.catalog("choco")
    assert catalog is not None
    wizards = [c for c in catalog.cards if c.rarity in ("bronze_1", "bronze_2") and c.type != "pure"][:12]
    for card in wizards:
        for _ in range(2):
            await w.mint(ALICE, "choco", card.id)
    deck = [c.id for c in wizards for _ in range(2)]
    assert (await choco.economy.decks.save(ALICE, "bronze", deck)).valid
    card = wizards[0].id
    copy = (await w.copies(ALICE, "choco", card))[0]
    trade = await w.offer(ALICE, BOB, "choco", [copy])

    mine = await w.window(trade, ALICE)
    assert "cette carte est dans votre pioche de la Ligue de Bronze" in mine
    assert "`/choco pioche ligue:Ligue de Bronze auto:True`" in mine
    assert "deck" not in await w.window(trade, BOB)

    await w.swap(trade)
    said = await refusal(choco.practice.start(GUILD, CHANNEL, ALICE, "bronze", key="p"), "fr")
    assert f"{w.name('choco', card, 'fr')}\u00a0: la pioche de la Ligue de Bronze en utilise 2" in said
    assert "vous n'en possédez plus qu'un" in said
    assert "`/choco pioche ligue:Ligue de Bronze cartes:…`" in said


async def test_hoss_the_next_best_copy_takes_the_place_and_a_lost_buff_is_named(
    w: Desk, registry: GameRegistry
) -> None:
    hoss = w.game("hoss", registry=registry)
    lines = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
    buffs = ["buff_soins", "buff_vitesse"]
    plain = {"rarity": "basique", "stars": 0, "holo": False}
    owned = {card: await w.mint(ALICE, "hoss", card, plain) for card in [f"{x}_1" for x in lines] + buffs}
    holo = await w.mint(ALICE, "hoss", "orc_mage_1", {"rarity": "basique", "stars": 0, "holo": True})
    rank2 = await w.mint(ALICE, "hoss", "orc_mage_2a", plain)
    await hoss.decks.save(ALICE, 1, "Starter", lines, buffs)
    trade = await w.offer(ALICE, BOB, "hoss", [holo, owned["buff_vitesse"], rank2, owned["orc_mage_1"]])

    mine = await w.window(trade, ALICE)
    deck = "cette carte est dans votre deck actif «\u00a0Starter\u00a0» (emplacement 1)"
    assert f"(#{holo})\u00a0: {deck}. Si elle part, votre exemplaire" not in mine  # the plain copy leaves too
    assert f"(#{holo})\u00a0: {deck}. Aucun autre exemplaire ne la remplacera" in mine
    assert f"(#{owned['buff_vitesse']})\u00a0: {deck}. Aucun autre exemplaire" in mine
    assert f"(#{rank2})\u00a0: {deck}. Sans autre exemplaire, ce deck jouera sans elle" in mine
    assert f"(#{owned['orc_mage_1']})" not in mine.split("Vos decks")[1]  # not the copy the deck plays

    trade = await w.trades.remove_card(GUILD, trade.id, ALICE, owned["orc_mage_1"])
    mine = await w.window(trade, ALICE)
    assert (
        f"(#{holo})\u00a0: {deck}. Si elle part, votre exemplaire #{owned['orc_mage_1']} prendra sa place."
        in mine
    )

    await w.swap(trade)
    view = await hoss.decks.show(ALICE, 1)
    assert view.lines[1].copies[0].id == owned["orc_mage_1"]  # the best copy left
    said = await refusal(hoss.ranked.start(ALICE, 1, key="r", guild=GUILD), "en")
    assert w.name("hoss", "buff_vitesse", "en") in said
    assert "buff_vitesse" not in said
    assert "`/hoss deck auto slot:1`" in said
    notice = shown((await w.dms(ALICE))[-1], "fr")
    assert (
        f"a quitté {deck.removeprefix('cette carte est dans ')}\u00a0: votre exemplaire #{owned['orc_mage_1']}"
        in notice
    )


async def test_immortals_the_deck_takes_the_best_free_copy_and_names_a_unit_left_without_one(
    w: Desk, registry: GameRegistry
) -> None:
    immortals = w.game("immortals", registry=registry)
    deck = await immortals.decks.show(ALICE)  # the sign-up deck
    first, second = deck.copies[0], next(c for c in deck.copies if c.card.id != deck.copies[0].card.id)
    free = await w.mint(ALICE, "immortals", first.card.id)
    engaged = await w.mint(ALICE, "immortals", first.card.id)
    await w.db.write(lambda conn: conn.execute("INSERT INTO immortals_card_xp VALUES (?, 500)", (engaged,)))
    await w.offer(ALICE, CAROL, "immortals", [engaged])  # the more experienced copy is on offer elsewhere
    trade = await w.offer(ALICE, BOB, "immortals", [first.copy_id, second.copy_id])

    mine = await w.window(trade, ALICE)
    assert (
        f"(#{first.copy_id})\u00a0: cette carte est dans votre deck. Si elle part, votre exemplaire #{free}"
        in mine
    )
    assert f"(#{second.copy_id})\u00a0: cette carte est dans votre deck. Aucun autre exemplaire" in mine

    await w.swap(trade)
    sql = "SELECT deck FROM immortals_profiles WHERE player_id = ?"
    saved = json.loads(await w.db.read(lambda conn: conn.execute(sql, (ALICE,)).fetchone()[0]))
    assert free in saved  # in the place of the copy that left
    assert first.copy_id not in saved
    assert second.copy_id in saved  # none to replace it: the deck names it missing
    name = w.name("immortals", second.card.id, "fr")
    said = await refusal(immortals.duels.practice(GUILD, CHANNEL, ALICE, key="p"), "fr")
    assert f"{name} (exemplaire #{second.copy_id}) n'est plus à vous" in said
    assert "`/immortels deck unités:…`" in said


async def test_a_game_that_declares_no_deck_hook_trades_as_before(w: Desk) -> None:
    spec = every_game().get("dinocard")
    assert spec is not None
    assert spec.decks_holding is None  # its packs lock their copies instead
    catalog = w.cards.catalog("dinocard")
    assert catalog is not None
    copy = await w.mint(ALICE, "dinocard", catalog.cards[0].id)
    trade = await w.offer(ALICE, BOB, "dinocard", [copy])
    assert "⚠️" not in await w.window(trade, ALICE)
    await w.swap(trade)
    assert not any(said_about_decks(dm) for dm in await w.dms(ALICE))
