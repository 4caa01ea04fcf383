"""Every example of `examples/` runs, with the seed its first line names, and prints no `!!` line (a line
that failed: an unknown command, a button or select option missing, an exception in the bot). Most of them
depend on their seed (which cards a booster gives, who plays first); the header says so and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sandbox.examples import all_examples, header, same_worker, transcript


@pytest.mark.parametrize(
    "script",
    [pytest.param(path, marks=same_worker(path)) for path in all_examples()],
    ids=lambda path: path.stem,
)
async def test_the_example_runs_with_the_seed_its_header_names(script: Path) -> None:
    header(script)  # the real command, and why its seed
    run = await transcript(script)
    failed = [line for line in run.lines if line.startswith("!!")]
    assert not failed, run.text
    assert run.code == 0


@pytest.mark.parametrize(
    "script", [path for path in all_examples() if header(path).seed is None], ids=lambda path: path.stem
)
async def test_an_example_said_to_need_no_seed_prints_the_same_with_any(script: Path) -> None:
    unseeded = await transcript(script, default_seed=False)
    seeded = await transcript(script, seed=12345)
    assert seeded.lines == unseeded.lines


@pytest.mark.parametrize(
    ("first", "second", "problem"),
    [
        (
            "# Pillz duel: run with  python bot.py --sandbox --seed 3 --script examples/demo.txt",
            "# The seed is needed: the starter deck is drawn at random.",
            "the first line must be",
        ),
        (
            "# Pillz duel: scripts/start --sandbox --seed 3 --script examples/other.txt",
            "# The seed is needed: the starter deck is drawn at random.",
            "the first line must be",
        ),
        (
            "# Pillz duel: scripts/start --sandbox --seed 3 --script examples/demo.txt",
            "# alice opens her collection.",
            "the second line must say why",
        ),
        (
            "# Pillz duel: scripts/start --sandbox --script examples/demo.txt",
            "# The seed is needed: the starter deck is drawn at random.",
            "speaks of a seed",
        ),
    ],
)
def test_a_header_without_the_real_command_or_the_seeds_reason_is_refused(
    tmp_path: Path, first: str, second: str, problem: str
) -> None:
    script = tmp_path / "demo.txt"
    script.write_text(f"{first}\n{second}\nalice: /profile\n", encoding="utf-8")
    with pytest.raises(ValueError, match=problem):
        header(script)
