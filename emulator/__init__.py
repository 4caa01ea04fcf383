"""An in-process Discord emulator that the real, unmodified discord.py client connects to.

See ``emulator.server`` for the workflow; the names below are the public API.
"""

from .core import Fault
from .errors import ApiError, EmulatorError
from .interactions import InteractionRecord, InteractionResult
from .records import Attachment, RecordedMessage, RequestRecord
from .render import render_message
from .server import DiscordEmulator
from .world import Channel, Guild, Role, User

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
