"""The picture `/profile` attaches: what the embed says, drawn in the cards' style
(services/community/card_images/profile.py), in the reader's language.

Your own profile shows your wallets, a line per game and your best cards; another player's only what is
public, as its embed: their games' lines and the day they came.
"""

from __future__ import annotations

from core.i18n import format_date, format_int, t
from services.community.card_images.profile import BestCard, Line, ProfileCard
from services.community.card_images.service import CardImage, CardImages
from services.infra.games import GameRegistry
from services.infra.messages import Text, render_text
from services.infra.players import PlayerService, Profile

FILENAME = "profile-{player}.png"
COLOR = 0xFFD65A


def _game_of_currency(registry: GameRegistry, name_key: str) -> str | None:
    return next(
        (g.key for g in registry.all_games() if any(c.name_key == name_key for c in g.currencies)), None
    )


def _has_art(registry: GameRegistry, game: str | None) -> bool:
    spec = registry.get(game) if game is not None else None
    return spec is not None and spec.card_art is not None


def card_of(
    profile: Profile,
    name: str,
    registry: GameRegistry,
    *,
    own: bool,
    best: tuple[BestCard, ...],
    locale: str,
) -> ProfileCard:
    wallets: list[Line] = []
    if own:
        for key, amount in profile.wallets:
            game = _game_of_currency(registry, key)
            if _has_art(registry, game):
                assert game is not None
                wallets.append(Line(game, t(key, locale), format_int(amount, locale)))
    ranks: list[Line] = []
    for name_key, lines in profile.summaries:
        game = next((g.key for g in registry.all_games() if g.name_key == name_key), None)
        if not _has_art(registry, game) or not lines:
            continue
        assert game is not None
        first = lines[0]
        ranks.append(Line(game, render_text(Text(first.key, dict(first.params)), locale), ""))
    joined = f"{t('profile.joined', locale)} {format_date(profile.joined.date(), locale)}"
    return ProfileCard(
        name=name,
        joined=joined,
        wallets_title=t("profile.wallets", locale),
        wallets=tuple(wallets),
        ranks_title=t("profile.standings", locale),
        ranks=tuple(ranks),
        cards_title=t("profile.best_cards", locale),
        cards=best if own else (),
    )


async def picture(
    players: PlayerService, images: CardImages, profile: Profile, name: str, *, own: bool, locale: str
) -> CardImage:
    best = images.best_cards(await players.owned_cards(profile.player_id), locale) if own else ()
    shown = card_of(profile, name, players.registry, own=own, best=best, locale=locale)
    data = await images.profile(shown, locale)
    return CardImage(FILENAME.format(player=profile.player_id), data, COLOR)
