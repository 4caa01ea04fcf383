"""The store's own errors, raised by either engine."""

from __future__ import annotations


class DatabaseUnusable(Exception):
    """The one line shown to the person starting the bot: which file, and what is wrong with it."""


class DatabaseClosed(RuntimeError):
    """Work that reached the database after the bot closed it (a command finishing during shutdown): refused,
    and nothing of it is written."""


def deliverable(exc: BaseException) -> BaseException:
    """Futures refuse StopIteration (a stray `next()` in a unit); wrap it so the caller still learns why."""
    if isinstance(exc, StopIteration):
        wrapped = RuntimeError(f"write unit raised StopIteration: {exc!r}")
        wrapped.__cause__ = exc
        return wrapped
    return exc
