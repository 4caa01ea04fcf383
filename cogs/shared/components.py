"""The Discord pieces the games' cogs share: persistent buttons built from a message key, the page
buttons of a paged list, the owner check of a private message's buttons, a filter value coded in a
custom_id, and choices named by a message key.

A custom_id is untrusted input: a code read back from one is checked (a stale or forged id is refused
with the generic bad-input message), and a button naming its owner refuses anyone else. Each game keeps
its own `PersistentButton` subclasses and custom_id templates (buttons already posted must keep working);
what they share is how the buttons are built and read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

from core.errors import BadInput, NotAllowed
from core.i18n import t
from discord_app.components import PersistentButton
from discord_app.render import STYLES, text, to_discord
from services.infra.messages import MessageSpec, Text

NO_VALUE = "-"  # the code of "no filter" in a custom_id
LABEL_LIMIT = 80  # Discord's limit on a button's label
V = TypeVar("V")


def button(
    cls: type[PersistentButton],
    custom_id: str,
    label: Text,
    locale: str,
    style: str,
    *,
    disabled: bool = False,
) -> PersistentButton:
    """A persistent button labelled in the reader's language; `style` names a `discord_app.render.STYLES`."""
    return plain_button(cls, custom_id, text(label, locale), style, disabled)


def plain_button(
    cls: type[PersistentButton], custom_id: str, label: str, style: str, disabled: bool = False
) -> PersistentButton:
    """A persistent button whose label is already in the reader's language (or needs none: "+3")."""
    item = cls(custom_id, {})
    item.item.label = label[:LABEL_LIMIT]
    item.item.style = STYLES[style]
    item.item.disabled = disabled
    return item


def reply(spec: MessageSpec, locale: str, view: discord.ui.View | None) -> dict[str, Any]:
    """send_message / edit_message arguments; an empty view removes the old components."""
    kwargs = to_discord(spec, locale)
    kwargs["view"] = view or discord.ui.View(timeout=None)
    return kwargs


def page_buttons(
    cls: type[PersistentButton],
    prefix: str,
    page: int,
    pages: int,
    labels: tuple[Text, Text],
    locale: str,
) -> list[PersistentButton]:
    """ "Previous" and "next" for page `page` of `pages`: custom_id `<prefix>:<target page>`, disabled at
    either end (a page past the end is clamped by the service, so a stale button still lands somewhere)."""
    previous, following = labels
    return [
        button(cls, f"{prefix}:{target}", label, locale, "secondary", disabled=disabled)
        for label, target, disabled in (
            (previous, page - 1, page <= 1),
            (following, page + 1, page >= pages),
        )
    ]


def check_owner(match: Mapping[str, str], interaction: discord.Interaction[Any]) -> None:
    """A button of a private message names its owner; a click from anyone else is refused."""
    if int(match["owner"]) != interaction.user.id:
        raise NotAllowed("error.not_your_message")


def encode_choice(value: V | None, values: Sequence[V]) -> str:
    """A filter value as its index among `values` ('-' for none): a few characters of a custom_id."""
    return NO_VALUE if value is None else str(values.index(value))


def decode_choice(code: str, values: Sequence[V]) -> V | None:
    """The value a custom_id's code stands for; an index out of range (a forged id, or a catalog that
    changed since the button was posted) is refused."""
    if code == NO_VALUE:
        return None
    if not code.isdigit() or int(code) >= len(values):
        raise BadInput()
    return values[int(code)]


def key_choice(key: str, value: Any) -> app_commands.Choice[Any]:
    """A choice named by an existing message key (a rarity, type, league, race... name): French by
    default, translated by the bot's translator for other clients."""
    return app_commands.Choice(name=app_commands.locale_str(t(key, "fr"), key=key), value=value)


__all__ = [
    "NO_VALUE",
    "button",
    "check_owner",
    "decode_choice",
    "encode_choice",
    "key_choice",
    "page_buttons",
    "plain_button",
    "reply",
]
