"""Builders for Immortal's War tests: the real catalog, units, spells and states with exact numbers."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.immortals.catalog import Effect, ImmortalsCatalog
from engine.immortals.engine import ImmortalsEngine
from engine.immortals.rules import Numbers
from engine.immortals.state import Fighter, ImmortalsState, SpellCard, Unit
from engine.protocol import CATALOG_OPTION, PlayerSetup
from engine.rng import RngState

ENGINE = ImmortalsEngine()
ROOT = Path(__file__).resolve().parents[3]


@cache
def catalog() -> ImmortalsCatalog:
    return ImmortalsCatalog.model_validate_json((ROOT / "data" / "immortals.json").read_text("utf-8"))


def unit(uid: str, attack: int = 3, defense: int = 3, terrain: str = "foret", **more: Any) -> Unit:
    fields: dict[str, Any] = {"card_id": uid.replace("-", "_"), "deck_index": 0, "family": "f", "level": 1}
    fields.update(more)
    return Unit(uid=uid, terrain=terrain, attack=attack, defense=defense, **fields)


def spell(sid: str, *effects: Effect, **more: Any) -> SpellCard:
    return SpellCard(sid=sid, spell_id=f"spell_{sid.replace('-', '_')}", effects=effects, **more)


def line_up(seat: int, attack: int = 3, defense: int = 3, terrain: str = "foret") -> tuple[Unit, ...]:
    return tuple(unit(f"u{seat}-{i}", attack, defense, terrain) for i in range(4))


def state(
    u0: tuple[Unit, ...] | None = None,
    u1: tuple[Unit, ...] | None = None,
    s0: tuple[SpellCard, ...] = (),
    s1: tuple[SpellCard, ...] = (),
    terrain: str = "plaine",
    engager: int = 0,
    seed: int = 1,
    **update: object,
) -> ImmortalsState:
    s = ImmortalsState(
        player_ids=(10, 20),
        terrain=terrain,
        engager=engager,
        engage_totals=(0, 0),
        units=(u0 or line_up(0), u1 or line_up(1)),
        spells=(s0, s1),
        rng=RngState(seed=seed),
    )
    return s.model_copy(update=update) if update else s


def stats(attack: int, defense: int, hp: int = 20, armor: int = 0, regen: int = 0) -> Numbers:
    """A unit's numbers for `rules.fight`."""
    return Numbers(attack, defense, hp, armor, regen, attack, 0, 0, False, False)


def record_side(uid: str) -> Fighter:
    """One side of a fight record (for tests that only read who fought)."""
    return Fighter(
        uid=uid,
        card_id="x",
        spell=None,
        spell_sid=None,
        spell_acted=False,
        terrain_mod=0,
        attack=3,
        defense=3,
        hp=20,
        armor=0,
        regen=0,
        power=3,
        healed=0,
    )


def setup(deck0: tuple[str, ...], deck1: tuple[str, ...], **extra: object) -> list[PlayerSetup]:
    return [
        PlayerSetup(seat=0, player_id=10, deck=deck0, extra=dict(extra)),
        PlayerSetup(seat=1, player_id=20, deck=deck1, extra=dict(extra)),
    ]


def options(**more: object) -> dict[str, object]:
    return {CATALOG_OPTION: catalog(), **more}
