"""How the end-to-end tests read what the bot posted: a message as a reader sees it, and the one public
message a title names."""

from __future__ import annotations

import re

from emulator.records import RecordedMessage
from sandbox.harness import BotHarness


def shown(message: RecordedMessage) -> str:
    """The message as rendered, narrow no-break spaces (French punctuation) read as plain spaces."""
    return str(message.render()).replace("\u202f", " ")


def only_public(h: BotHarness, pattern: str) -> RecordedMessage:
    """The one public message whose text matches `pattern` (e.g. a duel's title with its number)."""
    found = [m for m in h.emu.messages if not m.ephemeral and re.search(pattern, shown(m))]
    assert len(found) == 1, [shown(m) for m in found]
    return found[0]
