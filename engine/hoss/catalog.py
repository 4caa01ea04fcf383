"""The HOSS catalog's shape: races, classes, elements, creature lines and buffs (data/hoss.json).

Numbers that are rules (the class tables, race fears, status values) live in `engine/hoss/rules.py`;
numbers that are cards (a creature's PV, ATK, rhythm, chances) live in the catalog.
Chances are fractions (0.25 = 25 %), times are seconds, as the rulebook writes them.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.cards import CardBase, CatalogBase

Race = Literal["squelette", "orc", "sylvestre", "humain"]
CreatureClass = Literal["guerrier", "cavalier", "lancier", "assassin", "archer", "mage", "defenseur"]
Element = Literal["feu", "glace", "foudre", "poison"]
Status = Literal["poison", "saignement", "embrasement", "bris", "gel", "choc", "confusion"]
Rarity = Literal["basique", "argent", "or", "platine", "diamant", "divin"]
BuffEffect = Literal[
    "soins",
    "vitesse",
    "degat",
    "pv",
    "chance_crit",
    "degat_crit",
    "marqueur",
    "marqueur_double",
    "marqueur_aleatoire",
    "revive",
    "shield",
    "confusion",
]

BUFF_EFFECTS: tuple[BuffEffect, ...] = get_args(BuffEffect)
RACES: tuple[Race, ...] = ("squelette", "orc", "sylvestre", "humain")
CLASSES: tuple[CreatureClass, ...] = (
    "guerrier",
    "cavalier",
    "lancier",
    "assassin",
    "archer",
    "mage",
    "defenseur",
)
ATTACKING_CLASSES: tuple[CreatureClass, ...] = CLASSES[:6]
RARITIES: tuple[Rarity, ...] = ("basique", "argent", "or", "platine", "diamant", "divin")

# The status each element carries; a card of an element is immune to that status.
ELEMENT_STATUS: dict[Element, Status] = {
    "feu": "embrasement",
    "glace": "gel",
    "foudre": "choc",
    "poison": "poison",
}

Chance = Annotated[float, Field(ge=0.0, le=1.0)]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CreatureCard(CardBase):
    """One rank of one line. `parent` is the card it evolves from (None for a Rang 1)."""

    kind: Literal["creature"] = "creature"
    line: str = Field(pattern=r"^[a-z0-9_-]+$")  # the line's id, shared by all its ranks
    race: Race
    cls: CreatureClass
    rank: Literal[1, 2, 3]
    parent: str | None = None
    pv: int = Field(ge=1, le=5000)
    atk: int = Field(ge=0, le=1000)  # 0 for a Défenseur, which never strikes
    interval: float = Field(ge=0.5, le=5.0)  # seconds between two hits (ignored for a Défenseur)
    crit_chance: Chance = 0.0
    crit_damage: float = Field(default=0.0, ge=0.0, le=3.0)  # added to the ×1.5 multiplier
    dodge_bonus: Chance = 0.0  # added to the class-table dodge
    damage_reduction: Chance = 0.0  # Défenseurs: share of a hit's damage they shrug off
    block: Chance = 0.0  # Défenseurs: chance to block a hit entirely (arrows use the rules' 80 %)
    statuses: dict[Status, Chance] = Field(default_factory=dict)  # chance to apply on each landed hit
    elements: tuple[Element, ...] = ()
    heal_chance: Chance = 0.0  # Sylvestre: chance a hit or a block heals an ally 10 % of its missing PV
    deflect_chance: Chance = 0.0  # Sylvestre Défenseur (blocked hits) / Guerrier Sylvestre (hits taken)

    @model_validator(mode="after")
    def _consistent(self) -> CreatureCard:
        if (self.rank == 1) != (self.parent is None):
            raise ValueError("a Rang 1 has no parent and a Rang 2 or 3 has one")
        if self.cls == "defenseur" and self.atk != 0:
            raise ValueError("a Défenseur never strikes: atk must be 0")
        if self.cls != "defenseur" and (self.atk == 0 or self.block or self.damage_reduction):
            raise ValueError("only a Défenseur has block or damage_reduction, and every attacker has atk > 0")
        if len(set(self.elements)) != len(self.elements):
            raise ValueError("an element is listed twice")
        return self


class BuffCard(CardBase):
    """A buff acts on every creature of its deck for the whole battle; `power` is its base strength,
    scaled by the copy's rarity, stars and holo bonus (see docs/hoss/rules-notes.md)."""

    kind: Literal["buff"] = "buff"
    effect: BuffEffect
    power: float = Field(gt=0.0, le=5.0)


HossCard = Annotated[CreatureCard | BuffCard, Field(discriminator="kind")]


class HossCatalog(CatalogBase[HossCard]):
    game: Literal["hoss"]

    @model_validator(mode="after")
    def _lines_are_complete(self) -> HossCatalog:
        creatures = {c.id: c for c in self.cards if isinstance(c, CreatureCard)}
        for card in creatures.values():
            if card.parent is None:
                continue
            parent = creatures.get(card.parent)
            if parent is None:
                raise ValueError(f"card {card.id}: parent {card.parent} does not exist")
            if parent.rank != card.rank - 1 or parent.line != card.line:
                raise ValueError(f"card {card.id}: parent {card.parent} is not the previous rank of its line")
            if (parent.race, parent.cls) != (card.race, card.cls):
                raise ValueError(f"card {card.id}: a line keeps its race and class")
        for line in {c.line for c in creatures.values()}:
            ranks = [c for c in creatures.values() if c.line == line]
            firsts = [c for c in ranks if c.rank == 1]
            seconds = [c for c in ranks if c.rank == 2]
            thirds = [c for c in ranks if c.rank == 3]
            if len(firsts) != 1 or not 1 <= len(seconds) <= 2:
                raise ValueError(f"line {line}: needs one Rang 1 and one or two Rang 2")
            for second in seconds:
                if sum(1 for t in thirds if t.parent == second.id) != 1:
                    raise ValueError(f"line {line}: path {second.id} needs exactly one Maître")
        return self
