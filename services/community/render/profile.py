"""A player's /profile page: wallets (their own only), a line per game, titles and the join date."""

from __future__ import annotations

from services.community.card_images.service import CardImage
from services.infra import games
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.infra.players import Profile


def profile_spec(
    profile: Profile, name: str, *, own: bool, locale: str, image: CardImage | None = None
) -> MessageSpec:
    """Your own profile shows your wallets; another player's shows only what is public (games and join date)."""
    fields: list[EmbedField] = []
    if own:
        wallets = [
            Text(
                "profile.wallet_line", {"game": Text(game), "amounts": [games.money(c, v) for c, v in purse]}
            )
            for game, purse in profile.purses
        ]
        fields.append(
            EmbedField(Text("profile.wallets"), _lines(wallets, Text("profile.no_wallet")), inline=False)
        )
    for game_key, lines in profile.summaries:
        body = [Text(line.key, dict(line.params)) for line in lines]
        fields.append(EmbedField(Text(game_key), _lines(body, Text("profile.not_played")), inline=False))
    if profile.titles:  # a tournament's podium (services/community/tournaments/titles.py): public
        titles = [Text(line.key, dict(line.params)) for line in profile.titles]
        fields.append(EmbedField(Text("tournaments.profile.field"), Text.lines(titles), inline=False))
    joined = int(profile.joined.timestamp())
    fields.append(EmbedField(Text("profile.joined"), Text.raw(f"<t:{joined}:D>"), inline=False))
    embed = Embed(
        title=Text("profile.title", {"name": name}),
        fields=tuple(fields),
        color=image.color if image is not None else None,
        image=image.filename if image is not None else None,
    )
    return MessageSpec(embeds=(embed,))


def _lines(lines: list[Text], empty: Text) -> Text:
    return Text.lines(lines) if lines else empty
