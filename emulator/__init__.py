"""An in-process Discord emulator that the real, unmodified discord.py client connects to.

See ``emulator.server`` for the workflow; the names below are the public API.
"""

from emulator.core import Fault
from emulator.errors import ApiError, EmulatorError
from emulator.interactions import InteractionRecord, InteractionResult
from emulator.records import Attachment, RecordedMessage, RequestRecord
from emulator.render import render_message
from emulator.server import DiscordEmulator
from emulator.world import Channel, Guild, Role, User

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "DiscordEmulator",
    "EmulatorError",
    "Fault",
    "Guild",
    "InteractionRecord",
    "InteractionResult",
    "RecordedMessage",
    "RequestRecord",
    "Role",
    "User",
    "render_message",
]
