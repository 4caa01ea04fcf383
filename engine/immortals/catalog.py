"""Immortal's War catalog shape (data/immortals.json): units in families, spells, terrains, level table.

Everything a rule reads is data validated here: a unit's Attack and Defense per level (counts of D2
dice), its favourite terrain, its own bonuses from level 3, its family's bonus (active when a deck holds
two cards of the family), and each spell's effects. Effects share one small vocabulary (`Stat`);
docs/immortals/rules-notes.md gives the exact meaning the engine implements.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from engine.cards import CardBase, CatalogBase, LocalizedText

MAX_LEVEL = 5
FIRST_CARD_BONUS_LEVEL = 3  # "A partir du niveau 3, les cartes gagnent des bonus qui leurs sont propres."

Terrain = Literal["foret", "desert", "plaine", "marais"]
TERRAINS: tuple[str, ...] = get_args(Terrain)
# A unit whose favourite terrain is the key fights with a malus on the value (the rulebook's list).
MALUS_TERRAIN: dict[str, str] = {"foret": "desert", "desert": "foret", "plaine": "marais", "marais": "plaine"}

# What a bonus or a spell changes, for the fight of one round (see rules-notes "Effects"):
Stat = Literal[
    "attack",  # +value Attack dice; also raises the damage dealt to the player if the unit wins
    "defense",  # +value Defense dice
    "damage",  # +value damage dealt to the player if the unit wins
    "hp",  # +value starting HP (20 + value)
    "armor",  # every wound the unit takes is reduced by value (not below 0)
    "regen",  # the unit regains value HP after each turn it ends alive (never above its start);
    #           a negative value on the foe is a poison: it loses HP after each turn (not below 1)
    "initiative",  # the unit strikes first whatever the Attacks (value 1); both: the usual rule
    "vitality",  # the caster's player regains value vitality before the fight (never above the start)
]
STATS: tuple[str, ...] = get_args(Stat)
# Permanent bonuses (a card's own, a family's) change the unit, never the player's vitality.
UNIT_STATS: frozenset[str] = frozenset({"attack", "defense", "damage", "hp", "armor", "regen"})


class Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    stat: Stat
    value: int = Field(ge=-4, le=8)
    target: Literal["self", "foe"] = "self"

    @model_validator(mode="after")
    def _sensible(self) -> Effect:
        if self.value == 0:
            raise ValueError("an effect changes something: value 0 is refused")
        if self.stat in ("vitality", "initiative") and (self.target != "self" or self.value < 0):
            raise ValueError(f"{self.stat} helps the caster only (target self, positive value)")
        if self.stat == "initiative" and self.value != 1:
            raise ValueError("initiative has value 1")
        return self


class Bonus(BaseModel):
    """A permanent bonus of a unit (its own, or its family's): a unit stat and a positive value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    stat: Stat
    value: int = Field(ge=1, le=6)

    @model_validator(mode="after")
    def _unit_stat(self) -> Bonus:
        if self.stat not in UNIT_STATS:
            raise ValueError(f"a permanent bonus changes the unit: one of {sorted(UNIT_STATS)}")
        return self


class CardBonus(Bonus):
    """One of a unit's own bonuses, active from `level` on (3 to 5)."""

    level: int = Field(ge=FIRST_CARD_BONUS_LEVEL, le=MAX_LEVEL)


class Family(BaseModel):
    """A family; its bonus acts on its cards when the deck holds at least two cards of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    name: LocalizedText
    bonus: Bonus


class ImmortalsCard(CardBase):
    """A unit: its family, favourite terrain, rarity tier, Attack and Defense at levels 1 to 5, bonuses."""

    family: str
    terrain: Terrain
    tier: int = Field(ge=1, le=3)
    attack: tuple[int, ...] = Field(min_length=MAX_LEVEL, max_length=MAX_LEVEL)
    defense: tuple[int, ...] = Field(min_length=MAX_LEVEL, max_length=MAX_LEVEL)
    bonuses: tuple[CardBonus, ...] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _grows(self) -> ImmortalsCard:
        for stat, values in (("attack", self.attack), ("defense", self.defense)):
            if not all(1 <= v <= 12 for v in values):
                raise _error(stat, "values are 1 to 12 dice")
            if any(b < a for a, b in itertools.pairwise(values)):
                raise _error(stat, "never decreases with the level")
        totals = [a + d for a, d in zip(self.attack, self.defense, strict=True)]
        if any(b <= a for a, b in itertools.pairwise(totals)):
            raise _error("attack", "each level improves Attack or Defense")
        if not any(b.level == FIRST_CARD_BONUS_LEVEL for b in self.bonuses):
            raise _error("bonuses", "a unit gains its own bonus at level 3")
        return self


class ImmortalsSpell(BaseModel):
    """A spell: cast at most once per duel, for the fight of the round it is cast in.

    `terrain` / `family`: the spell acts only when the fight takes place on that terrain / when the
    caster's unit is of that family (otherwise it is spent for nothing). `starter`: known from sign-up.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_-]+$", min_length=1, max_length=64)
    name: LocalizedText
    effects: tuple[Effect, ...] = Field(min_length=1, max_length=3)
    terrain: Terrain | None = None
    family: str | None = None
    starter: bool = False


class ImmortalsCatalog(CatalogBase[ImmortalsCard]):
    game: Literal["immortals"]
    # XP a card needs in total to reach levels 2..5 (level 1 at 0 XP), strictly increasing.
    level_xp: tuple[int, ...] = Field(min_length=MAX_LEVEL - 1, max_length=MAX_LEVEL - 1)
    families: tuple[Family, ...] = Field(min_length=8)
    spells: tuple[ImmortalsSpell, ...] = Field(min_length=20)

    @model_validator(mode="after")
    def _consistent(self) -> ImmortalsCatalog:
        if self.level_xp[0] <= 0 or any(
            b <= a for a, b in zip(self.level_xp, self.level_xp[1:], strict=False)
        ):
            raise PydanticCustomError("immortals_levels", "level_xp: positive and strictly increasing", {})
        known = {f.id for f in self.families}
        if len(known) != len(self.families):
            raise PydanticCustomError("immortals_family", "families: duplicate id", {})
        for index, card in enumerate(self.cards):
            if card.family not in known:
                raise PydanticCustomError(
                    "immortals_family",
                    'card "{card_id}" (#{card_index}): unknown family {family}',
                    {"card_id": card.id, "card_index": index, "family": card.family, "field": "family"},
                )
        spell_ids = [s.id for s in self.spells]
        if len(set(spell_ids)) != len(spell_ids):
            raise PydanticCustomError("immortals_spell", "spells: duplicate id", {})
        for spell in self.spells:
            if spell.family is not None and spell.family not in known:
                raise PydanticCustomError(
                    "immortals_spell",
                    'spell "{spell}": unknown family {family}',
                    {"spell": spell.id, "family": spell.family},
                )
        return self

    # Indexes built once per loaded catalog (the cards' by CatalogBase): a duel's start looks up every
    # deck card and known spell. Read through `__pydantic_private__` directly: pydantic's attribute lookup
    # of a private field costs microseconds, and a duel's start makes dozens of lookups.
    _families: dict[str, Family] = PrivateAttr(default_factory=dict)
    _spells: dict[str, ImmortalsSpell] = PrivateAttr(default_factory=dict)
    _ids_by_tier: tuple[tuple[ImmortalsCard, ...], dict[int | None, tuple[str, ...]]] | None = PrivateAttr(
        default=None
    )

    def model_post_init(self, context: Any, /) -> None:
        self._families = {f.id: f for f in self.families}
        self._spells = {s.id: s for s in self.spells}

    def _index(self, name: str) -> dict[str, Any]:
        private = self.__pydantic_private__
        assert private is not None
        index: dict[str, Any] = private[name]
        return index

    def spells_by_id(self) -> Mapping[str, ImmortalsSpell]:
        return self._index("_spells")

    def sorted_ids(self, tier: int | None = None) -> tuple[str, ...]:
        """The ids of the cards of `tier` (of every tier for None) in order, built once per tuple of cards
        as `cards_by_id` is: the practice duel's mirror deck picks among them once per unit of the
        player's deck, and the lab builds a mirror deck per duel."""
        private = self.__pydantic_private__
        assert private is not None
        cards = self.cards
        built: tuple[tuple[ImmortalsCard, ...], dict[int | None, tuple[str, ...]]] | None = private.get(
            "_ids_by_tier"
        )
        if built is None or built[0] is not cards:
            ids = sorted((c.id, c.tier) for c in cards)
            tiers = {c.tier for c in cards}
            table: dict[int | None, tuple[str, ...]] = {
                t: tuple(i for i, ct in ids if ct == t) for t in tiers
            }
            table[None] = tuple(i for i, _ in ids)
            built = (cards, table)
            private["_ids_by_tier"] = built
        return built[1].get(tier, ())

    def family(self, family_id: str) -> Family | None:
        return self._index("_families").get(family_id)

    def spell(self, spell_id: str) -> ImmortalsSpell | None:
        return self._index("_spells").get(spell_id) if isinstance(spell_id, str) else None


def _error(field: str, reason: str) -> PydanticCustomError:
    return PydanticCustomError(
        "immortals_card", "field {field}: {reason}", {"field": field, "reason": reason}
    )
