"""`benchmarks.tournaments` runs and prints a figure for every round's pairing and both pictures (the
figures themselves are for reading, not for a test: docs/performance.md, "Tournaments")."""

from __future__ import annotations

import sys

import pytest

from benchmarks import tournaments


def test_the_benchmark_prints_each_pairing_and_both_pictures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["tournaments", "--rounds", "1"])
    tournaments.main()
    out = capsys.readouterr().out
    assert out.count("Swiss pairing of round") == 6
    assert "standings picture, 64 players" in out
    assert "bracket picture, 64 players" in out
