"""The engine's compiled modules: which ones, and whether those on disk still match their sources.

The games' hot modules (the battle loops, the AIs) are compiled to C extension modules by mypyc, and the
Pillz AI's float kernels by Cython (`python -m tools.native build`, docs/architecture.md, "The compiled
engine"). CPython imports an extension module in preference to the .py beside it, so a module compiled
from an older source would run in place of an edited one. The build writes a stamp, the hash of every compiled source, and
`ensure_fresh` (run first by bot.py and by the tests' conftest, and by `build` itself) removes every
compiled module as soon as one source, the list or the interpreter no longer matches the stamp: the
modules share one library, so a stale one is never mixed with fresh ones. The pure-Python modules are
the fallback and the reference: every compiled module behaves exactly as its source.

`ENGINE_PURE=1` in the environment imports the sources even when the compiled modules are fresh (an
import hook, nothing removed): the suite runs the pinned digests of every game that way too.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]

# The compiled modules, by source path. Only modules that gain (a lab battle's hot path) and that mypyc
# compiles: pydantic models (catalog, state, view, a module defining one) stay interpreted, and so do the
# protocol's engine classes (engine.py: the conformance tests read their annotations, which a compiled
# function does not keep) and a module whose functions a test replaces (immortals/lab.py: a compiled
# module binds the functions it imports once). A module here must behave exactly as its source under
# mypyc (the pinned digests are checked both ways).
MODULES: tuple[str, ...] = (
    # HOSS: the battle's rounds, the copies of the look-aheads, the strong AI and its threat model.
    "engine/hoss/actions.py",
    "engine/hoss/ai.py",
    "engine/hoss/ai_model.py",
    "engine/hoss/battle.py",
    "engine/hoss/bonus.py",
    "engine/hoss/convert.py",
    "engine/hoss/damage.py",
    "engine/hoss/defender.py",
    "engine/hoss/deck.py",
    "engine/hoss/fighters.py",
    "engine/hoss/flow.py",
    "engine/hoss/lab.py",
    "engine/hoss/log.py",
    "engine/hoss/ranks.py",
    "engine/hoss/rules.py",
    "engine/hoss/simulate.py",
    "engine/hoss/statuses.py",
    "engine/hoss/targeting.py",
    # Immortal's War: the AI's numbers and the fights.
    "engine/immortals/ai.py",
    "engine/immortals/progress.py",
    "engine/immortals/rules.py",
    # Dinocard: the precomputed battle and its log (engine.py is also subclassed by
    # services/dinocard/kept_states.py, which a compiled class forbids).
    "engine/dinocard/battle.py",
    "engine/dinocard/codes.py",
    "engine/dinocard/lab.py",
    "engine/dinocard/log.py",
    "engine/dinocard/packs.py",
    "engine/dinocard/table.py",
    # Pillz: the exact search's Python loops (its float kernels are Cython's, CYTHON below).
    "engine/pillz/endgame.py",
    "engine/pillz/search.py",
    # What every lab battle reports.
    "engine/lab.py",
)

# The Cython modules, by source path: C loops over doubles where the time is NumPy's per-call overhead on
# small arrays (the Pillz AI's kernels). Each is imported beside a NumPy fallback that computes the same
# floats; the same stamp covers them, and ENGINE_PURE=1 hides them as it hides the mypyc modules.
CYTHON: tuple[str, ...] = ("engine/pillz/kernels.pyx",)

PURE_VARIABLE = "ENGINE_PURE"
STAMP = ROOT / "build" / "native" / "stamp.json"
GROUP = "engine_native"  # the modules' shared library: engine_native__mypyc<suffix> at the root
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # .cpython-311-x86_64-linux-gnu.so


def module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix(".pyx").replace("/", ".")


def digests(root: Path = ROOT, modules: Sequence[str] = MODULES) -> dict[str, str]:
    """The sha256 of each compiled module's source, the Cython ones' included."""
    return {path: hashlib.sha256((root / path).read_bytes()).hexdigest() for path in [*modules, *CYTHON]}


def stamp_of(root: Path = ROOT, modules: Sequence[str] = MODULES) -> dict[str, object]:
    """What a build from these sources with this interpreter writes (and `fresh` compares)."""
    return {"python": sys.version, "suffix": SUFFIX, "sources": digests(root, modules)}


def products(root: Path = ROOT) -> list[Path]:
    """Every compiled module under engine/ and the shared library: whatever built them."""
    found = [
        p for suffix in importlib.machinery.EXTENSION_SUFFIXES for p in (root / "engine").rglob(f"*{suffix}")
    ]
    return sorted({*found, *root.glob(f"*__mypyc*{SUFFIX}")})


def expected(root: Path = ROOT, modules: Sequence[str] = MODULES) -> list[Path]:
    """The files a build of `modules` leaves."""
    shims = [root / path.replace(".py", SUFFIX) for path in modules]
    kernels = [root / path.replace(".pyx", SUFFIX) for path in CYTHON]
    return sorted([*shims, *kernels, root / f"{GROUP}__mypyc{SUFFIX}"])


def fresh(root: Path = ROOT, modules: Sequence[str] = MODULES) -> bool:
    """Whether the compiled modules on disk are exactly a build of today's sources by this interpreter."""
    try:
        stamp = json.loads((root / STAMP.relative_to(ROOT)).read_text())
    except (OSError, ValueError):
        return False
    return products(root) == expected(root, modules) and stamp == stamp_of(root, modules)


def remove(root: Path = ROOT) -> list[Path]:
    """Remove every compiled module (the sources are imported instead) and the stamp."""
    gone = products(root)
    for path in [*gone, root / STAMP.relative_to(ROOT)]:
        path.unlink(missing_ok=True)
    return gone


class PureFinder(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their sources (first on `sys.meta_path`), and refuses the Cython
    modules, which have none: their importers run their fallbacks."""

    def __init__(self, root: Path = ROOT, modules: Sequence[str] = MODULES) -> None:
        self.sources = {module_name(path): root / path for path in modules}
        self.hidden = {module_name(path) for path in CYTHON}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.hidden:
            raise ModuleNotFoundError(f"{fullname}: hidden by {PURE_VARIABLE}=1", name=fullname)
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def ensure_fresh(root: Path = ROOT) -> str:
    """Before any engine import: "pure" (ENGINE_PURE=1, the sources imported), "compiled", "none" (no
    build), or "removed" (stale compiled modules removed, so the sources are imported)."""
    if os.environ.get(PURE_VARIABLE) == "1":
        if not any(isinstance(f, PureFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, PureFinder(root))
        return "pure"
    if not products(root):
        return "none"
    if fresh(root):
        return "compiled"
    gone = remove(root)
    log.warning(
        "%d compiled engine modules did not match their sources and were removed: the pure-Python engine "
        "runs (python -m tools.native build compiles it again)",
        len(gone),
    )
    return "removed"


def compiled() -> bool:
    """Whether the engine's compiled modules are the ones this process imports."""
    module = importlib.import_module(module_name(MODULES[0]))
    return not (module.__file__ or "").endswith(".py")
