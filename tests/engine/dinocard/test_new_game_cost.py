"""What computing a battle costs beyond the battle (issue 39: a challenge's launch computes it in its write
unit, the lab a thousand times): the decks' cards are found by id without hashing their pydantic models,
the state is built without validating the log again, equal to the state validation gives, and written
as JSON (at the launch, then at every step shown) without pydantic's serializer, to the same text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.dinocard.catalog import DinocardCard, DinocardCatalog
from engine.dinocard.engine import DinocardEngine
from engine.dinocard.state import WATCHER, Advance, DinocardState
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog

ENGINE = DinocardEngine()


@pytest.fixture(scope="module")
def catalog() -> DinocardCatalog:
    return load_catalog(DATA_DIR / "dinocard.json", DinocardCatalog)


def _setups(catalog: DinocardCatalog, seed: int) -> list[PlayerSetup]:
    """Two sample packs, the first with skills and a bonus card, as a challenge's launch gives them."""
    players = ENGINE.sample_setup(random.Random(seed), catalog).players
    bonus = next(c.id for c in catalog.cards if players[0].deck.count(c.id) < 2)
    extra = {"skills": {"life": 2, "bonus": 1, "perception": 1}, "bonus": [bonus]}
    return [PlayerSetup(0, players[0].player_id, players[0].deck, extra), players[1]]


def test_a_battle_hashes_none_of_its_cards(catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch) -> None:
    setups = _setups(catalog, 1)
    ENGINE.new_game(setups, 1, {CATALOG_OPTION: catalog})  # the catalog's table of numbers, once
    hashed: list[str] = []
    hash_of = DinocardCard.__hash__

    def counted(card: Any) -> int:
        hashed.append(card.id)
        return hash_of(card)

    monkeypatch.setattr(DinocardCard, "__hash__", counted)
    ENGINE.new_game(setups, 2, {CATALOG_OPTION: catalog})
    assert hashed == []


def test_a_battle_validates_no_state_and_builds_the_state_validation_gives(
    catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    validated: list[object] = []
    init = DinocardState.__init__

    def counted(self: Any, **data: Any) -> None:
        validated.append(data)
        init(self, **data)

    monkeypatch.setattr(DinocardState, "__init__", counted)
    for seed in range(12):
        state = ENGINE.new_game(_setups(catalog, seed), seed, {CATALOG_OPTION: catalog})
        assert validated == []
        again = DinocardState.model_validate(state.model_dump())
        assert again == state
        assert again.model_dump_json() == state.model_dump_json()
        assert ENGINE.from_json(ENGINE.to_json(state)) == state


def test_a_state_is_written_without_pydantics_serializer_as_pydantic_writes_it(
    catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = []
    for seed in range(8):
        state = ENGINE.new_game(_setups(catalog, seed), seed, {CATALOG_OPTION: catalog})
        states.append(state)
        while not state.finished:
            state, _ = ENGINE.apply(state, WATCHER, Advance(ENGINE.to_phase_end(state)))
            states.append(state)
    expected = [state.model_dump_json() for state in states]
    loaded = ENGINE.from_json(expected[-1])  # a state parsed back, as another process's save is
    expected.append(loaded.model_dump_json())
    written: list[str] = []

    def serialized(self: Any, **kwargs: Any) -> str:
        written.append("model_dump_json")
        return ""

    monkeypatch.setattr(DinocardState, "model_dump_json", serialized)
    assert [ENGINE.to_json(state) for state in [*states, loaded]] == expected
    assert written == []
