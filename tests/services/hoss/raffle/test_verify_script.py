"""scripts/verify_raffle.py checks a published draw without the bot: 0 when fair, 1 when not, 2 unreadable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.fair_draw import Published, commitment, draw, entries_digest, format_published

ROOT = Path(__file__).resolve().parents[4]
SEED = "a1" * 32
ENTRIES = tuple(f"{n}:{7000 + n}" for n in range(1, 101))


def run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "verify_raffle.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def record(winners: tuple[str, ...] | None = None) -> Published:
    chosen = tuple(ENTRIES[i] for i in draw(SEED, ENTRIES, 2))
    return Published(commitment(SEED), SEED, entries_digest(ENTRIES), winners or chosen, ENTRIES)


@pytest.mark.parametrize(
    ("published", "code", "word"),
    [(record(), 0, "OK"), (record(winners=(ENTRIES[0], ENTRIES[1])), 1, "FAILED")],
)
def test_the_script_recomputes_a_draw(tmp_path: Path, published: Published, code: int, word: str) -> None:
    if code == 1:
        assert published.winners != record().winners  # the two first tickets are not this seed's winners
    path = tmp_path / "tombola.txt"
    path.write_text(format_published(published), encoding="utf-8")
    result = run(path)
    assert result.returncode == code
    assert result.stdout.startswith(word)


def test_an_unreadable_file_is_exit_code_2(tmp_path: Path) -> None:
    result = run(tmp_path / "missing.txt")
    assert result.returncode == 2
    assert "Cannot check" in result.stderr
