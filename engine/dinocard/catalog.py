"""The Dinocard catalog's shape (data/dinocard.json): cards, their capacities, and the dojo masters.

A card has the rulebook's five things: an element, characteristics (éclosion, force, endurance: a dinoz's
only), a type, a cost in energies (`colored` bubbles of the card's own element and `grey` bubbles of any
element) and a rarity. Capacities and effects are data: a `kind` from the vocabulary below and its
`value`; docs/dinocard/rules-notes.md gives the exact semantics `battle.py` implements, keep both in step.
The masters' packs are checked here with the same pack rules as a player's (`packs.pack_problems`).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from engine.cards import CARD_ID_PATTERN, CardBase, CatalogBase, LocalizedText
from engine.dinocard.packs import pack_problems
from engine.dinocard.skills import Skills

Element = Literal["feu", "bois", "eau", "foudre", "ciel"]
CardType = Literal["dinoz", "enchantement", "incantation", "objet"]
Rarity = Literal["commune", "inhabituelle", "rare"]
ELEMENTS: tuple[str, ...] = get_args(Element)
CARD_TYPES: tuple[str, ...] = get_args(CardType)
RARITIES: tuple[str, ...] = get_args(Rarity)

AbilityKind = Literal[
    # --- keywords: a dinoz's own, or granted by a blessing enchantment ---
    "first_strike",  # Initiative: strikes before the other dinoz; what it kills does not strike back
    "flying",  # Vol: strikes the opposing player, whatever faces it
    "ranged",  # Tir: strikes the opposing dinoz with the least endurance left, wherever it stands
    "trample",  # Piétinement: damage beyond what kills the dinoz facing it goes to the player
    "lifelink",  # Vampirisme: its owner gains the life it takes (dinoz or player)
    "poison",  # Venin: a dinoz it wounds is poisoned (value wounds at each start of its owner's turn)
    "armor",  # Carapace: each hit it takes in combat is value smaller
    "regeneration",  # Régénération: at the end of its owner's turn, value damage markers are removed
    "growth",  # Croissance: +value force at each start of its owner's turn, once hatched
    # --- any card ---
    "arc",  # Arc (rulebook): once played, sacrifice one energy of the card's element
    # --- a dinoz's, when it hatches ---
    "hatch_damage",  # Cri: value damage to the opposing player
    "hatch_heal",  # Chant: its owner gains value life
    # --- an incantation's effect ---
    "damage_dinoz",  # value damage to the opposing hatched dinoz of highest force
    "damage_player",  # value damage to the opposing player
    "heal_player",  # its owner gains value life (no target at full life)
    "heal_dinoz",  # removes value damage and the poison from its owner's most damaged dinoz
    "draw",  # its owner plays the next value cards of the pack at once
    "energy",  # the next value cards of the pack go to the energy zone
    "destroy_object",  # the opponent's oldest object goes to its graveyard
    # --- an enchantment's ---
    "force",  # +value force to the enchanted dinoz (one of its owner's)
    "endurance",  # +value endurance
    "weaken",  # curse: -value force to an opposing dinoz (not below 0)
    "venom",  # curse: the opposing dinoz is poisoned (value wounds at each start of its owner's turn)
    # --- an object's, while it is in play ---
    "aura_force",  # +value force to every dinoz of its owner
    "aura_endurance",  # +value endurance to every dinoz of its owner
    "start_heal",  # its owner gains value life at each start of turn
    "start_damage",  # value damage to the opposing player at each start of its owner's turn
    "incubator",  # its owner's eggs get value more éclosion markers at each start of turn
]
ABILITY_KINDS: tuple[str, ...] = get_args(AbilityKind)
KEYWORDS = frozenset(
    {"first_strike", "flying", "ranged", "trample", "lifelink", "poison", "armor", "regeneration", "growth"}
)
HATCH_EFFECTS = frozenset({"hatch_damage", "hatch_heal"})
SPELL_EFFECTS = frozenset(
    {"damage_dinoz", "damage_player", "heal_player", "heal_dinoz", "draw", "energy", "destroy_object"}
)
BLESSINGS = frozenset({"force", "endurance"}) | KEYWORDS
CURSES = frozenset({"weaken", "venom"})
OBJECT_EFFECTS = frozenset({"aura_force", "aura_endurance", "start_heal", "start_damage", "incubator"})
# Kinds that are a bare keyword: their value is 0; every other kind has a value of 1 to 9.
NO_VALUE = frozenset({"first_strike", "flying", "ranged", "trample", "lifelink", "arc", "destroy_object"})
ALLOWED: dict[str, frozenset[str]] = {
    "dinoz": KEYWORDS | HATCH_EFFECTS | {"arc"},
    "incantation": SPELL_EFFECTS | {"arc"},
    "enchantement": BLESSINGS | CURSES | {"arc"},
    "objet": OBJECT_EFFECTS | {"arc"},
}
MAX_COST = 6
MASTERS_MIN = 5


class Ability(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: AbilityKind
    value: int = Field(default=0, ge=0, le=9)

    @model_validator(mode="after")
    def _value_matches(self) -> Ability:
        if (self.kind in NO_VALUE) != (self.value == 0):
            raise ValueError(f"{self.kind}: a keyword has no value, every other kind a value of 1 to 9")
        return self


class Cost(BaseModel):
    """Bubbles: `colored` of the card's element, `grey` of any element (rulebook: billes grises)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    colored: int = Field(default=0, ge=0, le=MAX_COST)
    grey: int = Field(default=0, ge=0, le=MAX_COST)

    @property
    def total(self) -> int:
        return self.colored + self.grey


class DinocardCard(CardBase):
    """One card. A dinoz has éclosion (its level as an egg), force and endurance; other types have none."""

    element: Element
    type: CardType
    rarity: Rarity
    cost: Cost
    eclosion: int | None = Field(default=None, ge=1, le=5)
    force: int | None = Field(default=None, ge=0, le=12)
    endurance: int | None = Field(default=None, ge=1, le=15)
    abilities: tuple[Ability, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> DinocardCard:
        stats = (self.eclosion, self.force, self.endurance)
        if self.type == "dinoz" and None in stats:
            raise _error("eclosion", "a dinoz has éclosion, force and endurance")
        if self.type != "dinoz" and stats != (None, None, None):
            raise _error("eclosion", "only a dinoz has éclosion, force and endurance")
        if self.cost.total > MAX_COST:
            raise _error("cost", f"at most {MAX_COST} bubbles in all")
        kinds: list[str] = [a.kind for a in self.abilities]
        if len(set(kinds)) != len(kinds):
            raise _error("abilities", "a kind appears twice")
        wrong = [k for k in kinds if k not in ALLOWED[self.type]]
        if wrong:
            raise _error("abilities", f"{wrong[0]} is not a capacity of a card of type {self.type}")
        self._check_effects(set(kinds) - {"arc"})
        return self

    def _check_effects(self, kinds: set[str]) -> None:
        """An incantation and an object do one thing; an enchantment blesses or curses, never both."""
        if self.type in ("incantation", "objet") and len(kinds) != 1:
            raise _error("abilities", f"an {self.type} has exactly one effect")
        if self.type == "enchantement" and (not kinds or (kinds & CURSES and kinds & BLESSINGS)):
            raise _error("abilities", "an enchantement has effects, all blessings or all curses")

    def value(self, kind: str) -> int:
        return next((a.value for a in self.abilities if a.kind == kind), 0)

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)


def _error(field: str, reason: str) -> PydanticCustomError:
    return PydanticCustomError("dinocard_card", "field {field}: {reason}", {"field": field, "reason": reason})


class Master(BaseModel):
    """A dojo master: a non-player opponent with its own pack; masters come in rising level."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=CARD_ID_PATTERN, min_length=1, max_length=64)
    name: LocalizedText
    level: int = Field(ge=1, le=50)
    skills: Skills = Skills()
    pack: tuple[str, ...]

    @model_validator(mode="after")
    def _points(self) -> Master:
        if self.skills.points > self.level:
            raise ValueError(f"{self.skills.points} skill points for level {self.level} (one per level)")
        return self


class DinocardCatalog(CatalogBase[DinocardCard]):
    game: Literal["dinocard"]
    masters: tuple[Master, ...] = Field(min_length=MASTERS_MIN)

    @model_validator(mode="after")
    def _masters(self) -> DinocardCatalog:
        known = self.ids()
        levels = [m.level for m in self.masters]
        if levels != sorted(set(levels)):
            raise PydanticCustomError("dinocard_master", "masters must come in strictly rising level", {})
        for index, master in enumerate(self.masters):
            problems = pack_problems(master.pack, known)
            if problems:
                raise PydanticCustomError(
                    "dinocard_master",
                    'master "{master}" (#{index}): invalid pack: {problem}',
                    {"master": master.id, "index": index, "problem": problems[0].describe()},
                )
        return self

    def master(self, master_id: str) -> Master | None:
        return next((m for m in self.masters if m.id == master_id), None)
