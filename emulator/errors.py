"""Exceptions: one for the test author, one carrying a Discord error response back to the bot."""

from __future__ import annotations

from typing import Any


class EmulatorError(Exception):
    """A scripted user action was impossible (unknown command, no such button, bot did not answer…)."""


class ApiError(Exception):
    """A Discord-style JSON error response; the bot sees it as ``discord.HTTPException`` and subclasses."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        bot_bug: bool = False,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.bot_bug = bot_bug
        """Set when real Discord would reject the request because the bot misbehaved; such rejections
        are also recorded in ``emulator.errors`` so a test cannot miss them when the bot swallows them."""

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def missing_access() -> ApiError:
    """The bot cannot see the channel (no View Channel): 403 / 50001 "Missing Access" (Discord's
    "Opcodes and Status Codes" page, JSON error codes)."""
    return ApiError(403, MISSING_ACCESS, "Missing Access")


def missing_permissions() -> ApiError:
    """The bot sees the channel but lacks a permission the call needs: 403 / 50013."""
    return ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def invalid_form(message: str) -> ApiError:
    """Discord reports payload validation failures as 400 / 50035 "Invalid Form Body"."""
    errors = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}
    return ApiError(400, 50035, f"Invalid Form Body: {message}", errors, bot_bug=True)


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
UNKNOWN_MEMBER = 10007
CANNOT_SEND_EMPTY = 50006
CANNOT_DM_USER = 50007
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
ALREADY_ACKNOWLEDGED = 40060
