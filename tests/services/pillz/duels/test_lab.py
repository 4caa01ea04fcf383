"""The Pillz lab through its service (services/pillz/lab.py): the player's own deck only, refused with every
reason when it cannot be played, nothing paid or written but the cooldown, and lab seeds replayed as
practice duels through the duel service with the same winners."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from core.errors import BadInput, NotAllowed
from discord_app.render import text
from engine.pillz import choose
from engine.pillz.catalog import PillzCatalog
from engine.pillz.lab import FIRST_VERSION, SAVES_PER_MOVE
from services.community.lab.pool import LabPool
from services.community.lab.service import LabService
from services.community.lab.spec import LabRequest
from services.infra import ledger
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from services.pillz.decks import active_deck, deck_in_slot
from services.pillz.duel_match import DuelRow
from services.pillz.duels import PillzDuels
from services.pillz.economy import ensure_starter, store_deck
from services.pillz.lab import LAB, opponent_deck
from store.connection import Connection
from store.db import Database
from tests.services.pillz.duels.helpers import ALICE, BOB, CHANNEL, GUILD
from tests.support.lab import FixedSeed, InlineExecutor, Refusal, refuses, said


def lab_service(duels: PillzDuels, battles: int) -> LabService:
    pool = LabPool(size=2, executor=InlineExecutor())
    return LabService(
        duels.db,
        duels.clock,
        duels.registry,
        {"pillz": (SimpleNamespace(duels=duels), LAB)},
        pool,
        battles=battles,
    )


async def starter(duels: PillzDuels, player: int) -> None:
    def unit(conn: Connection) -> None:
        ensure_starter(conn, duels.clock.now(), duels.registry, player, duels.pool, duels.rng)

    await duels.db.write(unit)


async def books(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("ledger", "wallets", "cards", "matches", "pillz_decks", "pillz_profiles", "jobs", "outbox")

    def unit(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}

    return await db.read(unit)


class Replay(PillzDuels):
    """The practice duel's service with the lab battle's AI deck (the lab draws it from the battle's seed,
    the service from the duel's id): everything after it is the service's own."""

    def __init__(self, *args: Any, opponent: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.opponent = opponent

    def _practice_setup(self, mine: list[str], rng: random.Random) -> list[str]:
        return self.opponent


async def replayed(duels: PillzDuels, scheduler: Scheduler, seed: int, deck: list[str]) -> DuelRow:
    """The practice duel of `seed`, the player's seat answered by the AI's choice with the duel's own
    draws (as a timeout would make it, with the AI's full search)."""
    opponent = opponent_deck(duels.catalog, deck, seed)
    replay = Replay(
        duels.db,
        duels.clock,
        duels.catalog,
        FixedSeed(seed),
        None,
        registry=duels.registry,
        opponent=opponent,
    )
    duel = await replay.practice(GUILD, CHANNEL, ALICE, key=f"replay:{seed}")
    assert duel.setup == [deck, opponent]
    while duel.status == "live":
        assert duel.state is not None
        assert duel.to_act() == [0]
        moves = 2 * len(duel.state.history) + (duel.state.pending is not None)
        assert duel.version == FIRST_VERSION + SAVES_PER_MOVE * moves  # the lab's count of saves
        move = choose(duel.state, 0, random.Random(f"{seed}:{duel.version}"))
        duel = await replay.play(duel.id, ALICE, duel.version, move.card, move.pillz, guild=GUILD)
    return duel


async def test_three_lab_seeds_replayed_as_practice_duels_have_the_same_winners(
    duels: PillzDuels, scheduler: Scheduler
) -> None:
    await starter(duels, ALICE)
    before = await books(duels.db)
    report = await lab_service(duels, 3).run("pillz", LabRequest(ALICE))
    assert await books(duels.db) == before  # no ledger row, no card, no duel, no job, no post
    assert [r.opponent.spec for r in report.rows] == ["ai"]
    deck = await duels.db.read(lambda conn: active_deck(conn, ALICE))
    assert deck is not None
    for seed, outcome in zip(report.seeds[0], report.outcomes[0], strict=True):
        duel = await replayed(duels, scheduler, seed, deck)
        assert duel.state is not None
        assert (duel.state.winner == 0, duel.state.winner == 1) == (outcome.won, outcome.lost)
        assert len(duel.state.history) == outcome.length
        assert tuple(sorted(f.card_id for f in duel.state.hands[0])) == outcome.cards


async def test_only_the_players_own_playable_deck_and_nothing_written_for_a_refusal(
    duels: PillzDuels, catalog: PillzCatalog
) -> None:
    await starter(duels, ALICE)
    deck = await duels.db.read(lambda conn: active_deck(conn, ALICE))
    assert deck is not None
    await duels.db.write(lambda conn: store_deck(conn, duels.clock.now(), ALICE, 2, deck[:5]))  # too short
    lab = lab_service(duels, 2)
    before = await books(duels.db)
    refusals: list[Refusal] = [
        # Bob owns nothing: Alice's deck is not his, his own slots are empty
        (NotAllowed, LabRequest(BOB), "pillz.error.no_active_deck", "Vous n'avez pas de deck actif"),
        (NotAllowed, LabRequest(BOB, deck=1), "pillz.lab.unplayable", "L'emplacement 1 est vide"),
        (NotAllowed, LabRequest(ALICE, deck=2), "pillz.lab.unplayable", "celui-ci en a 5"),
        (NotAllowed, LabRequest(ALICE, deck=3), "pillz.lab.unplayable", "L'emplacement 3 est vide"),
        (BadInput, LabRequest(ALICE, deck=5), "pillz.error.deck.slot", "de 1 à 4"),
        (BadInput, LabRequest(ALICE, deck="1"), "pillz.error.deck.slot", "de 1 à 4"),
        (BadInput, LabRequest(ALICE, opponent="hoss"), "error.bad_input", ""),
    ]
    await refuses(lab, "pillz", refusals)
    assert await books(duels.db) == before
    assert (
        await duels.db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM lab_cooldowns").fetchone()[0])
        == 0
    )

    def give_one_away(conn: Connection) -> None:
        copy = conn.execute(
            "SELECT id FROM cards WHERE owner_id = ? AND card_key = ?", (ALICE, deck[0])
        ).fetchone()[0]
        ledger.destroy_card(conn, duels.clock.now(), copy, ALICE, ledger.Movement("test.burn"))

    await duels.db.write(give_one_away)
    with pytest.raises(NotAllowed) as lost:
        await lab.run("pillz", LabRequest(ALICE))
    assert "Vous ne possédez plus" in said(lost.value)
    assert lost.value.key == "pillz.error.no_active_deck"


async def test_a_saved_slot_is_played_like_the_active_deck(duels: PillzDuels) -> None:
    await starter(duels, ALICE)
    report = await lab_service(duels, 2).run("pillz", LabRequest(ALICE, deck=1))
    assert text(report.job.subject, "fr") == "votre deck de l'emplacement 1"
    saved = await duels.db.read(lambda conn: deck_in_slot(conn, ALICE, 1))
    assert saved is not None
    assert report.job.deck == tuple(saved)
    assert all(len(o.cards) == 4 and set(o.cards) <= set(report.job.deck) for o in report.outcomes[0])


async def test_copies_of_another_game_do_not_make_a_pillz_deck_playable(duels: PillzDuels) -> None:
    """Bob saved Alice's deck in his slot 1 and owns copies with the same keys, but of another game's."""
    await starter(duels, ALICE)
    deck = await duels.db.read(lambda conn: active_deck(conn, ALICE))
    assert deck is not None

    def unit(conn: Connection) -> None:
        now = duels.clock.now()
        ensure_player(conn, BOB, now, duels.registry)
        for card in deck:
            ledger.mint_card(conn, now, BOB, "immortals", card, ledger.Movement("test.grant"))
        store_deck(conn, now, BOB, 1, deck)

    await duels.db.write(unit)
    lab = lab_service(duels, 2)
    await refuses(
        lab, "pillz", [(NotAllowed, LabRequest(BOB, deck=1), "pillz.lab.unplayable", "Vous ne possédez plus")]
    )
