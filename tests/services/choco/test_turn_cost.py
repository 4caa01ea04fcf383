"""What a Chocobataille turn costs (issue 39). The turn saves the game once, the next player's clock with
its state. The messages it queues (the thread's resolution, the next player's hand by DM) are read back by
the deliverer moments later: the specs the turn's unit wrote are kept by their JSON
(services/infra/kept_specs.py), so the deliverer's read parses none of them, and what it gets equals what
a parse of the stored text gives. Another process's items are parsed as before."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from core import i18n
from core.clock import ManualClock, to_db
from core.errors import NotFound
from engine.choco import ChocoState
from engine.choco.catalog import ChocoCatalog
from services.choco.decks import ChocoDecks
from services.choco.game_store import MATCHES, GameRow
from services.choco.games import ChocoGames
from services.choco.text import NAME_KEY, localized
from services.infra import kept_specs, messages
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Text, render_text
from services.infra.outbox import Outbox
from services.shared.kept_states import KeptStates
from store.db import Database
from tests.services.choco.conftest import GUILD
from tests.services.choco.helpers import ALICE, counted_loads
from tests.services.choco.helpers import started as in_thread
from tests.services.choco.test_game_concurrency import games, scheduler, started, turn_text

__all__ = ["games", "scheduler"]


@pytest.fixture(autouse=True)
def own_kept_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no spec kept. The kept specs are one dict per process, dropped whole when
    full (`KEPT_SPECS`): what the worker's earlier tests left there would decide whether this test's
    items are still kept when the deliverer reads them (124 left: both of a turn's posts parsed)."""
    monkeypatch.setattr(kept_specs, "_kept", {})


async def started_and_delivered(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> tuple[GameRow, Outbox]:
    """A started game whose start's posts are delivered: the outbox then holds only what a turn queues."""
    game = await started(db, clock, catalog, decks, games, registry)
    box = Outbox(db, clock, registry)
    for item in await box.due(100):
        await box.mark_sent(item.id, 1000 + item.id)
    return game, box


async def test_a_turns_posts_reach_the_deliverer_unparsed(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, box = await started_and_delivered(db, clock, catalog, decks, games, registry)
    parse = MessageSpec.from_json
    parsed: list[str] = []

    def counted(raw: str) -> MessageSpec:
        parsed.append(raw)
        return parse(raw)

    monkeypatch.setattr(MessageSpec, "from_json", staticmethod(counted))
    assert (
        await games.declare_text(game.id, game.player(game.state.active), turn_text(game))
    ).status == "played"
    items = await box.due(100)
    assert {item.target.kind for item in items} == {"channel", "dm"}  # the resolution, the next hand
    assert parsed == []

    def stored(item_id: int) -> Any:
        return db.read(
            lambda conn: conn.execute("SELECT payload FROM outbox WHERE id = ?", (item_id,)).fetchone()[0]
        )

    for item in items:
        assert item.spec == parse(await stored(item.id))
    monkeypatch.setattr(kept_specs, "_kept", {})  # written by another process
    # (`get`: with PostgreSQL, `due` claimed the items for this process, and would not return them again)
    assert [await box.get(item.id) for item in items] == items
    assert len(parsed) == len(items)


async def test_a_turn_saves_the_game_once_with_the_next_players_clock(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await started(db, clock, catalog, decks, games, registry)
    clock.advance(timedelta(hours=2))
    saves: list[dict[str, Any]] = []
    save = MATCHES.save

    def counted(conn: Any, match: Any, now: Any, **changes: Any) -> Any:
        saves.append(changes)
        return save(conn, match, now, **changes)

    monkeypatch.setattr(MATCHES, "save", counted)
    player = game.player(game.state.active)
    assert (await games.declare_text(game.id, player, turn_text(game))).status == "played"
    assert len(saves) == 1
    # only what a turn changes is written: not the status, the thread or the result, which it keeps
    assert set(saves[0]) == {"state", "data", "deadline_at"}
    now = await games.get(game.id)
    assert now.state.active != game.state.active
    assert now.turn_started_at == clock.now()
    assert now.deadline_at == clock.now() + timedelta(
        hours=24
    )  # the rulebook's 24 hours, from the resolution
    due = await db.read(
        lambda conn: conn.execute(
            "SELECT j.kind, j.due_at FROM jobs j JOIN match_jobs m ON m.job_id = j.id"
            " WHERE m.match_id = ? AND j.state = 'due' ORDER BY j.due_at",
            (now.match_id,),
        ).fetchall()
    )
    assert [kind for kind, _ in due] == ["choco:reminder", "choco:reminder", "choco:deadline"]


async def test_a_threads_game_is_found_with_one_load_and_only_from_its_server(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`/choco jouer` in a game's thread finds the game there before declaring (its unit loads it again,
    as it must): that look loads the game once, where it found the number and then loaded the game."""
    game_id = await in_thread(db, clock, catalog, games, registry)
    parsed = counted_loads(monkeypatch)
    assert await games.game_here(77, ALICE, GUILD) == game_id
    assert len(parsed) == 1
    with pytest.raises(NotFound):
        await games.game_here(77, ALICE, GUILD + 1)


class _Counted:
    """The unit's connection, recording each statement it runs."""

    def __init__(self, conn: Any, seen: list[str]) -> None:
        self._conn = conn
        self._seen = seen

    def execute(self, sql: str, *args: Any) -> Any:
        self._seen.append(sql)
        return self._conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self._seen.append(sql)
        return self._conn.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


async def test_a_turn_moves_the_next_players_deadlines_instead_of_replacing_them(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline and the two reminders are re-armed by one update, keeping their ids: a withdrawn row
    and a new one (with its link to the game) per job before, 11 statements on the jobs instead of 2."""
    game = await started(db, clock, catalog, decks, games, registry)
    clock.advance(timedelta(hours=2))

    def armed() -> Any:
        return db.read(
            lambda conn: conn.execute(
                "SELECT j.id, j.kind, j.due_at, j.payload FROM jobs j JOIN match_jobs m ON m.job_id = j.id"
                " WHERE m.match_id = ? AND j.state = 'due' ORDER BY j.kind, j.due_at",
                (game.match_id,),
            ).fetchall()
        )

    def cancelled() -> Any:
        return db.read(
            lambda conn: conn.execute("SELECT COUNT(*) FROM jobs WHERE state = 'cancelled'").fetchone()[0]
        )

    before = await armed()
    withdrawn_before = await cancelled()
    seen: list[str] = []
    write = db.write

    def counted(unit: Any, **options: Any) -> Any:
        return write(lambda conn: unit(_Counted(conn, seen)), **options)

    monkeypatch.setattr(db, "write", counted)
    player = game.player(game.state.active)
    assert (await games.declare_text(game.id, player, turn_text(game))).status == "played"
    monkeypatch.undo()
    on_jobs = [sql for sql in seen if " jobs " in sql or "match_jobs" in sql]
    assert len(on_jobs) == 2, on_jobs
    logged = [sql for sql in seen if "choco_game_log" in sql]
    assert len(logged) == 1, logged  # the entry's number taken by its insert, not read before it
    assert len(seen) == 10, seen  # the match read with its seats in one statement
    after = await armed()
    assert [(id_, kind, payload) for id_, kind, _, payload in after] == [
        (id_, kind, payload) for id_, kind, _, payload in before
    ]
    deadline = clock.now() + timedelta(hours=24)
    assert [due for _, _, due, _ in after] == [
        to_db(deadline),
        to_db(deadline - timedelta(hours=12)),
        to_db(deadline - timedelta(hours=1)),
    ]
    assert await cancelled() == withdrawn_before


async def test_a_deadline_waiting_for_its_retry_is_replaced_and_the_reminders_still_move(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> None:
    """A job with a failed attempt would be due at once if moved a day ahead (services/infra/scheduler.py):
    the turn withdraws it and arms a new one, as every turn did before; the others move."""
    game = await started(db, clock, catalog, decks, games, registry)

    def jobs_of(conn: Any) -> list[tuple[int, str, str]]:
        rows = conn.execute(
            "SELECT j.id, j.kind, j.state FROM jobs j JOIN match_jobs m ON m.job_id = j.id"
            " WHERE m.match_id = ? ORDER BY j.id",
            (game.match_id,),
        ).fetchall()
        return [tuple(row) for row in rows]

    before = await db.read(jobs_of)
    (failing,) = [job_id for job_id, kind, _ in before if kind == "choco:deadline"]
    await db.write(lambda conn: conn.execute("UPDATE jobs SET attempts = 1 WHERE id = ?", (failing,)))
    player = game.player(game.state.active)
    assert (await games.declare_text(game.id, player, turn_text(game))).status == "played"
    after = await db.read(jobs_of)
    reminders = [(job_id, kind, state) for job_id, kind, state in before if kind == "choco:reminder"]
    assert after[:2] == reminders
    (deadline,) = after[2:]
    assert deadline[1:] == ("choco:deadline", "due")
    assert deadline[0] > failing
    state = await db.read(
        lambda conn: conn.execute("SELECT state FROM jobs WHERE id = ?", (failing,)).fetchone()[0]
    )
    assert state == "cancelled"


async def test_turns_parse_no_state_that_this_process_saved(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each turn's unit loads the game the previous one saved: the state is kept by the JSON its save
    wrote (services/shared/kept_states.py), so three turns parse no state, and the game they leave is
    the one a parse of the stored row gives. A row another process wrote is parsed as before."""
    game = await started(db, clock, catalog, decks, games, registry)
    parsed: list[int] = []
    parse = ChocoState.model_validate_json

    def counted(raw: str | bytes, **options: Any) -> ChocoState:
        parsed.append(len(raw))
        return parse(raw, **options)

    monkeypatch.setattr(ChocoState, "model_validate_json", counted)
    for _ in range(3):
        game = await games.get(game.id)
        player = game.player(game.state.active)
        assert (await games.declare_text(game.id, player, turn_text(game))).status == "played"
    assert parsed == []
    stored = await db.read(
        lambda conn: conn.execute("SELECT state FROM matches WHERE id = ?", (game.match_id,)).fetchone()[0]
    )
    assert (await games.get(game.id)).state == parse(stored)
    assert isinstance(MATCHES.states, KeptStates)
    MATCHES.states.kept.clear()  # as if another process had saved it
    assert (await games.get(game.id)).state == parse(stored)
    assert len(parsed) == 1


async def test_a_turns_posts_name_their_cards_without_a_catalog_text(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card name is written in both languages (`Text.per_locale`): the deliverer shows the reader's with
    no catalog text to look up and format, where each of a turn's thirty-odd names took a `t` call of its
    own (`choco.board.name`, which still renders a name written that way, the same)."""
    game, box = await started_and_delivered(db, clock, catalog, decks, games, registry)
    assert (
        await games.declare_text(game.id, game.player(game.state.active), turn_text(game))
    ).status == "played"
    asked: list[str] = []
    t = i18n.t

    def counted(key: str, locale: str | None = None, /, **params: object) -> str:
        asked.append(key)
        return t(key, locale, **params)

    monkeypatch.setattr(messages, "t", counted)
    names = 0
    for item in await box.due(100):
        for embed in item.spec.embeds:
            for part in (embed.description, *(f.value for f in embed.fields)):
                render_text(part, "fr")
                names += json.dumps(Text.to_json(part) if part else {}).count('"=locale"')
    assert NAME_KEY not in asked
    assert names >= 10
    card = catalog.cards[0]
    for locale in ("fr", "en"):
        old = Text(NAME_KEY, {"fr": card.name.fr, "en": card.name.en})
        assert render_text(localized(card.name), locale) == render_text(old, locale)


async def test_a_turns_log_entry_is_written_by_orjson_with_its_keys_sorted(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The log entry of each turn (its steps and every event) was `json.dumps`'s: 15 µs of the turn's unit
    for 0.8 kB, against 2 µs by orjson. The entry reads back the same, its keys in the same order."""
    game = await started(db, clock, catalog, decks, games, registry)
    dumped: list[Any] = []
    dumps = json.dumps

    def counted(value: Any, **options: Any) -> str:
        dumped.append(value)
        return dumps(value, **options)

    monkeypatch.setattr(json, "dumps", counted)
    assert (
        await games.declare_text(game.id, game.player(game.state.active), turn_text(game))
    ).status == "played"
    monkeypatch.undo()
    assert not [value for value in dumped if isinstance(value, dict) and "events" in value]
    stored = await db.read(
        lambda conn: conn.execute(
            "SELECT data FROM choco_game_log WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (game.match_id,)
        ).fetchone()[0]
    )
    entry = json.loads(stored)
    assert entry["events"]
    assert entry["steps"]
    assert list(entry) == sorted(entry)
    assert all(list(event) == sorted(event) for event in entry["events"])
