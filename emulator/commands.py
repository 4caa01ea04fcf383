"""Application commands as synced by the bot, with Discord's registration rules.

Commands keep a stable id per (scope, type, name), so re-syncing the same tree is idempotent, exactly like
Discord's bulk overwrite. The rules are those of Discord's "Application Commands" page: names, 1-100
character descriptions, localization keys from the "Reference" page's Locales, choices, `min_length` /
`max_length` between 0 / 1 and 6000, subcommands never beside plain options, at most 8000 characters per
slash command and 100 slash commands (15 user, 15 message commands) per scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from emulator.errors import UNKNOWN_COMMAND, invalid_form, not_found
from emulator.limits import check_choice, check_locales
from emulator.payloads import JsonDict
from emulator.world import World

_NAME_RE = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUBCOMMAND = 1
SUBCOMMAND_GROUP = 2
STRING = 3
DESCRIPTION_MAX = 100
STRING_LENGTH_MAX = 6000
# "An app can have the following number of commands: 100 global CHAT_INPUT commands, 15 global USER
# commands, 15 global MESSAGE commands ... the same amount of guild-specific commands per guild."
PER_SCOPE = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15}
# "Slash commands can have a maximum of 8000 characters for combined name, description, and value
# properties for each command, its options (including subcommands and groups), and choices. When
# localization fields are present, only the longest localization for each field (including the default
# value) is counted towards the size limit."
COMMAND_SIZE_MAX = 8000


@dataclass
class RegisteredCommand:
    id: int
    guild_id: int | None
    data: JsonDict

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type") or CHAT_INPUT)


class CommandRegistry:
    def __init__(self, world: World) -> None:
        self._world = world
        self._scopes: dict[int | None, dict[tuple[int, str], RegisteredCommand]] = {}
        self.sync_count = 0
        """How many times the bot (re)registered commands; tests may assert it synced at all."""

    def scope(self, guild_id: int | None) -> list[RegisteredCommand]:
        return list(self._scopes.get(guild_id, {}).values())

    def payloads(self, guild_id: int | None) -> list[JsonDict]:
        return [command.data for command in self.scope(guild_id)]

    def bulk_overwrite(self, guild_id: int | None, payloads: Any) -> list[JsonDict]:
        if not isinstance(payloads, list):
            raise invalid_form("expected a list of commands")
        commands = [self._build(guild_id, payload) for payload in payloads]
        keys = [(c.type, c.name) for c in commands]
        if len(set(keys)) != len(keys):
            raise invalid_form("duplicate command names")
        _check_counts(keys)
        self._scopes[guild_id] = dict(zip(keys, commands, strict=True))
        self.sync_count += 1
        return [command.data for command in commands]

    def upsert(self, guild_id: int | None, payload: Any) -> tuple[JsonDict, bool]:
        """``POST``: create or replace the command with the same name; the bool says whether it is new."""
        command = self._build(guild_id, payload)
        scope = self._scopes.setdefault(guild_id, {})
        created = (command.type, command.name) not in scope
        _check_counts([*scope, (command.type, command.name)] if created else list(scope))
        scope[(command.type, command.name)] = command
        self.sync_count += 1
        return command.data, created

    def get(self, guild_id: int | None, command_id: int) -> RegisteredCommand:
        for command in self.scope(guild_id):
            if command.id == command_id:
                return command
        raise not_found("application command", UNKNOWN_COMMAND)

    def edit(self, guild_id: int | None, command_id: int, changes: Any) -> JsonDict:
        current = self.get(guild_id, command_id)
        merged = {**current.data, **(changes if isinstance(changes, dict) else {})}
        self.delete(guild_id, command_id)
        data, _ = self.upsert(guild_id, merged)
        return data

    def delete(self, guild_id: int | None, command_id: int) -> None:
        command = self.get(guild_id, command_id)
        del self._scopes[guild_id][(command.type, command.name)]

    def available(self, guild_id: int | None) -> list[RegisteredCommand]:
        """Guild commands shadow global ones of the same name, as in the Discord client."""
        commands = self.scope(guild_id) if guild_id is not None else []
        return commands + self.scope(None)

    def _build(self, guild_id: int | None, payload: Any) -> RegisteredCommand:
        if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
            raise invalid_form("a command needs a name")
        kind = int(payload.get("type") or CHAT_INPUT)
        _validate_command(payload, kind)
        command_id = self._world.ids.stable("command", str(guild_id), str(kind), payload["name"])
        data: JsonDict = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
            **payload,
            "id": str(command_id),
            "application_id": str(self._world.application_id),
            "version": str(command_id),
            "type": kind,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return RegisteredCommand(command_id, guild_id, data)


# The command payloads found valid, by kind and JSON: every bot start registers the same commands, and the
# test suite starts hundreds of bots in each process (the checks took 12 ms a list). A payload at fault is
# checked each time.
_VALID: set[tuple[int, bytes]] = set()
_VALID_MAX = 4096


def _validate_command(payload: JsonDict, kind: int) -> None:
    """Discord rejects the whole bulk overwrite when any name breaks these rules."""
    try:
        key = (kind, orjson.dumps(payload, option=orjson.OPT_SORT_KEYS))
    except orjson.JSONEncodeError:  # e.g. an integer past 64 bits: checked, not remembered
        _check_command(payload, kind)
        return
    if key in _VALID:
        return
    _check_command(payload, kind)
    if len(_VALID) >= _VALID_MAX:
        _VALID.clear()
    _VALID.add(key)


def _check_command(payload: JsonDict, kind: int) -> None:
    if kind == CHAT_INPUT:
        _validate_chat_input(payload, depth=0)
        size = command_size(payload)
        if size > COMMAND_SIZE_MAX:
            raise invalid_form(
                f"command {payload['name']!r} is {size} characters, the limit is {COMMAND_SIZE_MAX}"
            )
    elif not 1 <= len(payload["name"]) <= 32:
        raise invalid_form(f"context menu name {payload['name']!r} must be 1-32 characters")
    else:
        check_locales(payload.get("name_localizations"), f"context menu {payload['name']!r} name", limit=32)


def _validate_name(name: Any, where: str) -> None:
    if not isinstance(name, str) or not _NAME_RE.match(name) or name != name.lower():
        raise invalid_form(f"{where} name {name!r} must be 1-32 lowercase letters, digits, '-', '_' or \"'\"")


def _validate_chat_input(decl: JsonDict, depth: int) -> None:
    name = decl.get("name")
    _validate_texts(decl, "command" if depth == 0 else "option")
    options = decl.get("options") or []
    if len(options) > 25:
        raise invalid_form(f"{name!r} has more than 25 options")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        raise invalid_form(f"{name!r} has duplicate option names")
    nested = [o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in options]
    if any(nested) and not all(nested):
        raise invalid_form(f"{name!r} mixes subcommands with plain options")
    seen_optional = False
    for option in options:
        kind = option.get("type")
        if kind in (SUBCOMMAND, SUBCOMMAND_GROUP):
            if depth >= 2 or (kind == SUBCOMMAND_GROUP and depth >= 1):
                raise invalid_form(f"{option.get('name')!r} is nested too deeply")
            _validate_chat_input(option, depth + 1)
            continue
        _validate_texts(option, "option")
        if option.get("required"):
            if seen_optional:
                raise invalid_form(f"required option {option.get('name')!r} follows an optional one")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            raise invalid_form(f"option {option.get('name')!r} has more than 25 choices")
        if choices and option.get("autocomplete"):
            raise invalid_form(f"option {option.get('name')!r} cannot have both choices and autocomplete")
        for choice in choices:
            check_choice(choice, kind, f"option {option.get('name')!r}")
        _validate_lengths(option)


def _validate_texts(decl: JsonDict, what: str) -> None:
    """Name and description, and their localizations under Discord's locale keys."""
    name = decl.get("name")
    _validate_name(name, what)
    check_locales(decl.get("name_localizations"), f"{what} {name!r} name")
    for locale, localized in (decl.get("name_localizations") or {}).items():
        _validate_name(localized, f"{locale} localized {what}")
    description = decl.get("description") or ""
    if not 1 <= len(description) <= DESCRIPTION_MAX:
        raise invalid_form(f"description of {what} {name!r} must be 1-{DESCRIPTION_MAX} characters")
    where = f"{what} {name!r} description"
    check_locales(decl.get("description_localizations"), where, limit=DESCRIPTION_MAX)


def _validate_lengths(option: JsonDict) -> None:
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and not 0 <= low <= STRING_LENGTH_MAX:
        raise invalid_form(f"min_length of {option.get('name')!r} must be 0-{STRING_LENGTH_MAX}")
    if high is not None and not 1 <= high <= STRING_LENGTH_MAX:
        raise invalid_form(f"max_length of {option.get('name')!r} must be 1-{STRING_LENGTH_MAX}")
    if (low is not None or high is not None) and option.get("type") != STRING:
        raise invalid_form(f"min_length / max_length are for string options, not {option.get('name')!r}")


def _longest(decl: JsonDict, field: str) -> int:
    texts = [decl.get(field), *(decl.get(f"{field}_localizations") or {}).values()]
    return max((len(str(text)) for text in texts if text is not None), default=0)


def command_size(decl: JsonDict) -> int:
    """The characters Discord counts toward a slash command's 8000: names, descriptions and choice values
    of the command, its options and choices, each field by its longest localization."""
    size = _longest(decl, "name") + _longest(decl, "description")
    for choice in decl.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in decl.get("options") or [])


def _check_counts(keys: list[tuple[int, str]]) -> None:
    for kind, limit in PER_SCOPE.items():
        count = sum(1 for k, _ in keys if k == kind)
        if count > limit:
            raise invalid_form(f"{count} commands of type {kind} in one scope, the limit is {limit}")
