"""`benchmarks.lab`'s latency part measures the bot with the collector as bot.py's process has it.

Without it, every full collection of the shared process walked the modules, the catalogs and the
emulator's world (160,000 to 230,000 objects, 80 to 370 ms) and landed, once every
10 s or so of load, in about one 5-second window in two: the ~200 ms stall of docs/performance.md."""

from __future__ import annotations

import gc
import random

import pytest

from benchmarks import lab
from benchmarks.command_latency import Figures, Paced
from discord_app.bot import GC_THRESHOLDS
from emulator.world import User


async def test_each_phase_starts_with_the_start_up_frozen_and_the_thresholds_of_bot_py(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, tuple[int, ...]]] = []

    async def paced(
        act: object, users: list[User], rate: float, seconds: float, rng: random.Random, label: str
    ) -> Paced:
        seen.append((gc.get_freeze_count(), gc.get_threshold()))
        return Paced(rate, Figures(label, 1, seconds, 0.0, 1.0, 1.0, 1.0, 1.0), 0)

    monkeypatch.setattr(lab, "run_paced", paced)
    before = gc.get_threshold()
    await lab.latency_under_labs(0, 100.0, 0.1, lambda line: None, idle=False)
    assert len(seen) == 2  # without labs, then with
    for frozen, thresholds in seen:
        assert frozen > 100_000  # the modules, catalogs, bot and emulator: no full collection walks them
        assert thresholds == GC_THRESHOLDS
    assert gc.get_freeze_count() == 0  # thawed for the next run
    assert gc.get_threshold() == before
