"""Running a game's first-steps example (examples/first_steps_<game>.txt) as a reader runs it, with what
every such example shows: /help's start page and the game's welcome, once per player (alice's at least). Each game's own test
(tests/sandbox/test_first_steps.py for the first three, tests/e2e/<game>/ for the others) asserts its
own points on the text."""

from __future__ import annotations

import re
from pathlib import Path

from sandbox.main import run_sandbox

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def example(game: str) -> Path:
    return EXAMPLES / f"first_steps_{game}.txt"


def seed_of(script: Path) -> int:
    """The seed the example's first line tells readers to run it with (`--seed N`)."""
    found = re.search(r"--seed (\d+)", script.read_text(encoding="utf-8").splitlines()[0])
    if found is None:
        raise ValueError(f"{script.name}: the first line names no --seed")
    return int(found.group(1))


async def run(tmp_path: Path, game: str, seed: int | None = None) -> str:
    lines: list[str] = []
    script = example(game)
    code = await run_sandbox(
        script=str(script),
        db_path=str(tmp_path / "db.sqlite3"),
        out=lines.append,
        seed=seed_of(script) if seed is None else seed,
    )
    text = "\n".join(lines)
    assert code == 0, text
    assert "Commencer ici: 1. Choisissez un jeu" in text
    welcomed = re.findall(r"\[(\w+) only\] \*\*Bienvenue dans", text)
    assert "alice" in welcomed
    assert len(welcomed) == len(set(welcomed)), welcomed  # once per player and game
    return text


def opened_entry(text: str, label: str, filename: str) -> str:
    """The private answer to « Voir une carte » (`select "label"`): it must carry the card's picture."""
    start = text.index(f'> alice: select "{label}"\n')
    end = text.find("\n> ", start + 1)
    answer = text[start : end if end >= 0 else len(text)]
    assert "[alice only]" in answer, answer
    assert f"[file: {filename}]" in answer, answer
    return answer


def order_of(text: str, *needles: str) -> list[int]:
    return [text.index(n) for n in needles]


__all__ = ["example", "opened_entry", "order_of", "run", "seed_of"]
