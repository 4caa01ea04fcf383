"""Discord's documented limits, checked on every request the bot sends during the end-to-end suite.

This table is written from Discord's API documentation on its own, not taken from the emulator: the
emulator answers what it implements, and a limit it forgets must still fail CI here. Pages, by their
Discord names: "Message" (Create Message, Edit Message, Embed Limits, Allowed Mentions Object, Message
Flags), "Component Reference" (buttons, selects, text inputs), "Receiving and Responding" (Interaction
Response Object, Messages, Modal, Autocomplete), "Application Commands" (Application Command Structure,
Option Structure, Choice Structure, Registering a Command, Slash Commands), "Channel" (Start Thread) and
"Reference" (Locales).

`problems(method, path, body, files)` lists what breaks a limit in one request, as readable sentences;
`tests/e2e/conftest.py` runs it over every request of every emulator a test starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

LIMITS: dict[str, int] = {
    # Message: Create Message
    "content": 2000,
    "embeds": 10,
    "files": 10,
    "nonce": 25,
    # Message: Embed Limits
    "embed.title": 256,
    "embed.description": 4096,
    "embed.fields": 25,
    "embed.field.name": 256,
    "embed.field.value": 1024,
    "embed.footer.text": 2048,
    "embed.author.name": 256,
    "embeds.total": 6000,
    # Message: Allowed Mentions Object ("max 100")
    "allowed_mentions.ids": 100,
    # Component Reference
    "action_rows": 5,
    "row.components": 5,
    "button.label": 80,
    "custom_id": 100,
    "select.placeholder": 150,
    "select.options": 25,
    "select.option.text": 100,  # label, value and description
    "select.values": 25,  # min_values 0-25, max_values 1-25
    "text_input.value": 4000,
    "text_input.placeholder": 100,
    "text_input.label": 45,
    # Receiving and Responding: Modal, Autocomplete
    "modal.title": 45,
    "modal.components": 5,
    "autocomplete.choices": 25,
    # Application Commands
    "command.name": 32,
    "command.description": 100,
    "command.options": 25,
    "command.choices": 25,
    "choice.text": 100,  # choice name, and a string choice's value
    "command.string_length": 6000,  # min_length / max_length
    "command.size": 8000,
    "commands.chat_input": 100,
    "commands.user": 15,
    "commands.message": 15,
    # Channel: Start Thread
    "thread.name": 100,
}

LOCALES = frozenset(
    {"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl"}
    | {"pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja"}
    | {"zh-TW", "ko"}
)
MENTION_TYPES = frozenset({"users", "roles", "everyone"})
ARCHIVE_MINUTES = frozenset({60, 1440, 4320, 10080})
_NAME = re.compile(r"^[-_'\w]{1,32}$")

# Message Flags, and which each kind of request may set.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, VOICE, V2 = 1 << 2, 1 << 6, 1 << 12, 1 << 13, 1 << 15
FLAGS = {
    "create": SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | VOICE | V2,  # Create Message
    "edit": SUPPRESS_EMBEDS | V2,  # Edit Message
    "response": SUPPRESS_EMBEDS | EPHEMERAL | V2 | VOICE | SUPPRESS_NOTIFICATIONS,  # Interaction Response
    "deferred": EPHEMERAL,  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "the only valid message flag"
    "follow_up": SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | V2,  # Create Followup Message
}

_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"/channels/\d+/messages"), "create"),
    ("PATCH", re.compile(r"/channels/\d+/messages/\d+"), "edit"),
    ("POST", re.compile(r"/webhooks/\d+/[^/]+"), "follow_up"),
    ("PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/[^/]+"), "edit"),
    ("POST", re.compile(r"/interactions/\d+/[^/]+/callback"), "callback"),
    ("PUT", re.compile(r"/applications/\d+(/guilds/\d+)?/commands"), "commands"),
    ("POST", re.compile(r"/applications/\d+(/guilds/\d+)?/commands"), "command"),
    ("PATCH", re.compile(r"/applications/\d+(/guilds/\d+)?/commands/\d+"), "command"),
    ("POST", re.compile(r"/channels/\d+(/messages/\d+)?/threads"), "thread"),
    ("PATCH", re.compile(r"/channels/\d+"), "channel"),
]


def kind_of(method: str, path: str) -> str | None:
    return next((kind for m, pattern, kind in _ROUTES if m == method and pattern.fullmatch(path)), None)


def problems(method: str, path: str, body: Any, files: int = 0) -> list[str]:
    """What in this request Discord's documentation forbids; empty when it is within every limit."""
    kind = kind_of(method, path)
    if kind is None or not isinstance(body, dict | list):
        return []
    found: list[str] = []
    if kind in ("create", "edit", "follow_up") and isinstance(body, dict):
        found += _message(body, kind, files)
    elif kind == "callback" and isinstance(body, dict):
        found += _callback(body, files)
    elif kind == "commands" and isinstance(body, list):
        found += _counts(body)
        for command in body:
            found += _command(command)
    elif kind == "command" and isinstance(body, dict):
        found += _command(body)
    elif kind == "thread" and isinstance(body, dict):
        found += _thread(body)
    elif kind == "channel" and isinstance(body, dict) and "name" in body:
        found += _over(body["name"], "thread.name", "channel name")
    return [f"{method} {path}: {problem}" for problem in found]


def _len(value: Any) -> int:
    return 0 if value is None else len(str(value))


def _over(value: Any, limit: str, what: str) -> list[str]:
    size = _len(value)
    return [f"{what} is {size} characters, the limit is {LIMITS[limit]}"] if size > LIMITS[limit] else []


def _message(body: dict[str, Any], kind: str, files: int) -> list[str]:
    found = _over(body.get("content"), "content", "content")
    found += _over(body.get("nonce"), "nonce", "nonce")
    embeds = body.get("embeds") or []
    if len(embeds) > LIMITS["embeds"]:
        found.append(f"{len(embeds)} embeds, the limit is {LIMITS['embeds']}")
    total = 0
    for embed in embeds:
        problems_, size = _embed(embed)
        found += problems_
        total += size
    if total > LIMITS["embeds.total"]:
        found.append(f"embeds hold {total} characters, the limit is {LIMITS['embeds.total']}")
    if files > LIMITS["files"]:
        found.append(f"{files} files, the limit is {LIMITS['files']}")
    flags = int(body.get("flags") or 0)
    if flags & ~FLAGS[kind]:
        found.append(f"flags {flags} set bits a {kind.replace('_', '-')} cannot set")
    found += _mentions(body.get("allowed_mentions"))
    found += _components(body.get("components") or [], v2=bool(flags & V2))
    return found


def _embed(embed: dict[str, Any]) -> tuple[list[str], int]:
    texts = [
        (embed.get("title"), "embed.title", "embed title"),
        (embed.get("description"), "embed.description", "embed description"),
        ((embed.get("footer") or {}).get("text"), "embed.footer.text", "embed footer"),
        ((embed.get("author") or {}).get("name"), "embed.author.name", "embed author"),
    ]
    fields = embed.get("fields") or []
    found = [f"{len(fields)} embed fields, the limit is 25"] if len(fields) > LIMITS["embed.fields"] else []
    for field in fields:
        texts.append((field.get("name"), "embed.field.name", "embed field name"))
        texts.append((field.get("value"), "embed.field.value", "embed field value"))
    for value, limit, what in texts:
        found += _over(value, limit, what)
    return found, sum(_len(value) for value, _, _ in texts)


def _mentions(mentions: Any) -> list[str]:
    if not isinstance(mentions, dict):
        return []
    parse = mentions.get("parse") or []
    found = [f"allowed_mentions.parse holds {kind!r}" for kind in parse if kind not in MENTION_TYPES]
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        if ids and kind in parse:
            found.append(f"allowed_mentions names {kind} both in parse and as a list")
        if len(ids) > LIMITS["allowed_mentions.ids"]:
            found.append(f"allowed_mentions.{kind} holds {len(ids)} ids, the limit is 100")
    return found


def _walk(components: list[Any]) -> Iterator[dict[str, Any]]:
    for component in components:
        if isinstance(component, dict):
            yield component
            yield from _walk(component.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(component.get(key), dict):
                    yield from _walk([component[key]])


def _components(components: list[Any], *, v2: bool = False) -> list[str]:
    found: list[str] = []
    if not v2 and len(components) > LIMITS["action_rows"]:
        found.append(f"{len(components)} action rows, the limit is {LIMITS['action_rows']}")
    ids: list[str] = []
    for component in _walk(components):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if custom_id is not None:
            ids.append(str(custom_id))
            found += _over(custom_id, "custom_id", "custom_id")
        if kind == 1 and not 1 <= len(component.get("components") or []) <= LIMITS["row.components"]:
            found.append("an action row holds 1 to 5 components")
        elif kind == 2:
            found += _over(component.get("label"), "button.label", "button label")
            if component.get("style") not in (5, 6) and not custom_id:
                found.append(f"button {component.get('label')!r} has no custom_id")
        elif kind in (3, 5, 6, 7, 8):
            found += _select(component)
        elif kind == 4:
            found += _text_input(component)
    found += [f"custom_id {i!r} appears twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    return found


def _select(component: dict[str, Any]) -> list[str]:
    found = _over(component.get("placeholder"), "select.placeholder", "select placeholder")
    options = component.get("options") or []
    if component.get("type") == 3 and not 1 <= len(options) <= LIMITS["select.options"]:
        found.append(f"a select holds {len(options)} options, 1 to 25 allowed")
    for option in options:
        for key in ("label", "value", "description"):
            found += _over(option.get(key), "select.option.text", f"select option {key}")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    top = LIMITS["select.values"]
    if not (0 <= low <= top and 1 <= high <= top and low <= high):
        found.append(f"select min_values {low} / max_values {high} outside 0-25 / 1-25 or in the wrong order")
    return found


def _text_input(component: dict[str, Any]) -> list[str]:
    found = _over(component.get("value"), "text_input.value", "text input value")
    found += _over(component.get("placeholder"), "text_input.placeholder", "text input placeholder")
    found += _over(component.get("label"), "text_input.label", "text input label")
    top = LIMITS["text_input.value"]
    low, high = component.get("min_length"), component.get("max_length")
    if (low is not None and not 0 <= low <= top) or (high is not None and not 1 <= high <= top):
        found.append(f"text input min_length {low} / max_length {high} outside 0-4000 / 1-4000")
    return found


def _callback(body: dict[str, Any], files: int) -> list[str]:
    kind, data = body.get("type"), body.get("data") or {}
    if kind in (4, 7):
        return _message(data, "response", files)
    if kind == 5:
        flags = int(data.get("flags") or 0)
        return (
            [f"a deferred response sets flags {flags}, only EPHEMERAL allowed"]
            if flags & ~FLAGS["deferred"]
            else []
        )
    if kind == 8:
        choices = data.get("choices") or []
        found = [f"{len(choices)} autocomplete choices, the limit is 25"] if len(choices) > 25 else []
        for choice in choices:
            found += _choice(choice, None, "autocomplete")
        return found
    if kind == 9:
        found = _over(data.get("title"), "modal.title", "modal title")
        found += _over(data.get("custom_id"), "custom_id", "modal custom_id")
        if not 1 <= len(data.get("components") or []) <= LIMITS["modal.components"]:
            found.append("a modal holds 1 to 5 components")
        return found + _components(data.get("components") or [])
    return []


def _choice(choice: dict[str, Any], option_type: int | None, where: str) -> list[str]:
    found: list[str] = []
    names = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
    if any(not 1 <= _len(name) <= LIMITS["choice.text"] for name in names):
        found.append(f"{where}: a choice name is not 1-100 characters")
    found += _locales(choice.get("name_localizations"), where)
    value = choice.get("value")
    if isinstance(value, str) and len(value) > LIMITS["choice.text"]:
        found.append(f"{where}: choice value of {len(value)} characters, the limit is 100")
    expected = {3: (str,), 4: (int,), 10: (int, float)}.get(option_type or 0)
    if expected is not None and (isinstance(value, bool) or not isinstance(value, expected)):
        found.append(f"{where}: choice value {value!r} does not fit option type {option_type}")
    return found


def _locales(mapping: Any, where: str) -> list[str]:
    return [f"{where}: {key!r} is not a Discord locale" for key in (mapping or {}) if key not in LOCALES]


def _counts(commands: list[Any]) -> list[str]:
    found = []
    for kind, limit in ((1, "commands.chat_input"), (2, "commands.user"), (3, "commands.message")):
        count = sum(1 for c in commands if isinstance(c, dict) and (c.get("type") or 1) == kind)
        if count > LIMITS[limit]:
            found.append(f"{count} commands of type {kind}, the limit is {LIMITS[limit]}")
    return found


def _command(command: Any) -> list[str]:
    if not isinstance(command, dict):
        return ["a command is not an object"]
    name = command.get("name")
    if (command.get("type") or 1) != 1:
        return _locales(command.get("name_localizations"), f"command {name!r}")
    found = _declaration(command, f"/{name}")
    size = _size(command)
    if size > LIMITS["command.size"]:
        found.append(f"/{name} counts {size} characters, the limit is {LIMITS['command.size']}")
    return found


def _declaration(decl: dict[str, Any], where: str) -> list[str]:
    """A command, subcommand group, subcommand or option: names, descriptions, choices, lengths."""
    found: list[str] = []
    names = [decl.get("name"), *(decl.get("name_localizations") or {}).values()]
    if any(not isinstance(n, str) or not _NAME.match(n) or n != n.lower() for n in names):
        found.append(f"{where}: a name is not 1-32 lowercase letters, digits, '-', '_' or \"'\"")
    descriptions = [decl.get("description"), *(decl.get("description_localizations") or {}).values()]
    if any(not 1 <= _len(d) <= LIMITS["command.description"] for d in descriptions):
        found.append(f"{where}: a description is not 1-100 characters")
    found += _locales(decl.get("name_localizations"), where)
    found += _locales(decl.get("description_localizations"), where)
    options = decl.get("options") or []
    if len(options) > LIMITS["command.options"]:
        found.append(f"{where}: {len(options)} options, the limit is 25")
    nested = [o.get("type") in (1, 2) for o in options]
    if any(nested) and not all(nested):
        found.append(f"{where}: subcommands beside plain options")
    for option in options:
        found += _declaration(option, f"{where} {option.get('name')}")
    choices = decl.get("choices") or []
    if len(choices) > LIMITS["command.choices"]:
        found.append(f"{where}: {len(choices)} choices, the limit is 25")
    for choice in choices:
        found += _choice(choice, decl.get("type"), where)
    top = LIMITS["command.string_length"]
    low, high = decl.get("min_length"), decl.get("max_length")
    if (low is not None and not 0 <= low <= top) or (high is not None and not 1 <= high <= top):
        found.append(f"{where}: min_length {low} / max_length {high} outside 0-6000 / 1-6000")
    return found


def _longest(decl: dict[str, Any], field: str) -> int:
    return max(_len(text) for text in [decl.get(field), *(decl.get(f"{field}_localizations") or {}).values()])


def _size(decl: dict[str, Any]) -> int:
    """Slash Commands: "combined name, description, and value properties for each command, its options
    (including subcommands and groups), and choices", each field by its longest localization."""
    size = _longest(decl, "name") + _longest(decl, "description")
    for choice in decl.get("choices") or []:
        size += _longest(choice, "name") + _len(choice.get("value"))
    return size + sum(_size(option) for option in decl.get("options") or [])


def _thread(body: dict[str, Any]) -> list[str]:
    found = (
        []
        if 1 <= _len(body.get("name")) <= LIMITS["thread.name"]
        else ["a thread name is not 1-100 characters"]
    )
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_MINUTES:
        found.append(f"auto_archive_duration {duration} is not one of 60, 1440, 4320, 10080")
    return found
