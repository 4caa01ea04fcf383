"""The golden playthroughs (tests/engine/golden.py): each checked-in game replays to the same log.

A failure means a change of rules (or of a catalog in data/) altered a seeded game; the message shows
the first lines of the diff and the command that rewrites the files when the change is intended.
"""

from __future__ import annotations

import pkgutil

import pytest

import engine as engine_package
import engine.pillz.engine as pillz_engine
from engine.pillz.state import START_LIFE
from tests.engine.game_checks import Scenario, scenario, scenarios
from tests.engine.golden import UPDATE_COMMAND, diff, load, render, replay

SCENARIOS = scenarios()


def mismatch(sc: Scenario) -> str | None:
    """Why the checked-in log of `sc` no longer matches its replay, or None when it does."""
    expected = sc.path.read_text("utf-8")
    actual = render(replay(sc, load(sc)))
    if actual == expected:
        return None
    return (
        f"{sc.path.name} of {sc.game} no longer replays the same: a rule or catalog change altered this "
        f"seeded game.\n{diff(expected, actual, f'{sc.game}/golden/{sc.path.name}')}\n"
        f"If the change is intended, regenerate the golden files with `{UPDATE_COMMAND} {sc.game}` "
        "and review their diff."
    )


@pytest.mark.parametrize("sc", SCENARIOS, ids=[f"{s.game}-{s.name}" for s in SCENARIOS])
def test_the_golden_game_replays_to_the_same_log(sc: Scenario) -> None:
    problem = mismatch(sc)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


@pytest.mark.parametrize("sc", SCENARIOS, ids=[f"{s.game}-{s.name}" for s in SCENARIOS])
def test_the_golden_game_is_a_whole_game(sc: Scenario) -> None:
    stored = load(sc)
    assert "error" not in stored
    assert stored["outcome"] is not None
    assert stored["outcome"]["reason"].startswith(f"{sc.game}.outcome.")
    assert (stored["game"], stored["name"], stored["seed"]) == (sc.game, sc.name, sc.seed)
    assert all(step["events"] for step in stored["steps"])


def test_every_engine_has_a_golden_game() -> None:
    """A game package without its `checks` module would escape the golden and property tests unnoticed."""
    games = {info.name for info in pkgutil.iter_modules(engine_package.__path__) if info.ispkg}
    assert games == {sc.game for sc in SCENARIOS}


def test_a_changed_rule_shows_as_a_diff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison must be able to fail: one number of the Pillz rules changed, the duel differs."""
    monkeypatch.setattr(pillz_engine, "START_LIFE", START_LIFE - 1)
    problem = mismatch(scenario("pillz", "duel"))
    assert problem is not None
    assert UPDATE_COMMAND in problem
    changed = [line[0] for line in problem.splitlines() if '"life": [' in line and line[:1] in "-+"]
    assert "-" in changed, problem
    assert "+" in changed, problem
