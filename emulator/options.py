"""Resolving ``"/group sub"`` paths and Python option values into an APPLICATION_COMMAND payload.

Users type commands in their own language, so every name (command, group, subcommand, option, choice) is
matched against the base name and all ``name_localizations``; the payload always carries base names, as
Discord does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from emulator.commands import CHAT_INPUT, SUBCOMMAND, SUBCOMMAND_GROUP, RegisteredCommand
from emulator.errors import EmulatorError
from emulator.payloads import JsonDict, channel_payload, member_payload, role_payload, user_payload
from emulator.world import Channel, Guild, Role, User, World

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
_TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


def names_of(decl: Mapping[str, Any]) -> set[str]:
    names = {str(decl["name"]).lower()}
    names.update(str(v).lower() for v in (decl.get("name_localizations") or {}).values())
    return names


@dataclass
class Invocation:
    """A command path resolved against the synced commands."""

    command: RegisteredCommand
    chain: list[JsonDict]
    leaf: list[JsonDict]

    @property
    def display(self) -> str:
        return "/" + " ".join([self.command.name, *(str(d["name"]) for d in self.chain)])


def resolve_command(commands: list[RegisteredCommand], path: str, *, kind: int = CHAT_INPUT) -> Invocation:
    tokens = path.strip().lstrip("/").split() if kind == CHAT_INPUT else [path]
    if not tokens:
        raise EmulatorError("empty command path")
    head = tokens[0].lower()
    command = next((c for c in commands if c.type == kind and head in names_of(c.data)), None)
    if command is None:
        known = ", ".join(sorted(c.name for c in commands if c.type == kind)) or "none"
        raise EmulatorError(f"unknown command {tokens[0]!r} (available here: {known})")
    declared: list[JsonDict] = list(command.data.get("options") or [])
    chain: list[JsonDict] = []
    for token in tokens[1:]:
        subs = [o for o in declared if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)]
        match = next((o for o in subs if token.lower() in names_of(o)), None)
        if match is None:
            known = ", ".join(str(o["name"]) for o in subs) or "none"
            raise EmulatorError(f"{' '.join(tokens)!r}: unknown subcommand {token!r} (known: {known})")
        chain.append(match)
        declared = list(match.get("options") or [])
    subs = [o for o in declared if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)]
    if subs:
        known = ", ".join(str(o["name"]) for o in subs)
        raise EmulatorError(f"{' '.join(tokens)!r} needs a subcommand: {known}")
    return Invocation(command, chain, declared)


@dataclass
class Resolved:
    """The ``resolved`` block of an interaction: full objects for every id mentioned in options."""

    users: dict[str, JsonDict] = field(default_factory=dict)
    members: dict[str, JsonDict] = field(default_factory=dict)
    channels: dict[str, JsonDict] = field(default_factory=dict)
    roles: dict[str, JsonDict] = field(default_factory=dict)
    messages: dict[str, JsonDict] = field(default_factory=dict)

    def add_user(self, world: World, user: User, guild: Guild | None) -> None:
        self.users[str(user.id)] = user_payload(user)
        if guild is not None:
            member = member_payload(world, user, guild, permissions=True)
            member.pop("user")
            self.members[str(user.id)] = member

    def payload(self) -> JsonDict:
        return {key: value for key, value in vars(self).items() if value}


@dataclass
class OptionContext:
    world: World
    user: User
    guild: Guild | None
    resolved: Resolved
    autocomplete: bool = False


def build_options(
    invocation: Invocation,
    values: Mapping[str, Any],
    ctx: OptionContext,
    *,
    focused: str | None = None,
) -> list[JsonDict]:
    """Typed option payloads in declaration order, wrapped in the subcommand chain."""
    by_decl: dict[str, tuple[JsonDict, Any]] = {}
    for key, value in values.items():
        decl = next((d for d in invocation.leaf if key.lower() in names_of(d)), None)
        if decl is None:
            known = ", ".join(str(d["name"]) for d in invocation.leaf) or "none"
            raise EmulatorError(f"{invocation.display}: unknown option {key!r} (options: {known})")
        if decl["name"] in by_decl:
            raise EmulatorError(f"{invocation.display}: option {decl['name']!r} given twice")
        by_decl[str(decl["name"])] = (decl, value)
    focused_decl = None
    if focused is not None:
        focused_decl = next((d for d in invocation.leaf if focused.lower() in names_of(d)), None)
        if focused_decl is None:
            raise EmulatorError(f"{invocation.display}: unknown option {focused!r}")
        if not focused_decl.get("autocomplete"):
            raise EmulatorError(f"{invocation.display}: option {focused_decl['name']!r} has no autocomplete")
    options: list[JsonDict] = []
    for decl in invocation.leaf:
        name = str(decl["name"])
        if decl is focused_decl:
            raw = by_decl[name][1] if name in by_decl else ""
            options.append({"name": name, "type": decl["type"], "value": raw, "focused": True})
        elif name in by_decl:
            value = _coerce(invocation, decl, by_decl[name][1], ctx)
            options.append({"name": name, "type": decl["type"], "value": value})
        elif decl.get("required") and not ctx.autocomplete:
            raise EmulatorError(f"{invocation.display}: missing required option {name!r}")
    for decl in reversed(invocation.chain):
        options = [{"name": decl["name"], "type": decl["type"], "options": options}]
    return options


def _coerce(invocation: Invocation, decl: JsonDict, raw: Any, ctx: OptionContext) -> Any:
    kind = int(decl["type"])
    where = f"{invocation.display} option {decl['name']!r}"
    choices = decl.get("choices") or []
    if choices and not ctx.autocomplete:
        return _choose(where, choices, raw)
    if kind == STRING:
        if not isinstance(raw, str):
            raise EmulatorError(f"{where} expects a string, got {raw!r}")
        _check_range(where, len(raw), decl.get("min_length"), decl.get("max_length"), "length")
        return raw
    if isinstance(raw, str) and kind in (INTEGER, NUMBER, BOOLEAN):
        raw = _typed_text(where, kind, raw)
    if kind in (INTEGER, NUMBER):
        ok = isinstance(raw, int) if kind == INTEGER else isinstance(raw, int | float)
        if isinstance(raw, bool) or not ok:
            raise EmulatorError(f"{where} expects {_TYPE_NAMES[kind]}, got {raw!r}")
        _check_range(where, raw, decl.get("min_value"), decl.get("max_value"), "value")
        return raw
    if kind == BOOLEAN:
        if not isinstance(raw, bool):
            raise EmulatorError(f"{where} expects a boolean, got {raw!r}")
        return raw
    if kind in (USER, ROLE, MENTIONABLE):
        target = _entity(where, kind, raw, ctx)
        if isinstance(target, User):
            ctx.resolved.add_user(ctx.world, target, ctx.guild)
        else:
            ctx.resolved.roles[str(target.id)] = role_payload(target)
        return str(target.id)
    if kind == CHANNEL:
        channel = raw if isinstance(raw, Channel) else ctx.world.channel_named(str(raw), ctx.guild)
        if channel is None or (ctx.guild is not None and channel.guild is not ctx.guild):
            raise EmulatorError(f"{where}: no channel {raw!r} in this guild")
        allowed = decl.get("channel_types")
        if allowed and channel.type not in allowed:
            raise EmulatorError(f"{where}: channel type {channel.type} not in {allowed}")
        ctx.resolved.channels[str(channel.id)] = channel_payload(ctx.world, channel, permissions_for=ctx.user)
        return str(channel.id)
    raise EmulatorError(f"{where}: {_TYPE_NAMES.get(kind, kind)} options are not supported by the emulator")


_TRUE = {"true", "yes", "oui", "vrai", "1"}
_FALSE = {"false", "no", "non", "faux", "0"}


def _typed_text(where: str, kind: int, raw: str) -> Any:
    """What the Discord client does with text typed into a number or boolean option."""
    text = raw.strip().lower()
    try:
        if kind == INTEGER:
            return int(text)
        if kind == NUMBER:
            return float(text.replace(",", "."))
    except ValueError:
        raise EmulatorError(f"{where} expects {_TYPE_NAMES[kind]}, got {raw!r}") from None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise EmulatorError(f"{where} expects a boolean, got {raw!r}")


def _entity(where: str, kind: int, raw: Any, ctx: OptionContext) -> User | Role:
    if isinstance(raw, User) and kind in (USER, MENTIONABLE):
        return raw
    if isinstance(raw, Role) and kind in (ROLE, MENTIONABLE):
        return raw
    if isinstance(raw, str):
        if kind in (USER, MENTIONABLE):
            user = ctx.world.user_named(raw)
            if user is not None:
                return user
        if kind in (ROLE, MENTIONABLE) and ctx.guild is not None:
            role = next((r for r in ctx.guild.roles if r.name == raw), None)
            if role is not None:
                return role
    raise EmulatorError(f"{where} expects a {_TYPE_NAMES[kind]} (object or name), got {raw!r}")


def _choose(where: str, choices: list[JsonDict], raw: Any) -> Any:
    """Accept a choice's value, its name or any of its localized names."""
    for choice in choices:
        if raw == choice["value"] and type(raw) is type(choice["value"]):
            return choice["value"]
    if isinstance(raw, str):
        for choice in choices:
            if raw.lower() in names_of(choice):
                return choice["value"]
    listed = ", ".join(f"{c['name']}={c['value']!r}" for c in choices)
    raise EmulatorError(f"{where}: {raw!r} is not one of the choices ({listed})")


def _check_range(where: str, value: float, low: float | None, high: float | None, what: str) -> None:
    if low is not None and value < low:
        raise EmulatorError(f"{where}: {what} {value} is below the minimum {low}")
    if high is not None and value > high:
        raise EmulatorError(f"{where}: {what} {value} is above the maximum {high}")
