"""Base models of the card catalogs in `data/<game>.json`; each game subclasses them with its own fields.

They are strict on purpose (unknown fields forbidden, frozen): a typo in a catalog must stop start-up
with a precise message (see `services.infra.catalogs`) rather than silently give a card a default value.
A game declares its ranges on its own fields, e.g.::

    class HossCard(CardBase):
        pv: int = Field(ge=1, le=999)

    class HossCatalog(CatalogBase[HossCard]):
        game: Literal["hoss"]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, field_validator
from pydantic_core import PydanticCustomError

# Whitespace is stripped first, so a blank name fails as "at least 1 character".
NonBlank = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

CARD_ID_PATTERN = r"^[a-z0-9_-]+$"


class LocalizedText(BaseModel):
    """A text in every language the bot speaks; both are required so no player ever sees a blank."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fr: NonBlank
    en: NonBlank

    def get(self, locale: str | None) -> str:
        """The text in `locale` ("fr", "en", or a Discord locale such as "en-US"); French otherwise."""
        if locale == "en":  # the bot's own two languages first: a page asks dozens of names
            return self.en
        if locale == "fr" or locale is None:
            return self.fr
        lang = locale.split("-")[0].split("_")[0].lower()
        return self.en if lang == "en" else self.fr


class CardBase(BaseModel):
    """What every card of every game has: a stable id (in decks, the database, custom ids) and a name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=CARD_ID_PATTERN, min_length=1, max_length=64)
    name: LocalizedText


CardT = TypeVar("CardT", bound=CardBase)


class CatalogBase(BaseModel, Generic[CardT]):
    """One game's catalog file. Cards are a tuple: the loaded catalog is shared and must not change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str = Field(pattern=CARD_ID_PATTERN)
    version: int = Field(ge=1)
    cards: tuple[CardT, ...]
    _by_id: tuple[tuple[CardT, ...], dict[str, CardT]] | None = PrivateAttr(default=None)

    @field_validator("cards")
    @classmethod
    def _unique_ids(cls, cards: tuple[CardT, ...]) -> tuple[CardT, ...]:
        # The error's context names the card and field so services.infra.catalogs can point at them.
        first_seen: dict[str, int] = {}
        for index, card in enumerate(cards):
            if card.id in first_seen:
                raise PydanticCustomError(
                    "duplicate_card_id",
                    'Duplicate id "{card_id}", already used by card #{first_index}',
                    {
                        "card_id": card.id,
                        "first_index": first_seen[card.id],
                        "card_index": index,
                        "field": "id",
                    },
                )
            first_seen[card.id] = index
        return cards

    def cards_by_id(self) -> Mapping[str, CardT]:
        """The cards by id, built once per tuple of cards (a Chocobataille turn looks cards up thousands of
        times, and a scan of the catalog costs microseconds each). A copy with other cards (`model_copy(update=...)`,
        which copies the private index as it is) builds its own at its first lookup. Read through
        `__pydantic_private__` directly: pydantic's lookup of a private attribute costs microseconds."""
        private = self.__pydantic_private__
        assert private is not None
        cards = self.cards
        built: tuple[tuple[CardT, ...], dict[str, CardT]] | None = private.get("_by_id")
        if built is None or built[0] is not cards:
            built = (cards, {c.id: c for c in cards})
            private["_by_id"] = built
        return built[1]

    def card(self, card_id: str) -> CardT | None:
        """The card with this id (None for an unknown id, or an id that is not even text)."""
        return self.cards_by_id().get(card_id) if isinstance(card_id, str) else None

    def ids(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cards)
