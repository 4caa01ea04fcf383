"""The examples of `examples/` as a reader runs them: the command of their first line, with its seed.

Every example's first line is the command that runs it (`# Title: scripts/start --sandbox --seed N
--script examples/<name>.txt`) and its second says why that seed is needed, or that none is. Several tests
read the same example's transcript (tests/sandbox/test_examples.py runs every example; each example's own
test asserts its points): a run is kept for the rest of the process, so that an example runs once per
test worker rather than once per test."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from sandbox.main import run_sandbox

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
_COMMAND = re.compile(
    r"^# (?P<title>[^:]+): scripts/start --sandbox(?: --seed (?P<seed>\d+))? --script examples/(?P<name>\S+)$"
)
_WHY = ("# The seed ", "# No seed needed: ")


@dataclass(frozen=True)
class Header:
    title: str
    seed: int | None


@dataclass(frozen=True)
class Transcript:
    code: int
    lines: tuple[str, ...]
    db: Path  # the run's database, kept until the process ends (a test may read its tables)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def all_examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.txt"))


def same_worker(script: Path) -> pytest.MarkDecorator:
    """Every test that reads this example's run goes to one test worker (scripts/test runs pytest-xdist with
    `--dist loadgroup`), so that a long example (the tournament's, 30 s) runs once."""
    return pytest.mark.xdist_group(f"example-{script.stem}")


def header(script: Path) -> Header:
    """The example's first two lines: the real command that runs it, then why it needs its seed (or none).
    Raises ValueError when they are not."""
    lines = script.read_text(encoding="utf-8").splitlines()
    found = _COMMAND.match(lines[0]) if lines else None
    if found is None or found.group("name") != script.name:
        raise ValueError(
            f"{script.name}: the first line must be '# Title: scripts/start --sandbox [--seed N]"
            f" --script examples/{script.name}'"
        )
    if len(lines) < 2 or not lines[1].startswith(_WHY):
        raise ValueError(f"{script.name}: the second line must say why the seed is needed, or that none is")
    seed = found.group("seed")
    if lines[1].startswith(_WHY[0]) != (seed is not None):
        raise ValueError(
            f"{script.name}: the second line speaks of a seed the command does not give, or the reverse"
        )
    return Header(found.group("title"), None if seed is None else int(seed))


def seed_of(script: Path) -> int:
    """The seed the example's first line tells readers to run it with (`--seed N`)."""
    seed = header(script).seed
    if seed is None:
        raise ValueError(f"{script.name}: the first line names no --seed")
    return seed


_RUNS: dict[tuple[Path, int | None], Transcript] = {}
_SCRATCH = tempfile.TemporaryDirectory(prefix="examples-")  # removed when the process ends


async def transcript(script: Path, *, seed: int | None = None, default_seed: bool = True) -> Transcript:
    """The example run as its first line says (or with `seed`; `default_seed=False`: with no seed at all)."""
    chosen = seed if seed is not None or not default_seed else header(script).seed
    key = (script, chosen)
    if key not in _RUNS:
        lines: list[str] = []
        db = Path(_SCRATCH.name) / f"{script.stem}-{chosen}.sqlite3"
        code = await run_sandbox(script=str(script), db_path=str(db), out=lines.append, seed=chosen)
        _RUNS[key] = Transcript(code, tuple(lines), db)
    return _RUNS[key]


__all__ = [
    "EXAMPLES",
    "Header",
    "Transcript",
    "all_examples",
    "header",
    "same_worker",
    "seed_of",
    "transcript",
]
