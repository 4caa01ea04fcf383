"""A card's page (`/<game> card`): its picture and fields in the reader's language."""

from __future__ import annotations

from typing import Any

from engine.cards import CardBase
from services.community.card_images.service import CardImage
from services.infra.catalogs import CardRef
from services.infra.games import GameRegistry
from services.infra.messages import Embed, EmbedField, MessageSpec, Text


def generic_fields(card: CardBase, _catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    """Until a game says how to show its cards, list the catalog's fields as they are."""
    data = card.model_dump(exclude={"id", "name"})
    return [(Text.raw(str(k)), Text.raw(str(v))) for k, v in data.items()]


def card_spec(
    ref: CardRef,
    card: CardBase,
    catalog: Any,
    locale: str,
    registry: GameRegistry,
    image: CardImage | None = None,
    note: Text | None = None,
) -> MessageSpec:
    """The card's embed; `note` is a line under the game's name (the copies a collection holds)."""
    game = registry.get(ref.game)
    render_fields = game.card_fields if game is not None and game.card_fields is not None else generic_fields
    fields = tuple(EmbedField(label, value) for label, value in render_fields(card, catalog, locale))
    game_name = Text(game.name_key) if game is not None else Text.raw(ref.game)
    embed = Embed(
        title=Text.raw(ref.name_in(locale)),
        description=game_name if note is None else Text.lines([game_name, note]),
        fields=fields[:25],
        color=image.color if image is not None else None,
        image=image.filename if image is not None else None,
    )
    return MessageSpec(embeds=(embed,))
