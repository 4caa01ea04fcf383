"""What a ranked start does again at every battle (issue 39): the active deck, the same kept setup from one
start to the next, is validated once; the catalog's cards are copied for battles once; the battle dealt
is `new_battle`'s (services/hoss/battle/dealer.py). The battle is created at its first pause (its state
written once) and its board drawn from what the start's unit played, as a read of it draws it."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from engine.hoss import (
    ENGINE,
    DeckSpec,
    HossCatalog,
    KnownCopies,
    Pass,
    Record,
    new_battle,
    opponent_setup,
    parse_setup,
    to_state,
)
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.hoss.battle import battle_log, battles, edits
from services.hoss.battle.dealer import Dealer
from services.hoss.battle.edits import Shown
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import catalog, player_with_deck, rows, service
from tests.support.statements import trace_writes


def count_validations(monkeypatch: pytest.MonkeyPatch) -> list[PlayerSetup]:
    """Every setup the ranked dealer validates from now on (`parse_setup`, each copy of each line checked).
    Counted at the service's side: the engine's modules may be compiled (core/native.py), and a compiled
    module's own calls do not go through its module's attributes."""
    calls: list[PlayerSetup] = []

    def counted(setup: PlayerSetup, catalog: HossCatalog, known: KnownCopies | None = None) -> DeckSpec:
        calls.append(setup)
        return parse_setup(setup, catalog, known)

    monkeypatch.setattr("services.hoss.battle.dealer.parse_setup", counted)
    return calls


async def test_a_second_start_validates_only_the_new_opponents_deck(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    validated = count_validations(monkeypatch)
    first = await ranked.start(1, 1, key="first")
    assert [setup.seat for setup in validated] == [0, 1]  # the player's deck and the opponent's
    copied = set(ranked.dealer._specs)  # the catalog's cards copied for battles, by card id
    assert copied

    await ranked.skip_to_end(1, first.battle_id)
    validated.clear()
    second = await ranked.start(1, 1, key="second")
    assert second.battle_id != first.battle_id
    assert [setup.seat for setup in validated] == [1]  # the new opponent's only: the player's kept deck
    assert len(set(ranked.dealer._specs) - copied) < 6  # only cards no battle of this catalog fielded yet


def test_a_dealt_battle_is_new_battles() -> None:
    hoss = catalog()
    dealer = Dealer(hoss)
    options = {CATALOG_OPTION: hoss, "move_pauses": True}
    for seed in range(4):
        player = opponent_setup(hoss, 3, random.Random(seed), seat=0, player_id=7)
        opponent = opponent_setup(hoss, 5, random.Random(seed + 100))
        for _ in range(2):  # the second deal uses the kept deck and card copies
            dealt = dealer.deal(player, opponent, seed)
            made = new_battle((player, opponent), seed, options, log=True)
            assert ENGINE.to_json(to_state(dealt)) == ENGINE.to_json(to_state(made))
            played: list[list[Record]] = [[], []]
            for battle, records in zip((dealt, made), played, strict=True):
                battles.advance(battle, 0, [], records, for_player=battles.AI)  # to the end, the AI on both
            assert played[0] == played[1]
            assert dealt.over


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_start_writes_the_battles_state_once_and_reads_nothing_back_for_its_board(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    statements = trace_writes(db, monkeypatch)
    started = await ranked.start(1, 1, key="first", locales=("fr",))
    assert [s for s in statements if s.startswith("UPDATE matches SET") and "state" in s] == []
    assert [s for s in statements if s.startswith("SELECT") and "hoss_battle_rounds" in s] == []
    assert [s for s in statements if s.startswith("SELECT") and "match_moves" in s] == []  # nor its last move

    def drawn_from_a_read(conn: Connection) -> Shown:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        return edits.shown_now(conn, row, catalog(), ("fr",))

    assert await db.read(drawn_from_a_read) == started.message
    view = await ranked.view(1, started.battle_id)
    assert (view.status, view.pause, view.deadline) == ("live", 1, clock.now() + battles.DECISION_TIMEOUT)


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_start_checks_the_live_battle_and_takes_its_number_in_one_read_and_arms_it_in_its_insert(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live battle's number is all a start needs of it, read with the new battle's number; the
    deadline's job names that number, so the battle's insert writes its deadline (no update after it)."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    statements = trace_writes(db, monkeypatch)
    started = await ranked.start(1, 1, key="first", locales=("fr",))
    tables = [" ".join(s.split(" ")[:3]) for s in statements]
    assert tables == [
        "INSERT INTO players",
        "SELECT result FROM",  # the idempotency key
        "SELECT rank, wins",
        "SELECT (SELECT number",  # the live battle's number and the next one
        "INSERT INTO jobs",
        "INSERT INTO matches",
        "INSERT INTO match_seats",
        "INSERT INTO idempotency",
    ]
    view = await ranked.view(1, started.battle_id)
    assert (view.status, view.pause, view.deadline) == ("live", 1, clock.now() + battles.DECISION_TIMEOUT)
    job = await rows(db, "SELECT payload FROM jobs WHERE state = 'due'")
    assert [json.loads(payload) for (payload,) in job] == [{"battle": started.battle_id, "pause": 1}]
    with pytest.raises(NotAllowed) as refused:
        await ranked.start(1, 1, key="second")
    assert refused.value.params == {"battle": started.battle_id}


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_the_message_of_a_battle_not_saved_since_is_recorded_without_a_read(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start's second unit records the message the response returned: the battle still at the
    version the response was drawn from, nothing was played since, so nothing is read to find it out."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first", locales=("fr",))
    statements = trace_writes(db, monkeypatch)
    await ranked.attach(1, started.battle_id, 4242, 9001, started.message)
    assert [s.split(" ")[0] for s in statements] == ["INSERT", "UPDATE"]  # the message, then the match's
    item = await db.read(
        lambda conn: conn.execute(
            "SELECT m.message_item, o.sent_message_id FROM matches m JOIN outbox o ON o.id = m.message_item"
            " WHERE m.number = ? AND m.game = 'hoss'",
            (started.battle_id,),
        ).fetchone()
    )
    assert item is not None
    assert item[1] == 9001


def moves_read(statements: list[str]) -> list[str]:
    """The reads of a battle's moves (not the next move number's)."""
    return [s for s in statements if s.startswith("SELECT") and "FROM match_moves" in s and "MAX" not in s]


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_an_answer_reads_no_move_while_live_and_never_looks_its_number_up_again(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer's unit holds the battle's row (its match id). A battle still live after it has no pause
    the AI took for its player (a missed deadline plays the battle to its end), so its moves are not read
    for its board or its kept controls; an answer that ends the battle reads them once, for the log."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    await ranked.attach(1, started.battle_id, 4242, 9001, started.message)
    statements = trace_writes(db, monkeypatch)
    await ranked.answer(1, started.battle_id, Pass(), key="a", pause=1)
    assert moves_read(statements) == []
    assert [s for s in statements if s.startswith("SELECT id FROM matches WHERE game")] == []
    assert [s for s in statements if "FROM match_seats" in s and not s.startswith("SELECT matches.*")] == []
    assert [s for s in statements if s.startswith("SELECT COALESCE(MAX(seq)")] == []  # each insert's own
    assert any(s.startswith("INSERT INTO outbox") for s in statements)  # its rounds' edits were queued

    for turn in range(100):
        view = await ranked.view(1, started.battle_id)
        if view.status != "live":
            break
        statements.clear()
        answered = await ranked.answer(1, started.battle_id, Pass(), key=f"p{turn}", pause=view.pause)
        assert len(moves_read(statements)) == (1 if answered.over else 0)
    assert view.status != "live"
    assert view.ai_decided == ()
    (last,) = await rows(db, "SELECT payload FROM outbox ORDER BY id DESC LIMIT 1")
    assert MessageSpec.from_json(last[0]).attachments  # the final board carries the log


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_an_answer_never_reads_the_viewed_marker(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The marker of the rounds already viewed is `view`'s alone: an answer neither reads nor changes
    it, and the next view returns only the rounds played since."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    seen = (await ranked.view(1, started.battle_id)).round  # the rounds so far viewed
    statements = trace_writes(db, monkeypatch)
    await ranked.answer(1, started.battle_id, Pass(), key="a", pause=1)
    assert [s for s in statements if "viewed" in s] == []
    later = (await ranked.view(1, started.battle_id)).new_rounds
    assert later
    assert all(r.round > seen for r in later)  # only the rounds the answer played


async def test_the_rounds_are_stored_as_orjson_writes_them_and_read_back_equal(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """Each unit that plays rounds stores each round's record (a start's first rounds, an answer's, the
    rest of the battle at a skip): written by orjson with sorted keys, about a tenth of `json.dumps`'s
    CPU, and read back as the engine wrote it."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    await ranked.skip_to_end(1, started.battle_id)

    def stored(conn: Connection) -> list[str]:
        rows = conn.execute("SELECT record FROM hoss_battle_rounds ORDER BY round").fetchall()
        return [str(r[0]) for r in rows]

    records = await db.read(stored)
    assert len(records) > 2
    for text in records:
        assert text == orjson.dumps(json.loads(text), option=orjson.OPT_SORT_KEYS).decode()
    read = await db.read(lambda conn: battle_log.rounds(conn, started.battle_id))
    assert read == [json.loads(text) for text in records]
