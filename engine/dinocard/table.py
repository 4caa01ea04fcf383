"""Cards as the simulator reads them: one `Stats` per catalog card, plain ints and flags, built once.

The battle reads a card's numbers thousands of times; attribute reads on a `__slots__` object are the
cheapest Python offers, and the catalog's pydantic models (with their lookups by kind) stay out of the loop.
"""

from __future__ import annotations

from functools import lru_cache

from engine.dinocard.catalog import CURSES, ELEMENTS, DinocardCard

DINOZ, ENCHANT, SPELL, OBJECT = range(4)
TYPE_CODES = {"dinoz": DINOZ, "enchantement": ENCHANT, "incantation": SPELL, "objet": OBJECT}

FIRST_STRIKE = 1
FLYING = 2
RANGED = 4
TRAMPLE = 8
LIFELINK = 16
FLAG_OF = {"first_strike": FIRST_STRIKE, "flying": FLYING, "ranged": RANGED, "trample": TRAMPLE}
FLAG_OF["lifelink"] = LIFELINK


class Stats:
    """A card's numbers. `effect`/`value`: an incantation's or object's one effect; `curse`: an
    enchantment that goes on an opposing dinoz (weaken, venom)."""

    __slots__ = (
        "arc",
        "armor",
        "colored",
        "curse",
        "eclosion",
        "effect",
        "element",
        "endurance",
        "flags",
        "force",
        "growth",
        "hatch_damage",
        "hatch_heal",
        "id",
        "need",
        "poison",
        "regen",
        "type",
        "value",
        "venom",
        "weaken",
    )

    def __init__(self, card: DinocardCard) -> None:
        self.id = card.id
        self.type = TYPE_CODES[card.type]
        self.element = ELEMENTS.index(card.element)
        self.colored = card.cost.colored
        self.need = card.cost.total
        self.eclosion = card.eclosion or 0
        # An enchantment's force and endurance are what it adds; a dinoz's are its characteristics.
        self.force = card.force if card.force is not None else card.value("force")
        self.endurance = card.endurance if card.endurance is not None else card.value("endurance")
        self.flags = sum(FLAG_OF[a.kind] for a in card.abilities if a.kind in FLAG_OF)
        self.poison = card.value("poison")
        self.armor = card.value("armor")
        self.regen = card.value("regeneration")
        self.growth = card.value("growth")
        self.arc = card.has("arc")
        self.hatch_damage = card.value("hatch_damage")
        self.hatch_heal = card.value("hatch_heal")
        self.weaken = card.value("weaken")
        self.venom = card.value("venom")
        self.curse = any(a.kind in CURSES for a in card.abilities)
        effect = next((a for a in card.abilities if a.kind != "arc"), None)
        self.effect = "" if effect is None or self.type in (DINOZ, ENCHANT) else effect.kind
        self.value = 0 if effect is None else effect.value


@lru_cache(maxsize=4096)
def stats_of(card: DinocardCard) -> Stats:
    """A card's `Stats`, built once per card value (cards are frozen and hashable)."""
    return Stats(card)
