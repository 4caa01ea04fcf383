"""Turns a service's MessageSpec into discord.py arguments, in the reader's language."""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import discord

from services.community.card_images.service import CardImage, CardImages
from services.infra.messages import Button, MessageSpec, Select, SelectOption, Text, join_lines, render_text

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
BRAND_COLOR = 0x8E5A2B
ROWS, ROW_WIDTH = 5, 5  # Discord's action rows under a message, and the buttons one holds


def text(value: Text | None, locale: str | None) -> str:
    return render_text(value, locale)


def files_of(spec: MessageSpec, locale: str | None) -> list[discord.File]:
    """The spec's attachments as discord.py files (`files=` to send, `attachments=` to edit), a file
    written for readers in the message's language."""
    return [
        discord.File(io.BytesIO(a.body(locale).encode("utf-8")), filename=a.filename)
        for a in spec.attachments
    ]


async def files_with_strips(spec: MessageSpec, locale: str | None, images: CardImages) -> list[discord.File]:
    """`files_of`, plus the spec's card strips and pictures, composed in the message's language."""
    files = files_of(spec, locale)
    for strip in spec.strips:
        data = await images.strip(strip.game, strip.cards, locale, strip.scale, strip.figures)
        files.append(discord.File(io.BytesIO(data), filename=strip.filename))
    for picture in spec.pictures:
        files.append(
            discord.File(io.BytesIO(await images.picture(picture, locale)), filename=picture.filename)
        )
    return files


def image_file(image: CardImage) -> discord.File:
    """A drawn card as the file an embed's `image` names (`attachment://<filename>`)."""
    return discord.File(io.BytesIO(image.data), filename=image.filename)


def view_of(spec: MessageSpec, locale: str | None) -> discord.ui.View | None:
    """Buttons and selects are plain custom ids: the persistent DynamicItems registered on the bot answer
    every click, so the view is written straight as Discord's payload (`components_of`)."""
    if not spec.buttons and not spec.selects:
        return None
    return RenderedView(components_of(spec, locale))


def components_of(spec: MessageSpec, locale: str | None) -> list[dict[str, Any]]:
    """The spec's buttons and selects as the action rows discord.py writes for a `discord.ui.View` of the
    same items, to the byte (`tests/platform/test_render_payloads.py`): each item in the first row with
    room for it (five buttons, or one select, a row), rows in order. Decision: written here rather than
    through discord.py's items, which cost about 50 µs for a reply of five buttons and a select (a View,
    its weights, an item and its component per button, a copy per option), two thirds of such a reply's
    rendering, for a view that is never listened to (the bot keeps none: `Bot._keep_only_modals`)."""
    return rows_of([*spec.buttons, *spec.selects], locale)


def rows_of(items: Sequence[Button | Select], locale: str | None) -> list[dict[str, Any]]:
    """`components_of` for items placed in the order given, as a View they were added to in that order
    (a select between buttons takes the first empty row before the buttons after it are placed)."""
    rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
    weights = [0] * ROWS
    placed = 0

    def place(component: dict[str, Any], width: int) -> None:
        nonlocal placed
        placed += 1
        if placed > ROWS * ROW_WIDTH:
            raise ValueError("maximum number of children exceeded")
        for row, weight in enumerate(weights):
            if weight + width <= ROW_WIDTH:
                weights[row] += width
                rows[row].append(component)
                return
        raise ValueError("could not find open space for item")

    for item in items:
        if isinstance(item, Button):
            component: dict[str, Any] = {"type": 2, "style": STYLES[item.style].value, "disabled": False}
            label = text(item.label, locale)[:80]
            if label:
                component["label"] = label
            if item.custom_id:
                component["custom_id"] = item.custom_id
            place(component, 1)
            continue
        select = item
        menu: dict[str, Any] = {
            "type": 3,
            "custom_id": select.custom_id,
            "min_values": 1,
            "max_values": 1,
            "disabled": False,
            "required": True,
        }
        placeholder = text(select.placeholder, locale)[:150]
        if placeholder:
            menu["placeholder"] = placeholder
        options = [_option(o, locale) for o in select.options[:25]]
        if options:
            menu["options"] = options
        place(menu, ROW_WIDTH)
    return [{"type": 1, "components": row} for row in rows if row]


def _option(option: SelectOption, locale: str | None) -> dict[str, Any]:
    written: dict[str, Any] = {
        "label": text(option.label, locale)[:100],
        "value": option.value,
        "default": False,
    }
    description = text(option.description, locale)[:100]
    if description:
        written["description"] = description
    return written


def embed_of(spec_embed: Any, locale: str | None) -> discord.Embed:
    embed = discord.Embed(
        title=text(spec_embed.title, locale) or None,
        description=text(spec_embed.description, locale) or None,
        color=spec_embed.color if spec_embed.color is not None else BRAND_COLOR,
    )
    if spec_embed.image:
        embed.set_image(url=f"attachment://{spec_embed.image}")
    for f in spec_embed.fields:
        embed.add_field(
            name=text(f.name, locale)[:256], value=text(f.value, locale)[:1024] or "\u200b", inline=f.inline
        )
    return embed


def lines_embed(title: str, lines: Sequence[str], color: int) -> discord.Embed:
    """`embed_of` for an embed whose title and lines are already rendered (a duel's controls keep the lines
    that stay until the next move)."""
    return discord.Embed(title=title or None, description=join_lines(lines) or None, color=color)


def to_discord(spec: MessageSpec, locale: str | None) -> dict[str, Any]:
    """Keyword arguments for send_message / send / edit."""
    kwargs: dict[str, Any] = {
        "content": text(spec.content, locale) or None,
        "embeds": [embed_of(e, locale) for e in spec.embeds],
    }
    view = view_of(spec, locale)
    if view is not None:
        kwargs["view"] = view
    if spec.ping_users:
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            users=[discord.Object(id=u) for u in spec.ping_users]
        )
    return kwargs


class RenderedView(discord.ui.View):
    """A view already written as Discord's payload (`to_components`), for a reply sent again as it was.

    Every component the bot sends is answered by a DynamicItem registered at start-up, so a sent view has
    nothing left to listen for: `is_finished` keeps discord.py from storing it (and from arming the
    15-minute timeout it gives an ephemeral view)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def is_finished(self) -> bool:
        return True


class KeptReplies:
    """The last `size` replies rendered, each with the data it was rendered from: the same data asked again
    under the same key (a page shown again, as it stands, in the same language) is answered without
    rendering. A reply is a pure function of its key and data, so equal data gives the same reply; data
    kept by a service (a player's copies) compares by identity first, in a few microseconds.

    Measured: a HOSS collection page of 24 copies rendered in about 150 µs, answered again in about 10."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[object, dict[str, Any]]] = OrderedDict()

    def reply(self, key: Hashable, data: object, render: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """`render()`'s send_message / edit_message arguments, or those kept for `key` if `data` is equal."""
        found = self._kept.get(key)
        if found is not None and found[0] == data:
            self._kept.move_to_end(key)
            kept = found[1]
        else:
            kept = render()
            view = kept.get("view")
            if view is not None:
                kept["view"] = view.to_components()
            self._kept[key] = (data, kept)
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        kwargs = dict(kept)
        if kwargs.get("view") is not None:
            kwargs["view"] = RenderedView(kwargs["view"])
        return kwargs
