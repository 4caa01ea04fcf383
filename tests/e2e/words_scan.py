"""Every word a request shows a reader, scanned for what a player must never read: a Python repr, or a
card's catalog id where its name belongs.

The message guard (core/message_guard.py) checks each parameter on its way into a message; this scan
reads what actually leaves the bot, so that a text built without the catalogs (an f-string, a label
written by hand) is held to the same rule. It reads what a Discord client shows: content, embeds (title,
description, fields, footer, author), button labels, select placeholders and options, a modal's title
and its inputs, autocomplete choices' names, the commands' descriptions and choices in every language;
never custom ids nor option values, which hold ids on purpose.

Only ids that cannot be a word of a sentence are looked for in running text: those with `-`, `_` or a
digit (`sorcieres-willow-druid`, `sq_guerrier_1`). A one-word id (`orage`, `imp`) is also a word of
French or English prose and is refused where it is a whole parameter, by the guard.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from core.message_guard import REPR_PATTERN
from emulator.records import walk_components
from tests.e2e.payload_limits import kind_of

_TOKEN = re.compile(r"[\w-]+")
_SLUG = re.compile(r"[-_0-9]")


def slugs(card_ids: Iterable[str]) -> frozenset[str]:
    """The ids the scan looks for in running text (see the module's docstring)."""
    return frozenset(i for i in card_ids if _SLUG.search(i))


def internal_words(method: str, path: str, body: Any, card_ids: frozenset[str]) -> list[str]:
    """What in this request shows a reader a repr or a card id; empty when nothing does."""
    found: list[str] = []
    for text in shown(method, path, body):
        repr_ = REPR_PATTERN.search(text)
        if repr_ is not None:
            found.append(f"{method} {path}: a repr ({repr_.group()}…) in {text[:120]!r}")
        ids = sorted({t for t in _TOKEN.findall(text) if t in card_ids})
        if ids:
            found.append(f"{method} {path}: card ids {ids} in {text[:120]!r}")
    return found


def shown(method: str, path: str, body: Any) -> Iterator[str]:
    kind = kind_of(method, path)
    if kind in ("commands", "command"):
        for command in body if isinstance(body, list) else [body]:
            yield from _declaration(command)
    if not isinstance(body, dict):
        return
    if kind in ("create", "edit", "follow_up"):
        yield from _message(body)
    elif kind == "callback":
        data = body.get("data") or {}
        if body.get("type") in (4, 7):
            yield from _message(data)
        elif body.get("type") == 8:
            yield from (str(c.get("name") or "") for c in data.get("choices") or [])
        elif body.get("type") == 9:
            yield str(data.get("title") or "")
            yield from _components(data.get("components") or [])
    elif kind == "thread":
        yield str(body.get("name") or "")


def _message(body: dict[str, Any]) -> Iterator[str]:
    yield str(body.get("content") or "")
    for embed in body.get("embeds") or []:
        yield from (str(embed.get(key) or "") for key in ("title", "description"))
        yield str((embed.get("footer") or {}).get("text") or "")
        yield str((embed.get("author") or {}).get("name") or "")
        for field in embed.get("fields") or []:
            yield from (str(field.get(key) or "") for key in ("name", "value"))
    yield from _components(body.get("components") or [])


def _components(components: list[Any]) -> Iterator[str]:
    for component in walk_components(components):
        yield from (str(component.get(key) or "") for key in ("label", "placeholder", "content"))
        if component.get("type") == 4:
            yield str(component.get("value") or "")
        for option in component.get("options") or []:
            yield from (str(option.get(key) or "") for key in ("label", "description"))


def _declaration(decl: Any) -> Iterator[str]:
    """A command's, a subcommand's or an option's descriptions and choices, in every language."""
    if not isinstance(decl, dict):
        return
    yield str(decl.get("description") or "")
    yield from (str(v) for v in (decl.get("description_localizations") or {}).values())
    for choice in decl.get("choices") or []:
        yield str(choice.get("name") or "")
        yield from (str(v) for v in (choice.get("name_localizations") or {}).values())
    for option in decl.get("options") or []:
        yield from _declaration(option)
