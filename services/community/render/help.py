"""The /help pages' parts that need no command tree: fields of command lines, the artwork's credits.
(The pages listing commands read discord.py's command tree, so they are built in cogs/platform/help.py.)"""

from __future__ import annotations

from services.community.card_images import artwork
from services.infra.messages import Embed, EmbedField, MessageSpec, Text

LINES_PER_FIELD = 6  # an embed field holds 1,024 characters; six command lines always fit


def field_pages(title: Text, lines: list[Text]) -> list[EmbedField]:
    """A long list of commands spread over several fields, the later ones titled "(suite)"."""
    chunks = [lines[i : i + LINES_PER_FIELD] for i in range(0, len(lines), LINES_PER_FIELD)] or [[]]
    return [
        EmbedField(
            title if i == 0 else Text("help.continued", {"title": title}), Text.lines(chunk), inline=False
        )
        for i, chunk in enumerate(chunks)
    ]


def credits_spec() -> MessageSpec:
    """Who drew the cards' artwork and under what licence, as CC BY requires: game-icons.net's authors
    (data/art/icons.json), and the cards' font."""
    lines = [
        Text(
            "help.credits_line", {"name": c.name, "count": c.icons, "licence": c.licence, "url": c.url or "—"}
        )
        for c in artwork.credits()
    ]
    fields = (
        *field_pages(Text("help.credits_authors"), lines),
        EmbedField(Text("help.credits_font_title"), Text("help.credits_font"), inline=False),
    )
    return MessageSpec(
        embeds=(
            Embed(title=Text("help.credits_title"), description=Text("help.credits_intro"), fields=fields),
        )
    )
