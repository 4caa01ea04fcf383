"""The first minute of a newcomer: from a fresh clone to the sandbox's first answer, then a later start.

Each round clones this checkout's HEAD into a temporary folder and runs the README's command,
`scripts/start --sandbox --seed 3`, with a one-line script (`alice: /aide`), timing the moment the first
answer is printed. Nothing is reused between rounds: the clone, its `.venv` and uv's cache are new each
time (pip's cache is off), as on a fresh machine; the package index is this machine's. The same clone is
then started again: that is a later start, which must install nothing.

    python -m benchmarks.first_answer [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "alice: /aide\n"
ANSWER = "[alice only]"  # how the sandbox prints the first reply


def first_answer(clone: Path, env: dict[str, str]) -> tuple[float, list[str]]:
    """Seconds from the command to the first answer, and the lines printed before it."""
    script = clone / "first.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    started = time.perf_counter()
    process = subprocess.Popen(
        ["scripts/start", "--sandbox", "--seed", "3", "--script", str(script)],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    before: list[str] = []
    assert process.stdout is not None
    try:
        for line in process.stdout:
            if line.startswith(ANSWER):
                return time.perf_counter() - started, before
            if not line.startswith("WARNING: Location"):  # this machine's pip index notes
                before.append(line.rstrip())
        raise RuntimeError("the sandbox printed no answer:\n" + "\n".join(before[-20:]))
    finally:
        process.kill()
        process.wait()


def one_round(workspace: Path) -> tuple[float, float, list[str]]:
    clone = workspace / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {**os.environ, "UV_CACHE_DIR": str(workspace / "uv-cache"), "PIP_NO_CACHE_DIR": "1"}
    env.pop("VIRTUAL_ENV", None)
    fresh, steps = first_answer(clone, env)
    later, _ = first_answer(clone, env)
    return fresh, later, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fresh: list[float] = []
    later: list[float] = []
    for number in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory() as folder:
            first, second, steps = one_round(Path(folder))
        fresh.append(first)
        later.append(second)
        print(f"round {number}: fresh clone {first:.1f} s, later start {second:.1f} s")
        if number == 1:
            print("  printed before the first answer: " + " | ".join(steps))
    print(f"median of {args.rounds}: fresh clone {statistics.median(fresh):.1f} s to the first answer,")
    print(f"  later start {statistics.median(later):.1f} s")


if __name__ == "__main__":
    main()
