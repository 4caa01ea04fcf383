"""The project's own Python files, for the checks that read every one of them (catalog keys, error keys)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot.py", "cogs", "core", "discord_app", "engine", "services", "store", "sandbox")


def code_files() -> list[Path]:
    files: list[Path] = []
    for name in CODE_DIRS:
        path = ROOT / name
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files
