"""docs/deployment.md's table of write units ("Isolation of every write unit") says each unit's level and
why; it must list every `db.write` (and `db.write_soon`) call the services make, at the level the call
declares, so that a new unit is classified when it comes (a unit that needs more than READ COMMITTED and
forgot to say so would lose money or cards under several processes)."""

from __future__ import annotations

import ast
import re
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ROW = re.compile(r"^\| `(services/[^`]+\.py)` \| (.+?) \| ([A-Z ,]+) \| [a-z ]+ \|$", re.MULTILINE)


def _units_in_code() -> dict[str, set[tuple[str, str]]]:
    """file -> {(Class.method, level)} for every `<...>db.write(...)` and `<...>db.write_soon(...)` call."""
    files = subprocess.run(
        ["git", "grep", "-l", "-F", "db.write", "--", "services"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for name in files:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            if not (
                isinstance(func, ast.Attribute)
                and func.attr in ("write", "write_soon")
                and ast.unparse(func.value).rsplit(".", 1)[-1] == "db"
            ):
                continue
            chain, owner = [], node
            while owner in parents:
                owner = parents[owner]
                if isinstance(owner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    chain.append(owner.name)
            assert isinstance(node, ast.Call)
            declared = next((ast.unparse(k.value) for k in node.keywords if k.arg == "isolation"), None)
            level = (declared or "SERIALIZABLE").rsplit(".", 1)[-1].replace("_", " ")
            found[name].add((".".join(reversed(chain)), level))
    return found


def _units_in_docs() -> dict[str, set[tuple[str, str]]]:
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    listed: dict[str, set[tuple[str, str]]] = {}
    for name, units, levels in ROW.findall(text):
        level_set = {level.strip() for level in levels.split(",")}
        assert len(level_set) == 1, f"{name}: one row per level, please"
        (level,) = level_set
        listed[name] = {(unit, level) for unit in re.findall(r"`([^`]+)`", units)}
    return listed


def test_every_write_unit_is_listed_with_its_level() -> None:
    code, docs = _units_in_code(), _units_in_docs()
    assert sum(len(units) for units in code.values()) > 100  # the parse found the services' units
    missing = {f: sorted(u - docs.get(f, set())) for f, u in code.items() if u - docs.get(f, set())}
    stale = {f: sorted(u - code.get(f, set())) for f, u in docs.items() if u - code.get(f, set())}
    assert not missing, f"units without their row in docs/deployment.md (level, group): {missing}"
    assert not stale, f"rows of docs/deployment.md naming no such unit: {stale}"
