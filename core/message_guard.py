"""What a message's parameter must never be: a Python repr, `None`, or a catalog's card id.

Every parameter `core.i18n.t` writes into a text, and every text shown verbatim (`Text.raw`), passes
`GUARD.check`. A player reads « Vous proposez 999 999 », never « Number(value=999999) », and a card by its
name in their language, never `sorcieres-willow-druid` (docs/platform.md, "Nothing internal in a message").

- **In production** a finding is logged (the message's key, the parameter, why) and the message is still
  written: an object, or a string holding a repr, is replaced by « … »; a card id or « None » is left as
  it is (shown, it is a defect, not a danger, and a player may well be called « None » or « merlin »). A
  user's command never fails on its own message.
- **Strict** (`STRICT_MESSAGES=1`, which the test suite's conftest sets): a finding raises
  `LeakedInternal` and is also kept in `findings`, so that a test fails even where the exception was
  caught on its way (the outbox's loop, discord.py's handler of an error handler's failure).

The card ids are registered by whoever loads the catalogs (`forbid`): the services' container at
start-up, the test suite for every shipped catalog. Decision: one set per process, the union of every
catalog loaded, because an id is internal whichever container's catalog holds it; a second container
only adds to it.

Measured on the shipped catalogs: no card id equals a card's name in any language nor a whole message of
either catalog, so an argument equal to an id is refused, one-word ids (`imp`, `orage`, `merlin`) too.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import Decimal

log = logging.getLogger(__name__)

STRICT_ENV = "STRICT_MESSAGES"
STAND_IN = "…"  # what production shows instead of an object's repr

# `Number(value=…`, `Text(key=…`, a bare `value=`, `<… object at 0x…>`, `Decimal('…')`: what str() and
# repr() write of the objects a message is built from.
REPR_PATTERN = re.compile(
    r"\b[A-Z]\w*\(\w+=|\bvalue=|\bobject at 0x[0-9a-fA-F]+|\b(?:Decimal|datetime|date)\("
)
_SHOWN_AS_THEY_ARE = (int, float, Decimal)
REPR = "a Python repr"


class Quoted(str):
    """What a player typed, quoted back to them (`discord_app.refusals.echo`): theirs to see whatever it
    looks like, a card's id or « Number(value=1) » included."""

    __slots__ = ()


ECHO_LIMIT = 60  # what a message quotes of one value a player typed


def echo(value: object, limit: int = ECHO_LIMIT) -> Quoted:
    """What a message quotes of a player's input: one line, at most `limit` characters, marked as theirs
    (`Quoted`: their own words are neither guarded nor held to the bot's wording). A value that is no
    string is quoted as the client sent it, in JSON (`null`, `true`, `[1, 2]`), not as Python writes it
    (`None`, `True`)."""
    sent = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    quoted = " ".join(sent.split())
    return Quoted(quoted if len(quoted) <= limit else quoted[: limit - 1] + "…")


class Written(str):
    """A message already written, placed in another (the wording check of the tests only): `read` is how
    the check read it, what a player typed in it left out."""

    __slots__ = ("read",)
    read: str

    def __new__(cls, text: str, read: str) -> Written:
        written = super().__new__(cls, text)
        written.read = read
        return written


class LeakedInternal(RuntimeError):
    """A message was about to show a player something internal (strict mode only)."""


# Reads a written message in its language and says what breaks its rules (the test suite's text checker,
# tests/support/wording/: typography, elision, glossary, numbers); None in production.
WordingCheck = Callable[[str, str], Sequence[str]]
QUOTE_HOLE = "\ue000"  # what a player typed stands in for itself: the wording check does not read it


class MessageGuard:
    def __init__(self) -> None:
        self.strict = os.environ.get(STRICT_ENV, "") == "1"
        self.forbidden: frozenset[str] = frozenset()
        self.findings: list[str] = []
        self.wording: WordingCheck | None = None
        self.refused = 0  # parameters refused so far: a renderer keeps only what it wrote without one

    def forbid(self, words: Iterable[str]) -> None:
        """Strings no message may show as a parameter (the catalogs' card ids)."""
        new = frozenset(words)
        if not new <= self.forbidden:
            self.forbidden = self.forbidden | new

    def why(self, value: object) -> str | None:
        """Why `value` must not be shown, or None when it may."""
        kind = type(value)
        if kind is str:
            assert isinstance(value, str)
            if value in self.forbidden:
                return "a card's catalog id"
            if value == "None":
                return "None"
            if ("=" in value or " at 0x" in value or "(" in value) and REPR_PATTERN.search(value):
                return REPR
            return None
        if kind in _SHOWN_AS_THEY_ARE or kind is date or kind is Quoted or kind is Written:
            return None
        return f"a {kind.__name__} object"

    def check(self, value: object, key: str, name: str) -> object:
        """`value` as the message `key` may show it as its parameter `name` (see the module's docstring)."""
        why = self.why(value)
        if why is None:
            return value
        self.refused += 1
        finding = f"message {key}: parameter {name} is {why}: {str(value)[:80]!r}"
        if self.strict:
            self.findings.append(finding)
            raise LeakedInternal(finding)
        log.warning("%s", finding)
        return value if isinstance(value, str) and why != REPR else STAND_IN

    def check_wording(self, key: str, lang: str, text: str, params: dict[str, object]) -> str:
        """A message as written with its parameters, through `wording` (tests only): a placeholder that
        builds a wrong phrase (« de alice », « 40 Pièces », « 1000 ») is caught where it happens. What a
        player typed is left out of the reading, here and in every message this one is placed in
        (returns the text as read, which `Written.read` carries up). Findings are kept, never raised:
        the message still goes, and the test fails at its end."""
        read = text
        for value in params.values():
            if isinstance(value, Quoted) and value:
                read = read.replace(value, QUOTE_HOLE)
            elif isinstance(value, Written) and value.read != value:
                read = read.replace(value, value.read)
        if self.wording is not None:
            self.findings += [f"message {key} ({lang}): {finding}" for finding in self.wording(read, lang)]
        return read


GUARD = MessageGuard()
