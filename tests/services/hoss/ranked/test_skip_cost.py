"""What « Passer à la fin » costs (issue 39): its unit, the heaviest of a ranked battle, plays the rest of
the battle and queues the final board with the battle's log attached in every language. The battle is
read once (what its step saved is what the board is drawn from), its rounds and decisions once (for the
board and the log both), and the log's rounds are read once for every language it is told in."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.clock import ManualClock
from services.hoss.battle import battles, log, replay, view
from services.hoss.battle.view import SideView
from services.infra.games import GameRegistry
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import catalog, choose, player_with_deck, service
from tests.support.statements import trace_writes


def count_log_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every battle log (a JSON document starting with its sorted keys' first, "battle") parsed from now
    on, by any module."""
    parsed: list[str] = []
    loads = json.loads

    def counted(raw: str | bytes, **kwargs: Any) -> Any:
        if isinstance(raw, str) and raw.startswith('{"battle":'):
            parsed.append(raw)
        return loads(raw, **kwargs)

    monkeypatch.setattr(json, "loads", counted)
    return parsed


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_skip_reads_the_battle_once_and_its_rounds_and_decisions_once(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    await ranked.attach(1, started.battle_id, 4242, 9001, started.message)
    statements = trace_writes(db, monkeypatch)
    logs = count_log_parses(monkeypatch)
    result = await ranked.skip_to_end(1, started.battle_id)
    monkeypatch.undo()

    selects = [s for s in statements if s.startswith("SELECT")]
    # the battle read by the click's check, then by the end's guard against a second end (`battles.end`)
    assert len([s for s in selects if " FROM matches " in s and "number" in s]) == 2
    assert len([s for s in selects if "FROM hoss_battle_rounds" in s and "viewed" not in s]) == 1
    assert len([s for s in selects if "FROM match_moves" in s and "MAX" not in s]) == 1
    edits = [s for s in statements if s.startswith("INSERT INTO outbox")]
    assert len(edits) == 1  # the final board, its log attached

    def now(conn: Connection) -> tuple[battles.BattleRow, str]:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        return row, replay.stored_log(conn, row)

    row, stored = await db.read(now)
    assert logs == []  # the log's JSON written once, not parsed back to be told
    assert result == battles.result_of(row, row.hoss_state)  # as a read of the ended battle finds it
    assert json.loads(stored)["outcome"] is not None


def test_the_logs_json_is_written_as_json_dumps_wrote_it() -> None:
    """orjson writes the log as `json.dumps` with sorted keys, compact separators and non-ASCII text
    kept did: a player's downloaded file, and the replay check, compare texts."""
    document = {"battle": 3, "rounds": [{"sides": [{"name": "Élan ⚔", "hp": [1, 2]}]}], "a": None, "z": True}
    expected = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert replay.log_json(document) == expected


async def test_the_log_reads_its_rounds_once_for_every_language(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    await ranked.skip_to_end(1, started.battle_id)

    def stored(conn: Connection) -> str:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        return replay.stored_log(conn, row)

    text = await db.read(stored)
    sides: list[SideView] = []
    side_of = view.side_of

    def counted(data: dict[str, object]) -> SideView:
        sides.append(side_of(data))
        return sides[-1]

    monkeypatch.setattr("services.hoss.battle.log.side_of", counted)
    story, written = log.log_files(started.battle_id, json.loads(text), catalog())
    rounds = json.loads(text)["rounds"]
    assert len(sides) == 2 * len(rounds)  # each round's two sides, once for both languages
    assert written.text == text
    assert isinstance(story.text, Text)
    assert set(story.text.params) == {"fr", "en"}
    for locale in ("fr", "en"):
        assert story.text.params[locale] == log.readable_log(text, catalog(), locale)


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_the_answer_that_ends_a_battle_reads_its_rounds_and_decisions_once(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last answer's unit queues the final board with the log attached: the rounds it reads for the
    board's names and the decisions it reads for the board's last line are the log's inputs too."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="first")
    await ranked.attach(1, started.battle_id, 4242, 9001, started.message)
    statements = trace_writes(db, monkeypatch)
    view = await ranked.view(1, started.battle_id)
    answered: list[str] = []
    for turn in range(200):
        statements.clear()
        await ranked.answer(1, started.battle_id, choose(view, turn), key=f"a{turn}", pause=view.pause)
        answered = list(statements)  # the answer's unit alone, not the view's below
        view = await ranked.view(1, started.battle_id)
        if view.status != "live":
            break
    assert view.status != "live"
    selects = [s for s in answered if s.startswith("SELECT")]
    assert len([s for s in selects if "FROM hoss_battle_rounds" in s and "viewed" not in s]) == 1
    assert len([s for s in selects if "FROM match_moves" in s and "MAX" not in s]) == 1
    assert [s for s in selects if s.startswith("SELECT id FROM matches WHERE game")] == []
    assert [s for s in answered if s.startswith("INSERT INTO outbox")]  # the rounds' edits, the last final
