"""The sandbox's line language, parsed into small values; no Discord here.

alice: /profile                      alice: /group sub option:value other:"two words" who:@bob where:#parties
alice: click "Label"                 alice: select "Option"
alice: modal field=value other="two words"
p01..p64: click "Prêt"               (the same action by each user of the range, in turn)
wait 25h        (units s, m, h, d; combinable: 1d12h)
restart         restart after 2h     (the bot stops, time passes while it is down, it starts again)
given alice hoss-arena-ready         (a named starting situation: sandbox/fixtures/)
user bob en dms-closed admin         (how a user appears to Discord; optional)
# comment
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from datetime import timedelta


class ScriptError(ValueError):
    pass


@dataclass(frozen=True)
class Mention:
    """`@bob` in an option value: the user bob."""

    name: str


@dataclass(frozen=True)
class ChannelMention:
    """`#parties` in an option value: the server's channel of that name."""

    name: str


OptionValue = str | Mention | ChannelMention


@dataclass(frozen=True)
class Command:
    user: str
    path: str  # "profile", "settings language"
    options: dict[str, OptionValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Click:
    user: str
    label: str


@dataclass(frozen=True)
class Select:
    user: str
    option: str


@dataclass(frozen=True)
class Modal:
    user: str
    values: dict[str, str]


@dataclass(frozen=True)
class Wait:
    delta: timedelta


@dataclass(frozen=True)
class Restart:
    """The bot process stops, `down` passes with nothing running, and a new process starts on the same
    database (Discord keeps its messages): what a deploy or a crash does."""

    down: timedelta = timedelta()


@dataclass(frozen=True)
class Given:
    """A named starting situation for a user (sandbox/fixtures/), for what a script cannot reach in a
    few lines: weeks of play, a collection of rare cards."""

    user: str
    fixture: str


@dataclass(frozen=True)
class UserSetup:
    name: str
    locale: str = "fr"
    dms_closed: bool = False
    admin: bool = False


@dataclass(frozen=True)
class Each:
    """One action by each user of a range in turn (`p01..p64: /tournoi rejoindre tournoi:1`): a crowd of
    scripted players in one line."""

    steps: tuple[Command | Click | Select | Modal, ...]


Step = Command | Click | Select | Modal | Wait | Restart | Given | UserSetup | Each

_USER = re.compile(r"^(?P<user>[A-Za-z0-9_.-]{1,32})\s*:\s*(?P<rest>.+)$")
_RANGE = re.compile(r"^(?P<prefix>[A-Za-z_-]*)(?P<first>\d+)\.\.(?P=prefix)(?P<last>\d+)$")
RANGE_MAX = 100
_DURATION = re.compile(r"(\d+)\s*([smhd])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
_LOCALES = {"fr": "fr", "en": "en-US", "en-us": "en-US", "en-gb": "en-GB", "de": "de"}


def parse_duration(text: str) -> timedelta:
    compact = text.replace(" ", "").lower()
    parts = _DURATION.findall(compact)
    if not parts or "".join(n + u for n, u in parts) != compact:
        raise ScriptError(f"bad duration {text!r}: use e.g. 30s, 15m, 25h, 2d or 1d12h")
    total = timedelta()
    for number, unit in parts:
        total += timedelta(**{_UNITS[unit]: int(number)})
    return total


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError as exc:
        raise ScriptError(f"{exc} in {text!r}") from None


def _pairs(tokens: list[str], sep: str, what: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for token in tokens:
        key, found, value = token.partition(sep)
        if not found or not key:
            raise ScriptError(f"expected {what} as name{sep}value, got {token!r}")
        values[key] = value
    return values


def _command(user: str, text: str) -> Command:
    tokens = _tokens(text[1:])
    path: list[str] = []
    while tokens and ":" not in tokens[0]:
        path.append(tokens.pop(0))
    if not path:
        raise ScriptError(f"no command name in {text!r}")
    options: dict[str, OptionValue] = {}
    for key, value in _pairs(tokens, ":", "options").items():
        options[key] = _option_value(value)
    return Command(user, " ".join(path), options)


def _option_value(value: str) -> OptionValue:
    if len(value) > 1 and value[0] == "@":
        return Mention(value[1:])
    if len(value) > 1 and value[0] == "#":
        return ChannelMention(value[1:])
    return value


def _single(rest: str, verb: str) -> str:
    tokens = _tokens(rest)
    if len(tokens) != 1:
        raise ScriptError(f'{verb} takes one quoted label, e.g. {verb} "Accept"')
    return tokens[0]


def _restart(rest: str) -> Restart:
    words = rest.split()
    if not words:
        return Restart()
    if len(words) == 2 and words[0] == "after":
        return Restart(parse_duration(words[1]))
    raise ScriptError("restart takes nothing or a downtime: restart, restart after 2h")


def parse_line(line: str) -> Step | None:
    """One line of a script, or None for a blank line or a comment."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    head, _, rest = text.partition(" ")
    if head == "wait":
        return Wait(parse_duration(rest))
    if head == "restart":
        return _restart(rest)
    if head == "given":
        return _given(rest)
    if head == "user":
        return _user(rest)
    return _user_step(text)


def _given(rest: str) -> Given:
    words = rest.split()
    if len(words) != 2:
        raise ScriptError("given takes a user and a fixture: given alice hoss-arena-ready")
    return Given(words[0], words[1])


def _user(rest: str) -> UserSetup:
    words = rest.split()
    if not words:
        raise ScriptError("user needs a name: user bob en dms-closed admin")
    setup = UserSetup(words[0])
    for word in words[1:]:
        lowered = word.lower()
        if lowered in _LOCALES:
            setup = UserSetup(setup.name, _LOCALES[lowered], setup.dms_closed, setup.admin)
        elif lowered == "dms-closed":
            setup = UserSetup(setup.name, setup.locale, True, setup.admin)
        elif lowered == "admin":
            setup = UserSetup(setup.name, setup.locale, setup.dms_closed, True)
        else:
            raise ScriptError(f"unknown user property {word!r} (fr, en, en-gb, dms-closed, admin)")
    return setup


def users_of(name: str) -> list[str]:
    """A user's name, or each name of a range: `p01..p64` is p01, p02, ... p64 (the digits' width kept)."""
    found = _RANGE.match(name)
    if found is None:
        return [name]
    first, last = int(found.group("first")), int(found.group("last"))
    if not 0 < last - first + 1 <= RANGE_MAX:
        raise ScriptError(f"a range of users goes up, {RANGE_MAX} users at most: {name!r}")
    width = len(found.group("first"))
    return [f"{found.group('prefix')}{n:0{width}d}" for n in range(first, last + 1)]


def _user_step(text: str) -> Step:
    match = _USER.match(text)
    if match is None:
        raise ScriptError(
            f"cannot read {text!r}: expected 'name: /command', 'name: click \"Label\"' or 'wait 1h'"
        )
    users = users_of(match.group("user"))
    rest = match.group("rest").strip()
    if len(users) > 1:
        return Each(tuple(_one_step(user, rest) for user in users))
    return _one_step(users[0], rest)


def _one_step(user: str, rest: str) -> Command | Click | Select | Modal:
    if rest.startswith("/"):
        return _command(user, rest)
    verb, _, args = rest.partition(" ")
    if verb == "click":
        return Click(user, _single(args, "click"))
    if verb == "select":
        return Select(user, _single(args, "select"))
    if verb == "modal":
        return Modal(user, _pairs(_tokens(args), "=", "fields"))
    raise ScriptError(f"unknown action {verb!r}: use /command, click, select or modal")
