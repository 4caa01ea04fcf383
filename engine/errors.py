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
    """An action of the game that the rules refuse in the current state (not your turn, a card not in hand).

    The player can act on it: the message says what the rules forbid, and another action may be legal."""

    key = "error.illegal_action"


class InvalidAction(DomainError):
    """Data that is no action of the game at all: malformed JSON, an unknown kind, a missing field.

    Kept apart from `IllegalAction` because no rule is involved: it comes from a damaged or forged button,
    or a stored value the code no longer reads, and a player can only start again from fresh buttons."""

    key = "error.invalid_action"
