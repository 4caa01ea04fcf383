"""The compiled engine (core/native.py, tools/native.py): never shadows an edited source, and gives the
pinned digests of every game as the pure-Python engine does."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core import native
from engine.pillz import ai as pillz_ai

# Every game's pinned results: the golden battles and logs, the AIs' choices and the lab's duels.
PINNED = (
    "tests/engine/test_golden.py",
    "tests/engine/hoss/test_ai_pinned.py",
    "tests/engine/pillz/test_ai_pinned.py",
    "tests/engine/immortals/test_ai_pinned.py",
    "tests/services/immortals/test_lab_pinned.py",
)
PROBE = (
    "from core import native; state = native.ensure_fresh(); import engine.hoss.rules as rules; "
    "print(state, Path(rules.__file__).name, getattr(rules, 'EDITED', None))"
)

compiled_only = pytest.mark.skipif(
    not native.compiled(), reason="the engine is not compiled here: the suite itself ran the sources"
)


def test_the_engine_runs_compiled_exactly_when_its_build_is_fresh_and_not_refused() -> None:
    wanted = os.environ.get(native.PURE_VARIABLE) != "1" and native.fresh()
    assert native.compiled() == wanted
    assert (pillz_ai.kernels is not None) == wanted  # the Cython kernels: with them, or the fallback


def probe(root: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"from pathlib import Path; {PROBE}"],
        cwd=root,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", native.PURE_VARIABLE)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


@compiled_only
def test_an_edited_source_is_never_shadowed_by_its_compiled_module(tmp_path: Path) -> None:
    """A copy of the compiled tree: CPython prefers the extension module to the .py beside it, so without
    the stamp's check an edited source would not run; with it, every compiled module is removed."""
    shutil.copytree(native.ROOT / "core", tmp_path / "core")
    shutil.copytree(native.ROOT / "engine", tmp_path / "engine")
    (tmp_path / "build" / "native").mkdir(parents=True)
    shutil.copy(native.STAMP, tmp_path / "build" / "native" / "stamp.json")
    for library in native.ROOT.glob(f"*__mypyc*{native.SUFFIX}"):
        shutil.copy(library, tmp_path)
    assert probe(tmp_path) == ["compiled", f"rules{native.SUFFIX}", "None"]

    source = tmp_path / "engine" / "hoss" / "rules.py"
    source.write_text(source.read_text() + "\nEDITED = 1\n")
    assert native.products(tmp_path)  # still there: imported as such, they would shadow the edit
    assert probe(tmp_path) == ["removed", "rules.py", "1"]
    assert native.products(tmp_path) == []
    assert probe(tmp_path) == ["none", "rules.py", "1"]


def stamped_copy(root: Path) -> None:
    """The compiled sources, empty files in place of the build's products and the stamp, under `root`."""
    for path in [*native.MODULES, *native.CYTHON]:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(native.ROOT / path, root / path)
    for product in native.expected():
        (root / product.relative_to(native.ROOT)).write_bytes(b"")
    (root / "build" / "native").mkdir(parents=True)
    shutil.copy(native.STAMP, root / "build" / "native" / "stamp.json")


@compiled_only
def test_a_compiled_module_outside_the_list_is_not_fresh(tmp_path: Path) -> None:
    """A module taken off the list keeps its compiled file until the next build: the stamp's check sees
    it (it would shadow its source) and the whole build counts as stale."""
    stamped_copy(tmp_path)
    assert native.fresh(tmp_path)
    (tmp_path / "engine" / f"extra{native.SUFFIX}").write_bytes(b"")
    assert not native.fresh(tmp_path)


@compiled_only
def test_an_edited_cython_kernel_makes_the_build_stale(tmp_path: Path) -> None:
    """The stamp covers the Cython sources too: an edited kernel would otherwise keep running its old C."""
    stamped_copy(tmp_path)
    assert native.fresh(tmp_path)
    kernel = tmp_path / native.CYTHON[0]
    kernel.write_text(kernel.read_text() + "\n# edited\n")
    assert not native.fresh(tmp_path)


@compiled_only
def test_the_pinned_digests_of_every_game_hold_on_the_pure_engine_too() -> None:
    """The suite runs them on the compiled modules; here again on the sources, in a process where
    ENGINE_PURE=1 hides the compiled modules (the first test checks the process ran the sources)."""
    first = "tests/platform/test_native.py::test_the_engine_runs_compiled_exactly_when_its_build_is_fresh_and_not_refused"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", first, *PINNED],
        cwd=native.ROOT,
        env={**os.environ, native.PURE_VARIABLE: "1"},
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout
    assert "skipped" not in done.stdout
