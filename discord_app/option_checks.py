"""A slash command's options are checked against what the command declared, before any of its code runs.

The Discord client enforces types, bounds, lengths and choices, but discord.py hands a payload's values to
the callback unchanged (a `Range` or a choices list is only a declaration sent to Discord, and a plain
`Choice[...]` is the only annotation it re-checks). A replayed, re-delivered or buggy payload would then
reach a cog with a value its signature excludes: an id SQLite cannot store, a choice a `dict` lookup lacks,
a string where an int was declared. One check here refuses all of them with a localized message, so a
cog may trust its signature and no command needs its own guard.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from discord import AppCommandOptionType as Kind
from discord import app_commands

from core.i18n import format_decimal
from core.settings import SUPPORTED_LOCALES
from discord_app.refusals import BadOption, echo
from discord_app.translator import choice_label, qualified
from services.infra.messages import Number, Text

DISCORD_NUMBER_LIMIT = 2**53
"""Discord refuses integer and number options beyond ±2^53; an option that declares no bound gets this."""
MAX_ID = DISCORD_NUMBER_LIMIT - 1
"""The bound of an id option (a game, a battle, a card copy): any id the bot hands out fits, SQLite's 64-bit
integers included, and nothing beyond reaches a query (2^63 raised OverflowError there)."""
DISCORD_STRING_LIMIT = 6000
"""Discord's longest string option; a string option that declares no bound gets this."""
SNOWFLAKE_LIMIT = 2**64
_GROUPS = (Kind.subcommand.value, Kind.subcommand_group.value)
_RESOLVED = {
    Kind.user: ("users",),
    Kind.channel: ("channels",),
    Kind.role: ("roles",),
    Kind.mentionable: ("users", "roles"),
    Kind.attachment: ("attachments",),
}

Id = app_commands.Range[int, 1, MAX_ID]
"""The annotation of every id option."""


def leaf_options(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The options of the subcommand that runs, below its groups."""
    options: Any = data.get("options") or []
    while isinstance(options, list) and len(options) == 1 and isinstance(options[0], Mapping):
        if options[0].get("type") not in _GROUPS:
            break
        options = options[0].get("options") or []
    if not isinstance(options, list):
        return []
    return [o for o in options if isinstance(o, Mapping)]


Plan = tuple[tuple[app_commands.Parameter, str, Text], ...]
_PLAN = "option_checks.plan"


def _plan(command: app_commands.Command[Any, ..., Any]) -> Plan:
    """Each parameter with its name in payloads and the text naming it, made once per command and kept in
    its `extras`: discord.py builds the `parameters` list anew at each access, and a command with nine
    options paid for nine of them and nine texts at every call."""
    plan: Plan | None = command.extras.get(_PLAN)
    if plan is None:
        plan = tuple(
            (param, param.display_name, Text(f"cmd.{qualified(command)}.opt.{param.name}.name"))
            for param in command.parameters
        )
        command.extras[_PLAN] = plan
    return plan


def check_options(command: app_commands.Command[Any, ..., Any], data: Mapping[str, Any]) -> None:
    """Raise `BadOption` for the first option whose value the command did not declare."""
    given = {str(o.get("name")): o.get("value") for o in leaf_options(data)}
    resolved: Mapping[str, Any] = data.get("resolved") or {}
    for param, name, option in _plan(command):
        if name not in given:
            if param.required:
                raise BadOption("error.option.missing", option=option)
            continue
        _check(param, option, given[name], resolved)


def _check(param: app_commands.Parameter, option: Text, value: Any, resolved: Mapping[str, Any]) -> None:
    kind = param.type
    if kind in (Kind.integer, Kind.number):
        _check_number(param, option, value)
    elif kind is Kind.string:
        if not isinstance(value, str):
            raise BadOption("error.option.type", option=option, value=echo(value))
        low = param.min_value or 0
        high = param.max_value or DISCORD_STRING_LIMIT
        if not low <= len(value) <= high:
            raise BadOption(
                "error.option.length", option=option, value=echo(value), low=bound(low), high=bound(high)
            )
    elif kind is Kind.boolean:
        if not isinstance(value, bool):
            raise BadOption("error.option.type", option=option, value=echo(value))
    elif kind in _RESOLVED:
        found = _snowflake(value) is not None and any(
            str(value) in (resolved.get(group) or {}) for group in _RESOLVED[kind]
        )
        if not found:
            raise BadOption("error.option.type", option=option, value=echo(value))
    if param.choices and not any(c.value == value and type(c.value) is type(value) for c in param.choices):
        choices = [choice_label(c) for c in param.choices]
        raise BadOption("error.option.choice", option=option, value=echo(value), choices=choices)


def bound(value: float) -> object:
    """A declared bound as a reader reads it: grouped, and a decimal in each language's way."""
    if isinstance(value, int):
        return Number(value)
    return Text.per_locale({lang: format_decimal(value, lang) for lang in SUPPORTED_LOCALES})


def _check_number(param: app_commands.Parameter, option: Text, value: Any) -> None:
    integer = param.type is Kind.integer
    valid = type(value) is int if integer else isinstance(value, int | float) and not isinstance(value, bool)
    if not valid or (isinstance(value, float) and not math.isfinite(value)):
        raise BadOption("error.option.type", option=option, value=echo(value))
    low = -DISCORD_NUMBER_LIMIT if param.min_value is None else param.min_value
    high = DISCORD_NUMBER_LIMIT if param.max_value is None else param.max_value
    if not low <= value <= high and not param.choices:
        raise BadOption(
            "error.option.range", option=option, value=echo(value), low=bound(low), high=bound(high)
        )


def _snowflake(value: Any) -> int | None:
    if not isinstance(value, str) or not value.isascii() or not value.isdecimal():
        return None
    number = int(value)
    return number if 0 < number < SNOWFLAKE_LIMIT else None
