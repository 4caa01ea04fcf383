"""An import-linter contract type that finds the games itself, so a new game edits no contract.

The built-in contracts take module lists: an `independence` contract over `engine.*` would also hold
`engine.protocol`, which every game imports, and a list of the games must be edited for each new one.
`games` contracts instead read the games from the import graph: a game is a subpackage (a package with
modules of its own) of one of `game_layers` whose name is not in `not_games`. They are broken when one
game's packages reach another game's, directly or not, or when a module of `neutral_modules` (the
platform, the shared blocks) reaches any game.

The tests hold one folder per game too (tests/engine/hoss/, tests/e2e/hoss/), next to folders that are no
game (tests/e2e/trades/): `games_of` names the layers that say what a game is (engine/), so a test folder
is a game's when the engine has that game, and any other test folder is left out of the contract.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def game_keys(graph: ImportGraph, layers: set[str], not_games: set[str]) -> list[str]:
    """Every game key, from the subpackages of the layers (a plain module such as engine.protocol is none)."""
    keys: set[str] = set()
    for layer in layers:
        for child in graph.find_children(layer):
            key = child.rpartition(".")[2]
            if key not in not_games and graph.find_children(child):
                keys.add(key)
    return sorted(keys)


def chain_of(graph: ImportGraph, importer: str, imported: str) -> list[str] | None:
    """One chain of imports from `importer` to `imported` (each as a package), or None."""
    if not graph.chain_exists(importer, imported, as_packages=True):
        return None
    for source in sorted({importer, *graph.find_descendants(importer)}):
        for target in sorted({imported, *graph.find_descendants(imported)}):
            chain = graph.find_shortest_chain(source, target)
            if chain is not None:
                return list(chain)
    return [importer, imported]  # pragma: no cover - chain_exists said there is one


class GamesContract(Contract):
    """Options: `game_layers` (the packages holding one subpackage per game), `not_games` (their
    subpackages that are no game), `neutral_modules` (modules that may reach no game at all), `games_of`
    (the layers whose subpackages are the games, when not `game_layers` themselves)."""

    game_layers = fields.SetField(subfield=fields.StringField())
    not_games = fields.SetField(subfield=fields.StringField(), required=False, default=set())
    neutral_modules = fields.SetField(subfield=fields.StringField(), required=False, default=set())
    games_of = fields.SetField(subfield=fields.StringField(), required=False, default=set())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        layers: set[str] = set(self.game_layers)  # type: ignore[call-overload]
        defining: set[str] = set(self.games_of) or layers  # type: ignore[call-overload]
        keys = game_keys(graph, defining, set(self.not_games))  # type: ignore[call-overload]
        packages = {
            key: sorted(f"{layer}.{key}" for layer in layers if f"{layer}.{key}" in graph.modules)
            for key in keys
        }
        keys = [key for key in keys if packages[key]]
        broken: list[dict[str, Any]] = []
        for game, other in permutations(keys, 2):
            for importer in packages[game]:
                for imported in packages[other]:
                    if (chain := chain_of(graph, importer, imported)) is not None:
                        broken.append({"importer": importer, "imported": imported, "chain": chain})
        for neutral in sorted(self.neutral_modules):  # type: ignore[call-overload]
            for key in keys:
                for imported in packages[key]:
                    if (chain := chain_of(graph, neutral, imported)) is not None:
                        broken.append({"importer": neutral, "imported": imported, "chain": chain})
        return ContractCheck(kept=not broken, metadata={"games": keys, "broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for found in check.metadata["broken"]:
            output.print_error(f"{found['importer']} is not allowed to import {found['imported']}:")
            output.print_error(f"-   {' -> '.join(found['chain'])}", bold=False)
            output.new_line()
