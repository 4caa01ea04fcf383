"""A battle's steps shown one by one parse its state once: each click finds the state the previous one
saved (services/shared/kept_states.py, issue 39), and shows the same battle as a parsed state would."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog, DinocardState
from services.dinocard import DinocardServices
from services.dinocard.results import MATCHES, RULES
from tests.services.dinocard.test_battles import launch, two_packs, watch_to_end


async def test_steps_shown_one_by_one_parse_no_state(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = await two_packs(dino, catalog)
    clock.advance(timedelta(days=1))
    match = await launch(dino, mine, theirs)
    parsed: list[int] = []
    original = DinocardState.model_validate_json

    def counted(raw: str | bytes, **options: object) -> DinocardState:
        parsed.append(len(raw))
        return original(raw, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(DinocardState, "model_validate_json", counted)
    clicks = await watch_to_end(dino, match.id)
    assert clicks > 1
    assert parsed == []
    ended = await dino.battles.db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert ended.state is not None
    assert ended.state == original(RULES.engine.to_json(ended.state))
    assert ended.state.finished
    assert ended.status != "live"
