"""The one family of user-safe errors; every layer raises these and one handler shows them localized."""

from __future__ import annotations


class DomainError(Exception):
    """An error the user caused or can act on. `key` names a message in the locale catalogs."""

    key = "error.generic"

    def __init__(self, key: str | None = None, **params: object) -> None:
        self.key = key or type(self).key
        self.params: dict[str, object] = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class IllegalAction(DomainError):
    """An action the rules do not allow in the current state."""

    key = "error.illegal_action"
