"""The `games` import contract (tools/import_contracts.py) finds every game without a list: a game added
in its own folders is held to it with no edit of pyproject.toml, and an import between two games, or
from the platform to a game, breaks it."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest

from tests.support.registries import every_game
from tools.import_contracts import GamesContract

ROOT = Path(__file__).resolve().parents[2]


def contract_options(layer: str = "engine") -> dict[str, Any]:
    """The options of the `games` contract over `layer` and its siblings (the code's, or the tests')."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    (found,) = [c for c in config["contracts"] if c["type"] == "games" and layer in c["game_layers"]]
    return {k: v for k, v in found.items() if k not in ("name", "type")}


@pytest.fixture
def graph() -> grimp.ImportGraph:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    return grimp.build_graph(*config["root_packages"], cache_dir=None)


def check(graph: grimp.ImportGraph, layer: str = "engine") -> tuple[bool, dict[str, Any]]:
    contract = GamesContract(name="games", session_options={}, contract_options=contract_options(layer))
    result = contract.check(graph, verbose=False)
    return result.kept, result.metadata


def add_game(graph: grimp.ImportGraph, key: str) -> None:
    """A throwaway game in its own folders, importing only the shared blocks (as a real one does)."""
    for layer, module in (("engine", "engine"), ("services", "duels"), ("cogs", "cog")):
        graph.add_module(f"{layer}.{key}")
        graph.add_module(f"{layer}.{key}.{module}")
        graph.add_import(importer=f"{layer}.{key}", imported=f"{layer}.{key}.{module}")
    graph.add_import(importer=f"services.{key}.duels", imported="services.shared.matches")
    graph.add_import(importer=f"cogs.{key}.cog", imported=f"services.{key}")


def test_the_contract_finds_the_games_the_bot_loads(graph: grimp.ImportGraph) -> None:
    kept, found = check(graph)
    assert kept, found["broken"]
    loaded = {spec.key for spec in every_game().all_games()}
    # A game built engine first (its services and cogs come later) is held to the contract already.
    engine_only = {
        info.name
        for info in pkgutil.iter_modules([str(ROOT / "engine")])
        if info.ispkg and not (ROOT / "services" / info.name).exists()
    }
    assert found["games"] == sorted(loaded | engine_only)


def test_a_new_game_is_covered_without_an_edit(graph: grimp.ImportGraph) -> None:
    add_game(graph, "dice")
    kept, found = check(graph)
    assert kept
    assert "dice" in found["games"]
    graph.add_import(importer="services.dice.duels", imported="services.pillz.names")
    kept, found = check(graph)
    assert not kept
    assert {(b["importer"], b["imported"]) for b in found["broken"]} == {
        ("services.dice", "services.pillz"),
        ("services.dice", "engine.pillz"),  # services.pillz.names imports it
        ("cogs.dice", "services.pillz"),  # through services.dice
        ("cogs.dice", "engine.pillz"),
    }


def test_the_platform_may_name_no_game(graph: grimp.ImportGraph) -> None:
    graph.add_import(importer="cogs.shared.components", imported="engine.hoss")
    kept, found = check(graph)
    assert not kept
    assert ("cogs.shared", "engine.hoss") in {(b["importer"], b["imported"]) for b in found["broken"]}


def test_the_tests_contract_holds_each_games_tests_to_their_own(graph: grimp.ImportGraph) -> None:
    kept, found = check(graph, "tests.e2e")
    assert kept, found["broken"]
    # The games are the engine's: tests/e2e/trades/ or tests/services/community/drops/ are no game's tests.
    assert found["games"] == sorted(
        info.name for info in pkgutil.iter_modules([str(ROOT / "engine")]) if info.ispkg
    )
    graph.add_import(importer="tests.e2e.pillz.authorization", imported="tests.e2e.hoss.helpers")
    graph.add_import(importer="tests.support.harness", imported="tests.services.choco.helpers")
    kept, found = check(graph, "tests.e2e")
    assert not kept
    broken = {(b["importer"], b["imported"]) for b in found["broken"]}
    assert {("tests.e2e.pillz", "tests.e2e.hoss"), ("tests.support", "tests.services.choco")} <= broken
    # and every game's tests that use tests/support/ now reach Chocobataille's through it
    assert ("tests.e2e.immortals", "tests.services.choco") in broken


def test_production_code_imports_no_tool_around_it() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    (found,) = [
        c for c in config["contracts"] if c["type"] == "forbidden" and "tests" in c["forbidden_modules"]
    ]
    assert set(found["source_modules"]) == {"engine", "core", "store", "services", "discord_app", "cogs"}
    assert set(found["forbidden_modules"]) == {"emulator", "sandbox", "benchmarks", "tools", "tests"}
    assert set(found["forbidden_modules"]) <= set(config["root_packages"])
