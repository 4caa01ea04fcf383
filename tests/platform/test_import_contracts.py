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

from services.infra.games import discover
from tools.import_contracts import GamesContract

ROOT = Path(__file__).resolve().parents[2]


def contract_options() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    (found,) = [c for c in config["contracts"] if c["type"] == "games"]
    return {k: v for k, v in found.items() if k not in ("name", "type")}


@pytest.fixture
def graph() -> grimp.ImportGraph:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    return grimp.build_graph(*config["root_packages"], cache_dir=None)


def check(graph: grimp.ImportGraph) -> tuple[bool, dict[str, Any]]:
    contract = GamesContract(name="games", session_options={}, contract_options=contract_options())
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
    loaded = {spec.key for spec in discover()}
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
