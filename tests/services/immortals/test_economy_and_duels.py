"""Sign-up, deck limits, rewards applied exactly as the engine computes them, the anti-farm rule across
consecutive duels, and repeated or concurrent clicks on a choice."""

from __future__ import annotations

import asyncio

import pytest

from core.clock import ManualClock
from core.errors import InsufficientFunds, NotAllowed
from engine.immortals import ImmortalsCatalog, duel_result
from services.immortals import GAME, ImmortalsServices
from services.immortals.economy import FRAGMENTS, GOLD
from services.immortals.rewards import previous_opponents
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.messages import render_text
from services.shared.collecting import DeckInvalid
from store.connection import Connection
from store.db import Database
from tests.services.immortals.conftest import mint
from tests.services.immortals.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, play_out


async def test_the_sign_up_gives_eight_units_of_eight_families_once(
    services: ImmortalsServices, db: Database
) -> None:
    first = await services.decks.collection(ALICE)
    assert len(first.starter) == 8
    again = await services.decks.collection(ALICE)
    assert again.starter == ()
    deck = await services.decks.show(ALICE)
    assert len(deck.copies) == 8
    assert len({c.card.family for c in deck.copies}) == 8
    assert {c.card.tier for c in deck.copies} == {1}
    minted = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE player_id = ? AND reason = 'immortals.reason.starter'",
            (ALICE,),
        ).fetchone()[0]
    )
    assert minted == 8
    book = await services.spells.book(ALICE)
    assert len(book.known) == 8


async def test_identical_units_are_limited_by_level_and_every_reason_is_given(
    services: ImmortalsServices,
    db: Database,
    clock: ManualClock,
    catalog: ImmortalsCatalog,
    registry: GameRegistry,
) -> None:
    await services.decks.collection(ALICE)
    for xp in (0, 0, 0, 0):
        await mint(db, clock, ALICE, "imp", registry, xp)
    with pytest.raises(DeckInvalid) as refused:  # 4 identical: never
        await services.decks.save(ALICE, ["imp"] * 4)
    assert [p.key for p in refused.value.problems] == ["immortals.deck.problem.copies"]
    starter = next(c.card.id for c in (await services.decks.show(ALICE)).copies if c.card.id != "imp")
    assert (await services.decks.save(ALICE, ["imp"] * 3 + [starter])).valid  # 3 at level 1: allowed
    level4 = catalog.level_xp[2]  # XP of level 4
    await mint(db, clock, BOB, "imp", registry, level4)
    await mint(db, clock, BOB, "imp", registry, 0)
    await mint(db, clock, BOB, "imp", registry, 0)
    with pytest.raises(DeckInvalid) as refused:  # 3 copies, one at level 4: 2 at most; and too few units
        await services.decks.save(BOB, ["imp"] * 3)
    keys = [p.key for p in refused.value.problems]
    assert sorted(keys) == ["immortals.deck.problem.copies", "immortals.deck.problem.size"]
    with pytest.raises(DeckInvalid) as refused:  # not owned
        await services.decks.save(BOB, ["imp", "imp", "imp", "imp", "imp"])
    assert "immortals.deck.problem.not_owned" in [p.key for p in refused.value.problems]
    level5 = catalog.level_xp[3]
    await mint(db, clock, CAROL, "imp", registry, level5)
    await mint(db, clock, CAROL, "imp", registry, 0)
    others = [c.id for c in catalog.cards if c.id != "imp"][:3]
    for card in others:
        await mint(db, clock, CAROL, card, registry=registry)
    with pytest.raises(DeckInvalid):  # one at level 5: 1 at most
        await services.decks.save(CAROL, ["imp", "imp", *others])
    saved = await services.decks.save(CAROL, ["imp", *others])
    assert saved.valid
    assert saved.copies[0].level == 5  # the copy of highest level is picked


async def play_practice(services: ImmortalsServices, player: int, key: str) -> int:
    duel = await services.duels.practice(GUILD, CHANNEL, player, key=key)
    while duel.status == "live":
        assert duel.state is not None
        seat = 0
        fought = {r.fighters[seat].uid for r in duel.state.history}
        place = next(i for i, u in enumerate(duel.state.units[seat]) if u.uid not in fought)
        duel = await services.duels.choose(duel.id, player, duel.state.round, place, None, guild=GUILD)
    return duel.id


async def test_rewards_come_from_the_engine_and_anti_farm_halves_consecutive_duels(
    services: ImmortalsServices, db: Database
) -> None:
    paid = {GOLD: 100, FRAGMENTS: 0}  # the starting gold, then what each duel paid
    for n in range(3):
        duel_id = await play_practice(services, ALICE, f"p{n}")
        duel = await services.duels.get(duel_id)
        assert duel.state is not None
        assert duel.result is not None
        expected = duel_result(duel.state, 0, [0] * n)  # the AI is the same opponent each time
        (gains,) = duel.result["gains"]
        assert gains["consecutive"] == n == expected.consecutive
        assert gains["halvings"] == min(n, 1) == expected.halvings  # half from the second on, no less
        assert gains["player_xp"] == expected.player_xp
        assert gains["gold"] == expected.gold
        assert gains["fragments"] == expected.fragments
        assert [c["xp"] for c in gains["cards"]] == [c.xp for c in expected.cards]
        assert gains["combat_points"] == 0  # practice
        (embed,) = services.duels.public(duel).embeds
        recap = render_text(embed.description, "fr")
        if n:
            assert (
                f"Anti-farm\u00a0: {n} duel{'s' if n > 1 else ''} de suite contre le même adversaire" in recap
            )
            assert "gains divisés par 2." in recap
        else:
            assert "Anti-farm" not in recap
        paid[GOLD] += gains["gold"]
        paid[FRAGMENTS] += gains["fragments"]
    held = await db.read(lambda conn: {c: ledger.balance(conn, ALICE, c) for c in (GOLD, FRAGMENTS)})
    assert held == paid
    assert await db.read(lambda conn: previous_opponents(conn, ALICE)) == [0, 0, 0]
    profile = await db.read(
        lambda conn: conn.execute(
            "SELECT duels FROM immortals_profiles WHERE player_id = ?", (ALICE,)
        ).fetchone()[0]
    )
    assert profile == 3


async def test_a_card_gains_the_xp_the_engine_gives_it(services: ImmortalsServices, db: Database) -> None:
    duel_id = await play_practice(services, ALICE, "xp")
    duel = await services.duels.get(duel_id)
    assert duel.state is not None
    expected = duel_result(duel.state, 0, [])
    copies = duel.copies(0)

    def xp_of(conn: Connection, copy: int) -> int:
        row = conn.execute("SELECT xp FROM immortals_card_xp WHERE card_id = ?", (copy,)).fetchone()
        return 0 if row is None else int(row[0])

    gained = await db.read(lambda conn: [xp_of(conn, copies[g.deck_index]) for g in expected.cards])
    assert gained == [g.xp for g in expected.cards]
    assert sum(gained) > 0


async def test_a_double_or_concurrent_click_on_a_choice_applies_once(services: ImmortalsServices) -> None:
    challenge = await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c1")
    duel = await services.duels.answer(challenge.id, BOB, True, guild=GUILD)
    assert duel.state is not None
    engager = duel.state.engager
    player = duel.seats[engager]
    assert player is not None
    results = await asyncio.gather(
        *(services.duels.choose(duel.id, player, 1, n % 4, None, guild=GUILD) for n in range(8)),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(done) == 1
    assert all(isinstance(r, NotAllowed) and r.key == "immortals.error.already_chosen" for r in refused)
    after = await services.duels.get(duel.id)
    assert after.state is not None
    assert after.state.pending[engager] is not None
    assert after.state.pending[1 - engager] is None
    assert after.version == done[0].version


async def opponents_of(db: Database, player: int) -> list[int]:
    return await db.read(lambda conn: previous_opponents(conn, player))


async def play_friend(services: ImmortalsServices, a: int, b: int, key: str) -> int:
    challenge = await services.duels.challenge(GUILD, CHANNEL, a, b, key=key)
    duel = await services.duels.answer(challenge.id, b, True, guild=GUILD)
    return (await play_out(services, duel)).id


async def test_anti_farm_across_friend_duels_and_the_ranking(
    services: ImmortalsServices, db: Database
) -> None:
    """A-B, A-B: the second halves both players' gains; B-C then A-B: A's run is unbroken (its third duel
    in a row against B, halved once: 50 %, not 25 %), B's was broken by C (full gains). Combat points are
    summed on the ranking."""
    plays = [
        (ALICE, BOB, {ALICE: 0, BOB: 0}),
        (ALICE, BOB, {ALICE: 1, BOB: 1}),
        (BOB, CAROL, {BOB: 0, CAROL: 0}),
    ]
    plays.append((ALICE, BOB, {ALICE: 1, BOB: 0}))
    points: dict[int, int] = {}
    for n, (a, b, halvings) in enumerate(plays):
        duel = await services.duels.get(await play_friend(services, a, b, f"f{n}"))
        assert duel.result is not None
        assert duel.state is not None
        for gains in duel.result["gains"]:
            player: int = gains["player_id"]
            assert gains["halvings"] == halvings[player]
            history = await opponents_of(db, player)
            expected = duel_result(duel.state, gains["seat"], history[:-1])
            assert gains["combat_points"] == expected.combat_points
            assert gains["gold"] == expected.gold
            points[player] = points.get(player, 0) + gains["combat_points"]
    board = await services.ladder.leaderboard(GUILD)
    assert board.players == 3
    assert {e.player_id: e.combat_points for e in board.entries} == points
    assert [e.combat_points for e in board.entries] == sorted(points.values(), reverse=True)


async def test_an_admin_reset_gives_the_sign_up_army_again(
    services: ImmortalsServices, db: Database, clock: ManualClock
) -> None:
    await services.decks.collection(ALICE)
    assert GAME.reset is not None
    hook = GAME.reset
    report = await db.write(lambda conn: hook(conn, clock.now(), ALICE))
    assert report.cards == 8
    again = await services.decks.collection(ALICE)
    assert len(again.starter) == 8
    assert again.copies == 8


async def test_fragments_teach_a_spell_and_gold_recruits_a_unit_once_per_click(
    services: ImmortalsServices, db: Database, clock: ManualClock
) -> None:
    book = await services.spells.book(ALICE)
    unknown = book.unknown[0]
    with pytest.raises(InsufficientFunds):  # no fragments yet: nothing learnt
        await services.spells.learn(ALICE, unknown.name.fr)
    assert unknown not in (await services.spells.book(ALICE)).known

    def grant(conn: Connection) -> None:
        why = ledger.Movement("test.grant")
        ledger.credit(conn, clock.now(), ALICE, FRAGMENTS, 25, why)
        ledger.credit(conn, clock.now(), ALICE, GOLD, 200, why)

    await db.write(grant)
    spell, left = await services.spells.learn(ALICE, unknown.name.en)
    assert spell == unknown
    assert left == 15
    with pytest.raises(NotAllowed):
        await services.spells.learn(ALICE, unknown.id)
    first, second = await asyncio.gather(
        services.spells.recruit(ALICE, key="click"), services.spells.recruit(ALICE, key="click")
    )
    assert first.copy_id == second.copy_id
    assert {first.replayed, second.replayed} == {False, True}
    assert first.gold == 300 - 150  # 100 at sign-up + 200, one recruit paid
    assert (await services.decks.collection(ALICE)).copies == 9


async def test_a_deck_missing_a_copy_cannot_start_a_duel(
    services: ImmortalsServices, db: Database, clock: ManualClock
) -> None:
    deck = await services.decks.show(ALICE)
    lost = deck.copies[0].copy_id
    await db.write(
        lambda conn: ledger.destroy_card(conn, clock.now(), lost, ALICE, ledger.Movement("test.remove"))
    )
    shown = await services.decks.show(ALICE)
    assert [(p.key, p.params) for p in shown.problems] == [
        ("immortals.deck.problem.missing", {"card": deck.copies[0].card.id, "copy": lost})
    ]
    with pytest.raises(NotAllowed) as refused:
        await services.duels.practice(GUILD, CHANNEL, ALICE, key="p")
    assert refused.value.key == "immortals.error.no_deck"
    with pytest.raises(NotAllowed):
        await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c")
