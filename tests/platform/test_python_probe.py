"""scripts/start and scripts/test pick their interpreter quietly: one line for the choice, or one line
saying none fits, whatever the probed commands print (a pyenv shim of a version that is not selected
answers "command not found" and a paragraph of advice on stderr)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYENV_SHIM = """#!/bin/sh
: > "$0.ran"
echo "pyenv: $(basename "$0"): command not found" >&2
echo "The \\`$(basename "$0")' command exists in these Python versions:" >&2
echo "  3.13.0" >&2
exit 127
"""
TOO_OLD = """#!/bin/sh
case "$*" in *--version*) echo "Python 3.10.12" ;; *) exit 1 ;; esac
"""


def _command(folder: Path, name: str, script: str) -> None:
    path = folder / name
    path.write_text(script, encoding="utf-8")
    path.chmod(0o755)


def _probe(path_dirs: list[Path], **env: str) -> subprocess.CompletedProcess[str]:
    """The probe as scripts/_venv.sh runs it, with only these folders on PATH."""
    return subprocess.run(
        ["/bin/bash", "-c", f'set -euo pipefail; source "{ROOT}/scripts/_python.sh"; echo "chosen=$PYTHON"'],
        env={"PATH": ":".join(str(d) for d in path_dirs), **env},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_shims_that_fail_are_probed_quietly_and_the_choice_is_one_line(tmp_path: Path) -> None:
    _command(tmp_path, "python3.13", PYENV_SHIM)
    _command(tmp_path, "python3.12", PYENV_SHIM)
    (tmp_path / "python3.11").symlink_to(sys.executable)
    result = _probe([tmp_path])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    version = f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
    assert result.stdout.splitlines() == [
        f"Creating .venv with python3.11 (Python {version}).",
        "chosen=python3.11",
    ]


def test_when_nothing_fits_one_line_says_so(tmp_path: Path) -> None:
    _command(tmp_path, "python3.13", PYENV_SHIM)
    _command(tmp_path, "python3", TOO_OLD)
    result = _probe([tmp_path])
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Python 3.11 or newer is required (set PYTHON=/path/to/python3.11)."
    ]


def test_python_set_by_the_user_is_taken_without_probing(tmp_path: Path) -> None:
    _command(tmp_path, "python3.13", PYENV_SHIM)
    _command(tmp_path, "chosen-python", TOO_OLD)
    result = _probe([tmp_path], PYTHON="chosen-python")
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "Creating .venv with chosen-python (Python 3.10.12).",
        "chosen=chosen-python",
    ]
    assert not (tmp_path / "python3.13.ran").exists()
