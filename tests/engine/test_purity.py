"""`engine/` stays pure: no Discord, database, network, clock, files, or hidden randomness.

A pure engine is what makes a game replayable from its seed, testable without a bot, and safe to run
inside a database transaction. The check is static (ast), so it also covers code paths no test runs.
A reviewed exception carries a `# purity: ok — why` comment on its line.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
WAIVER = "# purity: ok"

FORBIDDEN_MODULES: dict[str, str] = {
    **dict.fromkeys(
        ("discord", "aiohttp", "socket", "requests", "httpx", "urllib", "http", "ssl"), "network"
    ),
    **dict.fromkeys(("aiosqlite", "sqlite3", "dbm", "shelve", "pickle"), "storage"),
    **dict.fromkeys(
        ("asyncio", "threading", "multiprocessing", "concurrent", "signal", "selectors"), "concurrency"
    ),
    **dict.fromkeys(("time", "datetime", "zoneinfo", "calendar"), "clock"),
    **dict.fromkeys(
        ("os", "sys", "pathlib", "io", "shutil", "subprocess", "tempfile", "glob", "fileinput", "mmap"), "I/O"
    ),
    **dict.fromkeys(("logging", "warnings"), "I/O (return events instead)"),
    **dict.fromkeys(("importlib", "pkgutil", "builtins"), "dynamic import"),
    **dict.fromkeys(("secrets", "uuid"), "unseeded randomness"),
    **dict.fromkeys(("services", "store", "cogs", "core", "discord_app", "emulator", "bot"), "outer layer"),
}
FORBIDDEN_BUILTINS: dict[str, str] = {
    **dict.fromkeys(("open", "input", "print", "breakpoint"), "I/O"),
    **dict.fromkeys(("exec", "eval", "compile", "__import__"), "dynamic code"),
    "hash": "salted per process (PYTHONHASHSEED): use engine.rng.derive",
    "id": "memory address: differs between runs",
}
CLOCK_METHODS = {"now", "utcnow", "today", "fromtimestamp", "monotonic", "perf_counter", "time_ns"}
RANDOM_ALLOWED = {"Random"}  # the class; every module-level function uses the hidden global generator


Flag = Callable[[ast.AST, str], None]


def find_impurities(source: str, filename: str = "<snippet>") -> list[str]:
    """Every impure construct in `source`, as `file:line: what (why)`."""
    tree = ast.parse(source, filename=filename)
    waived = {n for n, line in enumerate(source.splitlines(), start=1) if WAIVER in line}
    problems: list[str] = []

    def flag(node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        if line not in waived:
            problems.append(f"{filename}:{line}: {what}")

    random_aliases = check_imports(tree, flag)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            check_attribute(node, node.value.id, random_aliases, flag)
        if isinstance(node, ast.Call):
            check_call(node, flag)
    return sorted(set(problems), key=lambda p: (p.split(":")[0], int(p.split(":")[1])))


def check_imports(tree: ast.AST, flag: Flag) -> set[str]:
    """Flag the forbidden imports; return the names the `random` module goes by."""
    random_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    flag(node, f"import {alias.name} ({FORBIDDEN_MODULES[top]})")
                elif top == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            check_import_from(node, node.module, flag)
    return random_aliases


def check_import_from(node: ast.ImportFrom, module: str, flag: Flag) -> None:
    top = module.split(".")[0]
    if top in FORBIDDEN_MODULES:
        flag(node, f"from {module} import ... ({FORBIDDEN_MODULES[top]})")
    elif module == "random":
        for alias in node.names:
            if alias.name not in RANDOM_ALLOWED:
                flag(node, f"from random import {alias.name} (use a random.Random from engine.rng)")


def check_attribute(node: ast.Attribute, owner: str, random_aliases: set[str], flag: Flag) -> None:
    if owner in random_aliases and node.attr not in RANDOM_ALLOWED:
        flag(node, f"{owner}.{node.attr} (module-level random; use a Random from engine.rng)")
    elif owner == "time" and node.attr == "time":
        flag(node, "time.time (clock)")


def check_call(node: ast.Call, flag: Flag) -> None:
    func = node.func
    if isinstance(func, ast.Name) and func.id in FORBIDDEN_BUILTINS:
        flag(node, f"{func.id}() ({FORBIDDEN_BUILTINS[func.id]})")
    elif isinstance(func, ast.Attribute) and func.attr in CLOCK_METHODS:
        flag(node, f".{func.attr}() (clock: the service passes times in as data)")


def engine_files() -> list[Path]:
    return sorted(ENGINE_DIR.rglob("*.py"))


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE_DIR.parent)))
def test_engine_module_is_pure(path: Path) -> None:
    problems = find_impurities(path.read_text(encoding="utf-8"), str(path.relative_to(ENGINE_DIR.parent)))
    assert not problems, "engine/ must stay pure:\n" + "\n".join(problems)


def test_there_are_engine_files_to_check() -> None:
    assert ENGINE_DIR.is_dir()
    assert len(engine_files()) >= 4


@pytest.mark.parametrize(
    "snippet",
    [
        "import discord",
        "import aiosqlite",
        "import sqlite3",
        "import asyncio",
        "import aiohttp",
        "import socket",
        "import requests",
        "import time",
        "from datetime import datetime",
        "import datetime as dt",
        "import os.path",
        "from pathlib import Path",
        "import io",
        "from services.infra.games import GameSpec",
        "import core.settings",
        "x = open('data.json')",
        "print('debug')",
        "h = hash('card')",
        "import random\nrandom.shuffle(deck)",
        "import random\nx = random.randint(1, 6)",
        "import random\nx = random.choice(deck)",
        "import random as r\nr.sample(deck, 2)",
        "import random\npick = random.choice",
        "import random\nrng = random.SystemRandom()",
        "import random\nrandom.seed(4)",
        "from random import choice",
        "from random import shuffle as mix",
        "stamp = clock.now()",
        "when = datetime.now(UTC)",
        "t = time.time()",
        "d = date.today()",
    ],
)
def test_the_checker_flags_impure_code(snippet: str) -> None:
    assert find_impurities(snippet), f"not flagged: {snippet!r}"


def test_the_checker_accepts_pure_code() -> None:
    pure = """
from __future__ import annotations
import hashlib
import json
import random
from random import Random
from dataclasses import dataclass
from engine.errors import IllegalAction
from engine.rng import RngState

def shuffle(deck: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    rng.shuffle(deck)
    choice = rng.choice(deck)
    return [choice, *deck, json.dumps(hashlib.sha256(b"x").hexdigest())]
"""
    assert find_impurities(pure) == []


def test_a_waiver_silences_one_line() -> None:
    snippet = "a = hash((1, 2))  # purity: ok — tuple of ints, not salted\nb = hash('x')"
    assert find_impurities(snippet) == [
        "<snippet>:2: hash() (salted per process (PYTHONHASHSEED): use engine.rng.derive)"
    ]
