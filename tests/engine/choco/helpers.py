"""Shared set-up for the Chocobataille engine tests of card effects: an effect, a wizard and a pure effect
card, built in code."""

from __future__ import annotations

from typing import Any

from engine.choco.catalog import Effect
from engine.choco.state import (
    Card,
)


def effect(trigger: str, *steps: dict[str, Any], duration: int | None = None, stays: bool = False) -> Effect:
    text = {"fr": "x", "en": "x"}
    return Effect.model_validate(
        {"name": text, "text": text, "trigger": trigger, "steps": steps, "duration": duration, "stays": stays}
    )


def wiz(uid: str, pa: int = 2, pv: int = 5, card_id: str = "n") -> Card:
    return Card(uid=uid, card_id=card_id, pa=pa, pv=pv, max_pv=pv, base_pa=pa, base_pv=pv)


def pure(uid: str, card_id: str = "p") -> Card:
    return Card(uid=uid, card_id=card_id, pa=0, pv=0, max_pv=0, pure=True)
