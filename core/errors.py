"""Domain errors of the platform; all are `DomainError`s, so the global handler shows them localized."""

from __future__ import annotations

from engine.errors import DomainError, IllegalAction, InvalidAction


class InsufficientFunds(DomainError):
    key = "error.insufficient_funds"


class CardUnavailable(DomainError):
    key = "error.card_unavailable"


class NotAllowed(DomainError):
    key = "error.not_allowed"


class NotFound(DomainError):
    key = "error.not_found"


class BadInput(DomainError):
    key = "error.bad_input"


__all__ = [
    "BadInput",
    "CardUnavailable",
    "DomainError",
    "IllegalAction",
    "InsufficientFunds",
    "InvalidAction",
    "NotAllowed",
    "NotFound",
]
