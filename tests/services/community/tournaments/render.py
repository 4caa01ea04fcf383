"""A message spec as a French reader reads it, every text and picture label included (for assertions)."""

from __future__ import annotations

from discord_app.render import text
from services.infra.messages import MessageSpec


def said(spec: MessageSpec, locale: str = "fr") -> str:
    parts = [text(spec.content, locale) if spec.content is not None else ""]
    for embed in spec.embeds:
        parts += [
            text(embed.title, locale) if embed.title else "",
            text(embed.description, locale) if embed.description else "",
        ]
        parts += [f"{text(f.name, locale)} {text(f.value, locale)}" for f in embed.fields]
    parts += [text(b.label, locale) for b in spec.buttons]
    return "\n".join(parts)
