"""Turns a service's MessageSpec into discord.py arguments, in the reader's language."""

from __future__ import annotations

import io
from typing import Any

import discord

from services.platform.card_images.service import CardImage, CardImages
from services.platform.messages import MessageSpec, Text, render_text

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
BRAND_COLOR = 0x8E5A2B


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
    """`files_of`, plus each of the spec's card strips composed in the message's language."""
    files = files_of(spec, locale)
    for strip in spec.strips:
        data = await images.strip(strip.game, strip.cards, locale, strip.scale)
        files.append(discord.File(io.BytesIO(data), filename=strip.filename))
    return files


def image_file(image: CardImage) -> discord.File:
    """A drawn card as the file an embed's `image` names (`attachment://<filename>`)."""
    return discord.File(io.BytesIO(image.data), filename=image.filename)


def view_of(spec: MessageSpec, locale: str | None) -> discord.ui.View | None:
    """Buttons are plain custom ids: the persistent DynamicItems registered on the bot answer every click."""
    if not spec.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in spec.buttons:
        view.add_item(
            discord.ui.Button(
                label=text(button.label, locale)[:80], custom_id=button.custom_id, style=STYLES[button.style]
            )
        )
    return view


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
