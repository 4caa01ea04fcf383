"""A refused command writes nothing, not even the marker of its game's welcome: the number of rows of
every table is unchanged (tests/e2e/hostile.py `state_of`). Each command here is its player's first of its
game, the case where the welcome's marker used to be written by the refusal itself."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.harness import BotHarness
from tests.e2e.hostile import assert_private_and_fits, send_raw, state_of


@pytest.mark.parametrize(
    ("path", "options", "raw"),
    [
        ("choco main", {}, False),  # no game in this channel
        ("immortals challenge", {"player": "bot"}, False),
        ("pillz challenge", {"player": "bot"}, False),
        ("dino défi", {"pack": "Aucun", "adversaire": "#1"}, False),
        ("choco referee-extend", {"hours": 0}, True),  # below the declared bounds: only a forged client
    ],
)
async def test_a_refused_first_command_of_a_game_leaves_no_row(
    harness: BotHarness, path: str, options: dict[str, Any], raw: bool
) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "profile")
    await harness.settle()
    values = {k: harness.emu.world.bot if v == "bot" else v for k, v in options.items()}
    before = state_of(harness.db_path)
    if raw:
        reply = await send_raw(harness, alice, path, values)
    else:
        reply = await harness.emu.run_command(alice, path, values)
    assert_private_and_fits(reply)
    await harness.settle()
    assert state_of(harness.db_path) == before


async def test_a_refused_first_command_still_welcomes_and_the_first_success_records_it(
    harness: BotHarness,
) -> None:
    """The welcome is shown with the refusal (a newcomer who typed something wrong learns the game), not
    recorded; the first command that succeeds records it without showing it a second time."""
    alice = harness.user("alice")

    def welcomes() -> int:
        return sum(
            "Bienvenue dans la Chocobataille" in m.render() for m in harness.emu.ephemeral_messages(alice)
        )

    await harness.emu.run_command(alice, "choco main")
    await harness.settle()
    assert welcomes() == 1
    await harness.emu.run_command(alice, "choco main")  # refused again: already shown by this process
    await harness.emu.run_command(alice, "choco règles")
    await harness.settle()
    assert welcomes() == 1
    assert harness.bot is not None
    sql = "SELECT COUNT(*) FROM idempotency WHERE key = ?"
    key = f"welcome:choco:{alice.id}"
    assert await harness.bot.services.db.read(lambda conn: conn.execute(sql, (key,)).fetchone()[0]) == 1
