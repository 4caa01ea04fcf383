"""The inactivity ladder of a Chocobataille game (rulebook V.2), run as sandbox scripts on the sandbox's
clock, checked on the transcript and in the database: reminders before D, a pioche card destroyed at D,
the turn passed at 3 D, the second pass disqualifies; a declared absence pauses all of it.

Every script starts from examples/choco.txt (seed 8): alice and bob buy frogs, build Bronze decks, play
the preparatory turn and turns 1 to 3; bob is then called for turn 4 at T0 and stops answering. Each
`wait` fires what fell due at its end, so reminders are checked with waits that stop before D.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.clock import from_db
from sandbox.harness import BotHarness
from sandbox.main import Sandbox, run_sandbox
from services.infra.catalogs import DATA_DIR

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "choco.txt"
SEED = 8
T0 = datetime(2026, 2, 5, 12, 0, tzinfo=UTC)  # 31 days after the sandbox's start: bob's turn 4 is called
PENALTY = "Pénalité d'inactivité"
PASSED = "n'a pas joué depuis 72 heures\u00a0: son tour est passé."


def prefix() -> list[str]:
    """The example up to bob's silence (its first `wait` after the challenge)."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    return lines[: lines.index("wait 13h")]


@asynccontextmanager
async def played(tmp_path: Path, steps: list[str], before: Sequence[str] = ()) -> AsyncIterator[Run]:
    """Run `before` + the example's opening + `steps` on a seeded sandbox; yields while the bot still runs."""
    harness = BotHarness(tmp_path / "db.sqlite3", seed=SEED)
    await harness.start()
    run = Run(harness, tmp_path / "db.sqlite3")
    sandbox = Sandbox(harness, run.lines.append)
    try:
        for line in [*before, *prefix(), *steps]:
            if line.strip() and not line.startswith("#"):
                run.lines.append(f"> {line}")
            await sandbox.run_line(line)
        assert sandbox.failures == 0, "\n".join(run.lines)
        yield run
    finally:
        await harness.stop()


class Run:
    def __init__(self, harness: BotHarness, db: Path) -> None:
        self.h = harness
        self.db = db
        self.lines: list[str] = []

    def after(self, step: str, occurrence: int = 1) -> str:
        """What the transcript printed for the `occurrence`-th script line equal to `step`."""
        starts = [i for i, line in enumerate(self.lines) if line == f"> {step}"]
        start = starts[occurrence - 1] + 1
        end = next((i for i in range(start, len(self.lines)) if self.lines[i].startswith("> ")), None)
        return "\n".join(self.lines[start:end])

    def sql(self, query: str, *args: object) -> list[tuple[object, ...]]:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(query, args).fetchall()

    def game(self) -> dict[str, object]:
        with sqlite3.connect(self.db) as conn:
            conn.row_factory = sqlite3.Row
            return dict(
                conn.execute(
                    "SELECT id, number, status, thread_id, json_extract(result, '$.result') AS result,"
                    " json_extract(result, '$.winner') AS winner_seat,"
                    " json_extract(result, '$.reward_card') AS reward_card, state, deadline_at,"
                    " json_extract(data, '$.pass_at') AS pass_at, json_extract(data, '$.stage') AS stage,"
                    " json_extract(data, '$.turn_started_at') AS turn_started_at"
                    " FROM matches WHERE game = 'choco' AND number IS NOT NULL"
                ).fetchone()
            )

    def log_kinds(self) -> list[str]:
        return [str(k) for (k,) in self.sql("SELECT kind FROM choco_game_log ORDER BY seq")]

    def player(self, name: str) -> int:
        user = self.h.emu.world.user_named(name)
        assert user is not None
        return user.id


def french_name(card_id: str) -> str:
    cards = json.loads((DATA_DIR / "choco.json").read_text(encoding="utf-8"))["cards"]
    return str(next(c["name"]["fr"] for c in cards if c["id"] == card_id))


async def test_the_example_script_runs_and_is_repeatable(tmp_path: Path) -> None:
    """examples/choco.txt as a reader runs it: no failed line, the 24 h penalty names the card that went
    from bob's pioche to his graveyard, and 72 h in all pass his turn; the same seed, the same transcript."""
    runs: list[list[str]] = []
    for attempt in (1, 2):
        lines: list[str] = []
        db = tmp_path / f"run{attempt}.sqlite3"
        code = await run_sandbox(script=str(EXAMPLE), db_path=str(db), out=lines.append, seed=SEED)
        assert code == 0, "\n".join(lines)
        runs.append(lines)
    assert runs[0] == runs[1]
    text = "\n".join(runs[0])
    assert text.count("] Votre main dans la partie n° 1") == 7  # 2 dealt, then one per new call
    # each hand DM deals the hand as text, its picture on demand (docs/choco/referee.md); nothing
    # public carries the picture
    dms = [
        block
        for block in text.split("\n[")
        if block.startswith("DM ") and "Votre main dans la partie" in block
    ]
    assert len(dms) == 7
    assert not any("[file: choco-hand-1.png]" in block for block in dms)
    assert all("Voir ma main en images" in block for block in dms)
    public = [block for block in text.split("\n[") if block.startswith("#")]
    assert not any("choco-hand" in block for block in public)

    with sqlite3.connect(db) as conn:
        state = json.loads(
            conn.execute("SELECT state FROM matches WHERE game = 'choco' AND number IS NOT NULL").fetchone()[
                0
            ]
        )
        log = conn.execute("SELECT kind, data FROM choco_game_log ORDER BY seq").fetchall()
    kinds = [k for k, _ in log]
    assert kinds[-2:] == ["penalty_24h", "penalty_72h"]
    assert kinds.count("penalty_24h") == 1
    destroyed = [e for e in json.loads(log[-2][1])["events"] if e["kind"] == "penalty_destroyed"]
    assert len(destroyed) == 1
    assert destroyed[0]["data"]["from"] == "pioche"
    card_id = destroyed[0]["data"]["card_id"]
    bob = state["sides"][1]
    assert [c["card_id"] for c in bob["graveyard"]] == [card_id]
    reminders = text[text.index("> wait 13h") : text.index("> wait 2h")]
    assert reminders.count("[DM bob] Rappel\u00a0: il vous reste 12 h") == 1
    assert PENALTY not in reminders
    assert reminders.count("[DM bob] Rappel\u00a0: il vous reste 1 h") == 1
    after_25h = text[text.index("> wait 2h") : text.index("> wait 48h")]
    assert f"{PENALTY}\u00a0: {french_name(card_id)}, tiré(e) au hasard de la pioche de @bob" in after_25h
    assert after_25h.count(PENALTY) == 1
    assert PASSED not in after_25h
    after_72h = text[text.index("> wait 48h") :]
    assert f"@bob {PASSED}" in after_72h
    assert "@alice, à vous de jouer (tour 5)" in after_72h
    assert state["turn"] == 5
    assert state["active"] == 0
    assert state["passes"] == [0, 1]


def test_the_command_line_takes_the_seed(tmp_path: Path) -> None:
    """`python bot.py --sandbox --seed 8 --script examples/choco.txt` prints what run_sandbox(seed=8) does."""
    lines: list[str] = []
    code = asyncio.run(
        run_sandbox(script=str(EXAMPLE), db_path=str(tmp_path / "db.sqlite3"), out=lines.append, seed=SEED)
    )
    assert code == 0
    command = [sys.executable, "bot.py", "--sandbox", "--seed", str(SEED), "--script", str(EXAMPLE)]
    printed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.splitlines() == lines, printed.stderr
    alone = [sys.executable, "bot.py", "--seed", str(SEED)]
    refused = subprocess.run(alone, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert refused.returncode == 2
    assert "only apply to --sandbox" in refused.stderr


def at(run: Run, column: str) -> datetime:
    value = run.game()[column]
    assert isinstance(value, str)
    return from_db(value)


async def test_reminders_then_the_penalty_at_d_then_the_pass_at_3d(tmp_path: Path) -> None:
    steps = ["wait 11h", "wait 2h", "wait 10h", "wait 2h", "wait 46h", "wait 2h"]
    async with played(tmp_path, steps) as run:
        assert run.after("wait 11h").count("[DM") == 0
        twelve = run.after("wait 2h", 1)
        assert "[DM bob] Rappel\u00a0: il vous reste 12 h pour jouer dans la partie n° 1" in twelve
        assert "[DM alice]" not in twelve
        assert PENALTY not in twelve
        one = run.after("wait 10h")
        assert "[DM bob] Rappel\u00a0: il vous reste 1 h" in one
        assert PENALTY not in one
        penalty = run.after("wait 2h", 2)  # T0 + 25 h
        assert penalty.count(f"{PENALTY}\u00a0: ") == 1
        assert "de la pioche de @bob" in penalty
        assert "[DM" not in penalty  # no reminder for the pass
        assert run.log_kinds().count("penalty_24h") == 1
        assert PASSED not in run.after("wait 46h")  # T0 + 71 h
        passed = run.after("wait 2h", 3)  # T0 + 73 h
        assert f"@bob {PASSED}" in passed
        assert "@alice, à vous de jouer (tour 5)" in passed
        assert run.log_kinds()[-2:] == ["penalty_24h", "penalty_72h"]


async def test_reminders_follow_the_server_setting(tmp_path: Path) -> None:
    setup = ["user olivia admin", 'olivia: /configuration chocobataille rappels:"6"']
    async with played(tmp_path, ["wait 17h", "wait 2h", "wait 6h"], before=setup) as run:
        assert "[DM" not in run.after("wait 17h")
        six = run.after("wait 2h")
        assert "[DM bob] Rappel\u00a0: il vous reste 6 h" in six
        rest = run.after("wait 6h")
        assert "Rappel" not in rest
        assert "[DM" not in rest
        assert f"{PENALTY}\u00a0: " in rest
        reminders = run.sql("SELECT payload FROM jobs WHERE kind = 'choco:reminder' AND state = 'done'")
        assert [json.loads(str(p))["hours"] for (p,) in reminders] == [6]


async def test_a_second_pass_disqualifies(tmp_path: Path) -> None:
    steps = ["wait 73h", 'alice: /choco jouer actions:"invoque M4 front\u202f; attaque F1 > AF1"', "wait 73h"]
    async with played(tmp_path, steps) as run:
        alice, bob = run.player("alice"), run.player("bob")
        assert f"@bob {PASSED}" in run.after("wait 73h", 1)
        assert "Tour joué" in run.after(steps[1])
        end = run.after("wait 73h", 2)
        assert (
            end.count(f"{PENALTY}\u00a0: ") == 1
        )  # the second call's 24 h penalty, then the disqualification
        # One forfeit line (the result), then the reward.
        assert end.count("disqualifié(e)") == 1
        assert "@bob est disqualifié(e) pour absences répétées" in end
        assert end.index("disqualifié(e)") < end.index("@alice remporte une carte")
        assert "@alice remporte une carte" in end
        assert "[Voir ma main]" not in end.split(PASSED)[-1]

        game = run.game()
        assert (game["status"], game["result"], game["winner_seat"]) == ("over", "forfeit_absence", 0)
        results = {
            int(str(p)): (w, l_, f)
            for p, w, l_, f in run.sql(
                "SELECT player_id, wins, losses, absence_forfeits FROM choco_results WHERE league = 'bronze'"
            )
        }
        assert results == {alice: (1, 0, 0), bob: (0, 1, 1)}
        rewards = run.sql(
            "SELECT l.player_id, l.card_id, c.card_key, c.owner_id FROM ledger l JOIN cards c ON c.id = l.card_id"
            " WHERE l.reason = 'choco.reward'"
        )
        assert len(rewards) == 1
        player, card, key, owner = rewards[0]
        assert player == owner == alice
        assert card == game["reward_card"]
        cards = json.loads((DATA_DIR / "choco.json").read_text(encoding="utf-8"))["cards"]
        assert next(c["rarity"] for c in cards if c["id"] == key).startswith("bronze")
        assert run.sql("SELECT COUNT(*) FROM match_jobs") == [(0,)]
        assert run.sql("SELECT COUNT(*) FROM jobs WHERE kind LIKE 'choco:%' AND state = 'due'") == [(0,)]
        thread = run.h.emu.world.channels[int(str(game["thread_id"]))]
        assert thread.archived
        assert run.log_kinds()[-4:] == ["turn", "penalty_24h", "penalty_72h", "end"]


async def test_a_declared_absence_pauses_the_ladder(tmp_path: Path) -> None:
    steps = [
        'bob: /choco absence durée:3j raison:"vacances"',
        "wait 25h",
        "wait 69h",
        "wait 1h30m",
        "wait 1h",
    ]
    async with played(tmp_path, steps) as run:
        notice = run.after(steps[0])
        assert "[bob only] Partie n° 1 (#Chocobataille n° 1)\u00a0: absence enregistrée jusqu" in notice
        assert "@bob est absent jusqu'au" in notice
        assert "(vacances)" in notice
        quiet = run.after("wait 25h") + run.after("wait 69h")  # up to T0 + 94 h
        assert PENALTY not in quiet
        assert PASSED not in quiet
        assert "Rappel\u00a0: il vous reste 1 h" not in quiet
        assert quiet.count("[DM bob] Rappel\u00a0: il vous reste 12 h") == 1  # 12 h before the moved D
        last_hour = run.after("wait 1h30m")  # T0 + 95 h 30
        assert "[DM bob] Rappel\u00a0: il vous reste 1 h" in last_hour
        assert PENALTY not in last_hour
        resumed = run.after("wait 1h")  # T0 + 96 h 30: D after the absence's end (T0 + 72 h)
        assert resumed.count(f"{PENALTY}\u00a0: ") == 1
        assert run.log_kinds()[-2:] == ["absence", "penalty_24h"]
        assert at(run, "pass_at") == T0 + timedelta(hours=72 + 72)
        assert run.sql("SELECT hours, reason FROM choco_absences") == [(72, "vacances")]
