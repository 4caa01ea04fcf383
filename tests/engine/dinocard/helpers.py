"""Builders for Dinocard tests: cards with exactly the numbers a test needs, and battles whose packs are
played in the given order (every card kept on top, as « Stratégie » does), read as named events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import LocalizedText
from engine.dinocard.battle import Battle, Result
from engine.dinocard.catalog import Ability, Cost, DinocardCard, DinocardCatalog
from engine.dinocard.log import board_data, to_events
from engine.dinocard.table import Stats


def _abilities(kinds: dict[str, int]) -> tuple[Ability, ...]:
    return tuple(Ability(kind=k, value=v) for k, v in kinds.items())


def dinoz(
    card_id: str,
    force: int = 1,
    endurance: int = 9,
    eclosion: int = 1,
    element: str = "feu",
    colored: int = 0,
    grey: int = 0,
    **kinds: int,
) -> DinocardCard:
    """A dinoz; keyword capacities are given as `flying=0`, valued ones as `poison=2`."""
    return DinocardCard(
        id=card_id,
        name=LocalizedText(fr=card_id, en=card_id),
        element=element,
        type="dinoz",
        rarity="commune",
        cost=Cost(colored=colored, grey=grey),
        eclosion=eclosion,
        force=force,
        endurance=endurance,
        abilities=_abilities(kinds),
    )


def card(
    card_id: str, kind: str, element: str = "feu", colored: int = 0, grey: int = 0, **kinds: int
) -> DinocardCard:
    """An incantation, enchantement or objet with the given effects."""
    return DinocardCard(
        id=card_id,
        name=LocalizedText(fr=card_id, en=card_id),
        element=element,
        type=kind,
        rarity="commune",
        cost=Cost(colored=colored, grey=grey),
        abilities=_abilities(kinds),
    )


def rock(card_id: str, element: str = "feu") -> DinocardCard:
    """A card that cannot be paid before six energies of its element: it feeds the energy zone."""
    return card(card_id, "incantation", element=element, colored=6, damage_player=1)


def flicker(card_id: str = "flicker", damage: int = 1) -> DinocardCard:
    return card(card_id, "incantation", damage_player=damage)


@dataclass
class Fight:
    """A battle of two ordered packs; `steps[i]` holds step i's events as (kind, data)."""

    a: Sequence[DinocardCard]
    b: Sequence[DinocardCard]
    life: tuple[int, int] = (20, 20)
    first: int = 0
    seed: int = 1
    result: Result = field(init=False)
    steps: list[list[tuple[str, dict[str, Any]]]] = field(init=False)

    def __post_init__(self) -> None:
        tables = (tuple(Stats(c) for c in self.a), tuple(Stats(c) for c in self.b))
        sizes = (len(self.a), len(self.b))
        self.result = Battle(tables, sizes, sizes, self.life, self.first, self.seed).run()
        self.decks = ([c.id for c in self.a], [c.id for c in self.b])
        self.steps = [
            [(e.kind, dict(e.data)) for raw in step for e in to_events(raw, self.decks)]
            for step in self.result.log
        ]

    def step(self, phase: int, part: int) -> list[tuple[str, dict[str, Any]]]:
        """Phase `phase` (1-based, in round 1) part 0: first player's turn, 1: second's, 2: combat."""
        return self.steps[3 * (phase - 1) + part]

    def kinds(self, phase: int, part: int) -> list[str]:
        return [kind for kind, _ in self.step(phase, part)]

    def all(self, kind: str, **match: Any) -> list[tuple[int, dict[str, Any]]]:
        """(step index, data) of every event of `kind` whose data has the `match` values."""
        return [
            (index, data)
            for index, step in enumerate(self.steps)
            for k, data in step
            if k == kind and all(data.get(key) == value for key, value in match.items())
        ]

    def board(self, phase: int, part: int, viewer: int | None = None) -> dict[str, Any]:
        raw = next(e for e in self.result.log[3 * (phase - 1) + part] if e[0] == 23)
        return board_data(raw, self.decks, viewer)

    @property
    def end(self) -> dict[str, Any]:
        return self.all("ended")[-1][1]


def phase_of(index: int) -> tuple[int, int]:
    """(phase, part) of a step index in round 1."""
    return index // 3 + 1, index % 3


def small_catalog(cards: Sequence[DinocardCard], filler: int = 7) -> DinocardCatalog:
    """A valid catalog holding `cards`, `filler` plain dinoz and five masters built from those."""
    fill = [dinoz(f"filler{i}") for i in range(filler)]
    pack = [f.id for f in fill for _ in range(3)][:20]
    masters = [
        {"id": f"m{i}", "name": {"fr": f"M{i}", "en": f"M{i}"}, "level": i + 1, "pack": pack}
        for i in range(5)
    ]
    raw = {
        "game": "dinocard",
        "version": 1,
        "cards": [c.model_dump() for c in [*cards, *fill]],
        "masters": masters,
    }
    return DinocardCatalog.model_validate(raw)
