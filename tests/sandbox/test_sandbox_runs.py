"""The sandbox runs the real bot against the emulator and prints a readable transcript."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import to_db
from sandbox.harness import BotHarness
from sandbox.main import run_sandbox
from services.infra.scheduler import schedule
from store.connection import Connection
from tests.support.registries import every_game

ROOT = Path(__file__).resolve().parents[2]


async def run(tmp_path: Path, script: str) -> tuple[int, list[str]]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    lines: list[str] = []
    code = await run_sandbox(script=str(path), db_path=str(tmp_path / "db.sqlite3"), out=lines.append)
    return code, lines


async def test_french_then_english(tmp_path: Path) -> None:
    code, lines = await run(
        tmp_path,
        "alice: /help\nalice: /profile\nalice: /settings language language:en\nalice: /profile\nalice: /help\n",
    )
    assert code == 0, lines
    text = "\n".join(lines)
    assert text.index("[alice only] | ** Aide **") < text.index("[alice only] Done: I will speak English")
    assert text.index("Done: I will speak English") < text.index("[alice only] | ** Help **")
    assert "Profil d'alice" in text
    assert "alice's profile" in text
    assert "<t:" not in text  # Discord timestamps are shown as dates


async def test_french_names_mentions_and_waiting(tmp_path: Path) -> None:
    code, lines = await run(tmp_path, "bob: /aide\nalice: /profil joueur:@bob\nwait 25h\n")
    assert code == 0, lines
    text = "\n".join(lines)
    assert "Profil de bob" in text
    # How many jobs ran depends on the games' recurring jobs: test_a_wait_counts_the_jobs... counts them.
    assert re.search(r"^-- 25h later \(2026-01-06 13:00 UTC\), \d+ job\(s\) ran$", text, re.MULTILINE)


@pytest.mark.parametrize("dispatcher_first", [False, True])
async def test_a_wait_counts_the_jobs_fired_whoever_fired_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dispatcher_first: bool
) -> None:
    """Moving the clock wakes the bot's own dispatcher too, which may claim the jobs before the sandbox's
    pass does: the transcript's count must not depend on which of the two won (it used to say 0 then)."""
    harness = BotHarness(tmp_path / "db.sqlite3")
    await harness.start()
    try:
        assert harness.bot is not None
        scheduler, db, now = harness.bot.services.scheduler, harness.bot.services.db, harness.clock.now()
        scheduler.on("test:tick", lambda conn, job, at: None)

        def three_ticks(conn: Connection) -> None:
            for hours in (1, 2, 3):
                schedule(conn, now, "test:tick", now + timedelta(hours=hours), {})

        await db.write(three_ticks)
        before = await harness.advance(timedelta(0))  # whatever the games had due now
        if dispatcher_first:
            own_pass = scheduler.run_due

            async def after_the_dispatcher() -> int:
                await own_pass()  # the dispatcher's pass takes every job due
                return await own_pass()  # the sandbox's pass finds none left

            monkeypatch.setattr(scheduler, "run_due", after_the_dispatcher)
        fired = await harness.advance(timedelta(hours=3))
        games = await db.read(
            lambda conn: conn.execute(
                "SELECT COUNT(*) FROM jobs WHERE state = 'done' AND kind != 'test:tick' AND fired_at > ?",
                (to_db(now),),
            ).fetchone()[0]
        )
        assert fired == 3 + int(games)
        assert before == 0
    finally:
        await harness.stop()


async def test_unknown_command_fails_the_run(tmp_path: Path) -> None:
    code, lines = await run(tmp_path, "alice: /nope\nalice: /profile\n")
    assert code == 1
    assert any(line.startswith("!! ") and "nope" in line for line in lines)
    assert any("Profil d'alice" in line for line in lines)  # later lines still run


async def test_unreadable_line_and_missing_button_fail(tmp_path: Path) -> None:
    code, lines = await run(tmp_path, 'alice dance\nalice: click "Nothing here"\n')
    assert code == 1
    assert sum(line.startswith("!! ") for line in lines) == 3  # two failures and the summary


async def test_state_persists_in_a_given_database(tmp_path: Path) -> None:
    await run(tmp_path, "alice: /settings language language:en\n")
    code, lines = await run(tmp_path, "alice: /profile\n")
    assert code == 0
    assert any("alice's profile" in line for line in lines)


def test_command_line_entry_point(tmp_path: Path) -> None:
    script = tmp_path / "demo.txt"
    script.write_text("alice: /profile\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "bot.py", "--sandbox", "--script", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "> alice: /profile" in result.stdout
    assert "[alice only]" in result.stdout
    missing = subprocess.run(
        [sys.executable, "bot.py", "--sandbox", "--script", str(tmp_path / "absent.txt")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert missing.returncode == 2
    assert "Cannot read the script" in missing.stderr
    assert "Traceback" not in missing.stderr


async def test_clicks_selects_modals_dms_threads_and_time(tmp_path: Path) -> None:
    from tests.fixtures import fixture_game

    script = tmp_path / "script.txt"
    script.write_text(
        "\n".join(
            [
                "alice: /fixture shop",
                'alice: click "Buy"',
                "alice: /fixture pick",
                'alice: select "Bleu"',
                "alice: /fixture rename",
                'alice: modal name="Dame Merlin"',
                'alice: /fixture table name:"Table 1"',
                'alice: /fixture remind hours:24 what:"ton tour"',
                "wait 1d1h",
                "alice: /fixture notify player:@bob text:hello",
            ]
        ),
        encoding="utf-8",
    )
    lines: list[str] = []
    code = await run_sandbox(
        script=str(script),
        db_path=None,
        out=lines.append,
        harness_options={
            "data_dir": fixture_game.data_dir_with_fixture(tmp_path / "data"),
            "extra_extensions": ("tests.fixtures.fixture_game",),
            "registry": every_game().with_games(fixture_game.SPEC),
        },
    )
    text = "\n".join(lines)
    assert code == 0, text
    assert "[#parties] 10 coins" in text
    assert "[Buy]" in text
    assert "[alice only] bought, balance 90" in text
    assert "[alice only] colour bleu" in text
    assert "[alice only] renamed to Dame Merlin" in text
    assert "[thread: Table 1] Welcome to Table 1" in text
    assert "[DM alice] Reminder: ton tour" in text
    assert "[DM bob] hello" in text


def test_interactive_prompt_reads_lines_until_quit(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "bot.py", "--sandbox", "--db", str(tmp_path / "db.sqlite3")],
        cwd=ROOT,
        input="alice: /profil\nalice: /nope\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "[alice only] | ** Profil d'alice **" in result.stdout
    assert "!! " in result.stdout
    assert "nope" in result.stdout
    assert result.returncode == 1  # a line failed


async def test_an_animation_says_how_long_to_wait_for_its_end(tmp_path: Path) -> None:
    """A fight shown phase by phase moves on only with the clock, which the sandbox moves on `wait`: the
    transcript says so once, again after a wait too short, and no more once the fight is shown."""
    script = tmp_path / "script.txt"
    script.write_text(
        "given bob dinocard-pack-level-5\nbob: /dino dojo pack:Braise maître:maitre_moueffe\n"
        'bob: click "Tout voir"\nbob: /profil\nwait 10s\nwait 2m\nbob: /profil\n',
        encoding="utf-8",
    )
    lines: list[str] = []
    code = await run_sandbox(script=str(script), db_path=None, out=lines.append, seed=3)  # the fight's draw
    assert code == 0, lines
    notes = [(i, line) for i, line in enumerate(lines) if line.startswith("(animation")]
    assert [line for _, line in notes] == [
        "(animation : `wait 50s` pour la suite)",
        "(animation : `wait 40s` pour la suite)",
    ]
    assert lines.index('> bob: click "Tout voir"') < notes[0][0] < lines.index("> bob: /profil")
    assert lines.index("> wait 10s") < notes[1][0] < lines.index("> wait 2m")
