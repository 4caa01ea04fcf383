"""The Pillz AI's C kernels (engine/pillz/kernels.pyx) against their NumPy fallback in one process: the
same choices in 500 lab duels other than the pinned ones, and every option's value to the bit in 20.

The pinned digests (test_ai_pinned.py) run on the kernels in the suite and on the fallback under
ENGINE_PURE=1 (tests/platform/test_native.py); this compares the two directly, on other seeds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.pillz import ai, blocks, outlook, search
from tests.engine.pillz.test_ai_pinned import digest, values_digest

CHOICE_SEEDS = range(200, 700)
VALUE_SEEDS = range(20, 40)


@pytest.mark.skipif(
    ai.kernels is None or search.kernels is None,
    reason="the kernels are not built here (ENGINE_PURE=1, or no compiler): the suite ran the fallback",
)
def test_the_kernels_choose_and_value_exactly_as_the_numpy_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    native = digest(CHOICE_SEEDS), values_digest(VALUE_SEEDS)
    monkeypatch.setattr(ai, "kernels", None)
    monkeypatch.setattr(search, "kernels", None)
    calls: list[
        str
    ] = []  # the fallback must really run (search.py is compiled: its globals are read at each call)
    for module, name in ((blocks, "tables"), (outlook.Outlooks, "chance")):
        monkeypatch.setattr(module, name, spy(getattr(module, name), calls, name))
    assert (digest(CHOICE_SEEDS), values_digest(VALUE_SEEDS)) == native
    assert {"tables", "chance"} <= set(calls)


def spy(function: Callable[..., Any], calls: list[str], name: str) -> Callable[..., Any]:
    def recorded(*args: Any) -> Any:
        calls.append(name)
        return function(*args)

    return recorded
