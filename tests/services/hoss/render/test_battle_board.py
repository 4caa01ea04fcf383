"""The battle board's texts (services/hoss/render/battle.py): the names of the cards on it are written
once per language and board, for its description and both sides' fields (issue 39), and the board reads
exactly as each of those texts written on its own."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from engine.hoss import HossCatalog
from services.hoss.battle import battle_log, battles, edits
from services.hoss.battle.view import Board, boards
from services.hoss.render import battle as render_battle
from services.infra.games import GameRegistry
from services.infra.messages import render_text
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import catalog, player_with_deck, service


async def a_board(db: Database, clock: ManualClock, registry: GameRegistry) -> Board:
    """The board of a battle a few rounds in, creatures on both sides."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="s")
    for turn in range(3):
        view = await ranked.controls(1, started.battle_id)
        await ranked.answer(1, started.battle_id, view.legal[0], key=f"a{turn}", pause=view.pause)

    def unit(conn: Connection) -> Board:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        records = battle_log.rounds_of(conn, row.match_id)
        return boards(edits.now_of(conn, row), records[:-1], records[-1:])[0]

    return await db.read(unit)


async def test_a_boards_card_names_are_written_once_per_language(
    db: Database, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = await a_board(db, clock, registry)
    assert board.sides[0].creatures
    assert board.sides[1].creatures
    written: list[str] = []
    names = render_battle.card_names

    def counted(board: Board, catalog: HossCatalog, locale: str) -> dict[str, str]:
        written.append(locale)
        return names(board, catalog, locale)

    monkeypatch.setattr(render_battle, "card_names", counted)
    spec = render_battle.battle_spec(board, catalog(), locales=("fr", "en"))
    assert written == ["fr", "en"]

    (embed,) = spec.embeds
    for locale in ("fr", "en"):
        alone = render_battle.description(board, catalog(), locale)  # writing the names itself, as before
        assert render_text(embed.description, locale) == alone
        for seat, field in enumerate(embed.fields):
            header = render_battle.player_name(board.owner) if seat == 0 else None
            side = render_battle.side_field(board, seat, catalog(), header, (locale,))
            assert render_text(field.value, locale) == render_text(side, locale)
