"""The transcript prints a message when it appears and again at each edit that changes what it shows; the
messages whose last edit it already printed are not read again at each line (a tournament's transcript
holds thousands of them)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from emulator import DiscordEmulator
from emulator.messages import fill_message
from sandbox.main import Sandbox


def test_an_edit_prints_the_message_again_only_when_it_changed_what_it_shows() -> None:
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channel = emu.add_channel(guild, "general")
    bot = emu.add_user("bot", admin=True)
    lines: list[str] = []
    sandbox = Sandbox(SimpleNamespace(emu=emu), lines.append)  # type: ignore[arg-type]

    def edit(message: Any, content: str) -> None:
        fill_message(message, {"content": content}, [], emu.world.ids, editing=True)

    first = emu.create_message(channel, bot, {"content": "Ronde 1"})
    sandbox.flush_output()
    assert lines == ["[#general] Ronde 1"]
    sandbox.flush_output()  # nothing new
    assert len(lines) == 1
    edit(first, "Ronde 1")  # an edit to the same state
    sandbox.flush_output()
    assert len(lines) == 1
    emu.create_message(channel, bot, {"content": "Ronde 2"})
    edit(first, "Ronde 1 terminée")
    sandbox.flush_output()
    assert lines[1:] == ["[#general] Ronde 1 terminée", "[#general] Ronde 2"]
    edit(first, "Ronde 1 terminée")
    edit(first, "Ronde 1 close")  # two edits between two lines: the last state
    sandbox.flush_output()
    assert lines[3:] == ["[#general] Ronde 1 close"]
