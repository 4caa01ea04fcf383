"""The Pillz duel catalog's shape (data/pillz.json): characters in clans, with stars, power, damage and,
for a few, an ability; leaders carry a match-wide ability (Ashigaru's "Contre-attaque" among them).

Abilities are data: a `kind` from the small vocabulary below and its `value`. docs/pillz/abilities.md
gives the exact semantics the engine implements; keep both in step.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from engine.cards import CardBase, CatalogBase, LocalizedText

# Character abilities act in the round the character fights; leader abilities act for the whole match
# when the leader is among the player's four drawn characters.
AbilityKind = Literal[
    # --- a character's, in its round ---
    "power_bonus",  # +value power in its round
    "damage_bonus",  # +value damage if it wins
    "heal_on_win",  # its owner regains value PV if it wins (never above 12, the starting PV)
    "pillz_on_loss",  # its owner gets value pillz back if it loses
    "drain_pillz",  # if it wins, the opponent loses value pillz (not below 0)
    "reduce_damage",  # if it loses, its owner takes value less damage (not below 0)
    "cancel_ability",  # the opposing character's ability does nothing this round
    # --- a leader's, for the whole match ---
    "counter_attack",  # Ashigaru's "Contre-attaque": its owner always plays second (value unused: 0)
    "clan_power",  # +value power to every character of the leader's clan (the leader included)
    "war_chest",  # after each round its owner loses, the owner gets value pillz back
    "blessing",  # the first round its owner loses, the owner takes value less damage (once per duel)
]
CHARACTER_ABILITIES: frozenset[str] = frozenset(
    {
        "power_bonus",
        "damage_bonus",
        "heal_on_win",
        "pillz_on_loss",
        "drain_pillz",
        "reduce_damage",
        "cancel_ability",
    }
)
LEADER_ABILITIES: frozenset[str] = frozenset({"counter_attack", "clan_power", "war_chest", "blessing"})
ABILITY_KINDS: tuple[str, ...] = get_args(AbilityKind)

STARS = (1, 2, 3, 4, 5)
# Inclusive (min, max) power and damage per number of stars: more stars, stronger character.
POWER_RANGE: dict[int, tuple[int, int]] = {1: (2, 4), 2: (3, 5), 3: (4, 6), 4: (5, 8), 5: (6, 9)}
DAMAGE_RANGE: dict[int, tuple[int, int]] = {1: (1, 3), 2: (2, 4), 3: (2, 5), 4: (3, 6), 5: (4, 7)}


class Ability(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: AbilityKind
    value: int = Field(default=0, ge=0, le=6)
    name: LocalizedText  # shown on the card, e.g. "Contre-attaque"

    @model_validator(mode="after")
    def _value_matches(self) -> Ability:
        if (self.kind == "counter_attack") != (self.value == 0):
            raise ValueError("counter_attack has no value; every other ability has a value of 1 to 6")
        return self


class Clan(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    name: LocalizedText


class PillzCard(CardBase):
    """One character. `leader` cards have a leader ability; others may have a character ability."""

    clan: str
    stars: int = Field(ge=1, le=5)
    power: int = Field(ge=1, le=12)
    damage: int = Field(ge=1, le=9)
    leader: bool = False
    ability: Ability | None = None

    @model_validator(mode="after")
    def _consistent(self) -> PillzCard:
        (p_lo, p_hi), (d_lo, d_hi) = POWER_RANGE[self.stars], DAMAGE_RANGE[self.stars]
        if not p_lo <= self.power <= p_hi:
            raise _error("power", f"{self.stars}★ needs {p_lo} to {p_hi}, found {self.power}")
        if not d_lo <= self.damage <= d_hi:
            raise _error("damage", f"{self.stars}★ needs {d_lo} to {d_hi}, found {self.damage}")
        if self.leader and (self.ability is None or self.ability.kind not in LEADER_ABILITIES):
            raise _error("ability", "a leader has a leader ability")
        if not self.leader and self.ability is not None and self.ability.kind not in CHARACTER_ABILITIES:
            raise _error("ability", "only leaders have leader abilities")
        return self


def _error(field: str, reason: str) -> PydanticCustomError:
    return PydanticCustomError("pillz_card", "field {field}: {reason}", {"field": field, "reason": reason})


class PillzCatalog(CatalogBase[PillzCard]):
    game: Literal["pillz"]
    clans: tuple[Clan, ...]

    @model_validator(mode="after")
    def _known_clans(self) -> PillzCatalog:
        known = {c.id for c in self.clans}
        for index, card in enumerate(self.cards):
            if card.clan not in known:
                raise PydanticCustomError(
                    "pillz_clan",
                    'card "{card_id}" (#{card_index}): unknown clan {clan}',
                    {"card_id": card.id, "card_index": index, "clan": card.clan, "field": "clan"},
                )
        return self

    def clan(self, clan_id: str) -> Clan | None:
        return next((c for c in self.clans if c.id == clan_id), None)
