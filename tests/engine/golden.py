"""Golden playthroughs: one seeded whole game per engine, checked in, so any change of rules shows as a diff.

Each scenario (declared in `tests/engine/<game>/checks.py`, see `game_checks.py`) plays a game through
the engine protocol only (no services) with the game's own policy (HOSS's simple AI, Pillz's AI, a fixed
seeded policy for Chocobataille) on the real catalog of `data/`, and writes its log to
`tests/engine/<game>/golden/<name>.json`: the seed, the setup, every action with the events it produced,
the final outcome and the final state. `tests/engine/test_golden.py` replays the stored actions from the
stored seed and setup and compares the log it gets with the file, line by line.

A rule change, a catalog change or a policy change that alters a game is meant to show up there; when
it is intended, regenerate the files and review their diff like code:

    python -m tests.engine.golden --update            # every game
    python -m tests.engine.golden --update pillz      # one game
    python -m tests.engine.golden                     # only report which files are out of date

The format is JSON broken over lines only where a value does not fit on one (each hit of a HOSS round,
each card of the final state gets its own line), keys sorted, so a change touches the lines of the
actions and events it changes and little else.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.protocol import CATALOG_OPTION, PlayerSetup, Setup
from tests.engine.game_checks import ROOT, Scenario, catalog, scenarios

UPDATE_COMMAND = "python -m tests.engine.golden --update"
FORMAT = 1


# --- playing and replaying ----------------------------------------------------------------------------


def _setup_json(setup: Setup) -> dict[str, Any]:
    return {
        "players": [
            {"seat": p.seat, "player_id": p.player_id, "deck": list(p.deck), "extra": dict(p.extra)}
            for p in setup.players
        ],
        "options": dict(setup.options),
    }


def _setup_from_json(raw: Mapping[str, Any], game: str) -> tuple[list[PlayerSetup], dict[str, Any]]:
    players = [
        PlayerSetup(seat=p["seat"], player_id=p["player_id"], deck=tuple(p["deck"]), extra=p["extra"])
        for p in raw["players"]
    ]
    return players, {**raw["options"], CATALOG_OPTION: catalog(game)}


def _log(
    sc: Scenario,
    setup: Mapping[str, Any],
    choose: Callable[[Any, list[int], int], tuple[int, Any] | None],
) -> dict[str, Any]:
    """Play from the stored setup, asking `choose` for each move (None: no move left to replay)."""
    engine = sc.engine
    players, options = _setup_from_json(setup, sc.game)
    state = engine.new_game(players, sc.seed, options)
    steps: list[dict[str, Any]] = []
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": sc.game,
        "name": sc.name,
        "why": sc.why,
        "seed": sc.seed,
        "catalog_version": catalog(sc.game).version,
        "setup": setup,
        "steps": steps,
    }
    while current := engine.current_players(state):
        if len(steps) >= engine.max_steps:
            doc["error"] = f"more than max_steps={engine.max_steps} moves"
            break
        move = choose(state, current, len(steps))
        if move is None:
            doc["error"] = "the game goes on after the last recorded move"
            break
        seat, action = move
        step: dict[str, Any] = {"seat": seat, "action": engine.action_to_json(action)}
        steps.append(step)
        try:
            state, events = engine.apply(state, seat, action)
        except IllegalAction as error:
            step["illegal"] = error.key
            doc["error"] = "a recorded move is no longer legal"
            break
        step["events"] = [e.to_json() for e in events]
    outcome = engine.outcome(state)
    doc["outcome"] = None if outcome is None else outcome.to_json()
    doc["final_state"] = json.loads(engine.to_json(state))
    return doc


def record(sc: Scenario) -> dict[str, Any]:
    """Play the scenario with its policy: what `--update` writes."""
    policy = sc.policy(sc.seed)
    return _log(sc, _setup_json(sc.setup()), lambda state, current, _: policy(state, current))


def replay(sc: Scenario, stored: Mapping[str, Any]) -> dict[str, Any]:
    """Play the stored moves again from the stored seed and setup: what the test compares."""
    engine = sc.engine
    moves = [(s["seat"], engine.action_from_json(s["action"])) for s in stored["steps"]]

    def choose(state: Any, current: list[int], index: int) -> tuple[int, Any] | None:
        return moves[index] if index < len(moves) else None

    return _log(sc, stored["setup"], choose)


# --- the file format ----------------------------------------------------------------------------------

WIDTH = 110  # a value whose compact JSON fits this many characters stays on one line


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _flat(value: Any, ordered: bool = False) -> str:
    """One-line JSON; keys sorted, except the log's own records when `ordered` (seat, action, events and
    an event's kind, data, visible_to), which keep the order they are written in."""
    if isinstance(value, dict):
        keys = list(value) if ordered else sorted(value)
        return (
            "{"
            + ", ".join(f"{_compact(k)}: {_flat(value[k], ordered and k == 'events')}" for k in keys)
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_flat(item, ordered) for item in value) + "]"
    return _compact(value)


def _pretty(value: Any, indent: str = "", ordered: bool = False) -> str:
    """JSON broken over lines only where a value is too long for one: stable, and a change of one hit,
    event or card touches its own line."""
    flat = _flat(value, ordered)
    if len(flat) + len(indent) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + " "
    if isinstance(value, dict):
        keys = list(value) if ordered else sorted(value)
        items = [f"{inner}{_compact(k)}: {_pretty(value[k], inner, ordered and k == 'events')}" for k in keys]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{_pretty(item, inner, ordered)}" for item in value]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def render(doc: Mapping[str, Any]) -> str:
    """The stable, diff-friendly text of a log (see the module docstring). The document's and the steps'
    keys keep the order they are written in (seat, action, events), everything else is sorted."""
    lines = [f" {_compact(key)}: {_pretty(value, ' ', ordered=key == 'steps')}" for key, value in doc.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load(sc: Scenario) -> dict[str, Any]:
    return json.loads(sc.path.read_text("utf-8"))


def diff(expected: str, actual: str, name: str, limit: int = 60) -> str:
    """The first lines of a unified diff between the checked-in log and the replayed one."""
    lines = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"{name} (checked in)",
            f"{name} (replayed)",
            lineterm="",
        )
    )
    shown = [line if len(line) <= 400 else line[:400] + " ..." for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(f"... {len(lines) - limit} more diff lines")
    return "\n".join(shown)


# --- the command --------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.golden", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games to handle (default: every game)")
    parser.add_argument(
        "--update", action="store_true", help="play the scenarios again and rewrite the files"
    )
    args = parser.parse_args(argv)
    unknown = set(args.games) - {s.game for s in scenarios()}
    if unknown:
        parser.error(f"unknown game(s): {', '.join(sorted(unknown))}")
    stale = 0
    for sc in scenarios():
        if args.games and sc.game not in args.games:
            continue
        text = render(record(sc))
        old = sc.path.read_text("utf-8") if sc.path.exists() else ""
        shown = sc.path.relative_to(ROOT)
        if text == old:
            print(f"{shown}: up to date")
            continue
        if args.update:
            sc.path.parent.mkdir(parents=True, exist_ok=True)
            sc.path.write_text(text, "utf-8")
            print(f"{shown}: rewritten ({len(text.splitlines())} lines); review its diff")
        else:
            stale += 1
            print(f"{shown}: out of date\n{diff(old, text, str(shown))}")
    if stale:
        print(f"run `{UPDATE_COMMAND}` if the change is intended")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
