"""The /help pages: the first one, a game's, the artwork's credits. Which commands a reader sees is read
from discord.py's command tree in cogs/platform/help.py, which hands their lines here."""

from __future__ import annotations

from services.community.card_images import artwork
from services.infra.games import GameSpec
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


def help_spec(games: list[GameSpec], general: list[Text]) -> MessageSpec:
    """The first page: where to start, the games, and the commands that belong to no game (`general`)."""
    start = Text("help.start_games") if games else Text("help.no_games")
    names = [Text(g.name_key) for g in games]
    fields = (
        EmbedField(Text("help.start_title"), Text.lines([start, Text("help.start_card")]), inline=False),
        *([EmbedField(Text("help.games"), Text.lines(names), inline=False)] if names else []),
        *field_pages(Text("help.general"), general),
    )
    return MessageSpec(
        embeds=(Embed(title=Text("help.title"), description=Text("help.intro"), fields=fields),)
    )


def game_help_spec(game: GameSpec, lines: list[Text]) -> MessageSpec:
    """One game's page: its introduction and the lines of the commands the reader may use."""
    intro = Text(game.guide.about_key) if game.guide is not None else None
    embed = Embed(
        title=Text(game.name_key), description=intro, fields=tuple(field_pages(Text("help.commands"), lines))
    )
    return MessageSpec(embeds=(embed,))
