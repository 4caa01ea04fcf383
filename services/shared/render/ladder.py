"""A duel game's ladder page: the ranked players, one line each, in the game's words."""

from __future__ import annotations

from services.infra.messages import Embed, EmbedField, MessageSpec, Text

LADDER_KEYS = (".leaderboard.title", ".leaderboard.empty", ".leaderboard.how", ".leaderboard.rule")


def ladder_spec(game: str, players: int, lines: list[Text]) -> MessageSpec:
    """The game's board of duel results (`/<game> leaderboard`): its rows (`lines`), or that no one is
    ranked yet, and how the ladder counts."""
    title, empty, how, rule = (f"{game}{suffix}" for suffix in LADDER_KEYS)
    embed = Embed(
        title=Text(title, {"count": players}),
        description=Text.lines(lines) if lines else Text(empty),
        fields=(EmbedField(Text(how), Text(rule), inline=False),),
    )
    return MessageSpec(embeds=(embed,))
