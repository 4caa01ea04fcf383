"""The Chocobataille catalog's shape (data/choco.json): wizards, effect wizards, pure effects, effects.

The rulebook counts 145 cards: 92 normal wizards (PA and PV), 35 effect wizards (PA, PV and an effect)
and 18 pure effects (an effect played from the hand, no PA or PV). Six rarities, Bronze 1 to Or 2; the
rarer a card, the higher its PA and PV. The ranges below are rules of the catalog: a card outside the
range of its rarity and type stops start-up.

Effects are data: a trigger, a few steps drawn from a small vocabulary (the `kind` of each step), the
targets they act on, and how long they last. docs/choco/cards.md gives the exact semantics the engine
implements; keep both in step.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from engine.cards import CardBase, CatalogBase, LocalizedText

Rarity = Literal["bronze_1", "bronze_2", "argent_1", "argent_2", "or_1", "or_2"]
CardType = Literal["normal", "effect", "pure"]
Trigger = Literal["on_place", "continuous", "from_hand"]
Line = Literal["front", "reserve"]
# Who a step acts on; "chosen" targets are picked by the card's owner when the effect resolves.
Target = Literal[
    "self",  # the effect wizard itself (wizards only)
    "ally",  # one allied wizard, chosen
    "enemy",  # one enemy wizard, chosen
    "random_ally",  # one allied wizard, at random
    "random_enemy",  # one enemy wizard, at random
    "all_allies",  # every allied wizard on the board
    "all_enemies",  # every enemy wizard on the board
    "ally_front",  # every allied wizard on the front line
    "ally_reserve",  # every allied wizard on the reserve line
    "enemy_front",  # every enemy wizard on the front line
    "enemy_reserve",  # every enemy wizard on the reserve line
]

RARITIES: tuple[Rarity, ...] = get_args(Rarity)
CARD_TYPES: tuple[CardType, ...] = get_args(CardType)
TARGETS: tuple[Target, ...] = get_args(Target)
SINGLE_TARGETS: frozenset[Target] = frozenset({"self", "ally", "enemy", "random_ally", "random_enemy"})

# Inclusive (min, max) PA and PV per rarity. Effect wizards pay for their effect with lower stats.
NORMAL_PA: dict[Rarity, tuple[int, int]] = {
    "bronze_1": (1, 3),
    "bronze_2": (2, 4),
    "argent_1": (3, 5),
    "argent_2": (4, 6),
    "or_1": (5, 7),
    "or_2": (6, 8),
}
NORMAL_PV: dict[Rarity, tuple[int, int]] = {
    "bronze_1": (3, 6),
    "bronze_2": (5, 8),
    "argent_1": (7, 10),
    "argent_2": (9, 12),
    "or_1": (11, 14),
    "or_2": (13, 16),
}
EFFECT_PA: dict[Rarity, tuple[int, int]] = {
    "bronze_1": (1, 2),
    "bronze_2": (1, 3),
    "argent_1": (2, 4),
    "argent_2": (3, 5),
    "or_1": (4, 6),
    "or_2": (5, 7),
}
EFFECT_PV: dict[Rarity, tuple[int, int]] = {
    "bronze_1": (2, 5),
    "bronze_2": (4, 7),
    "argent_1": (6, 9),
    "argent_2": (8, 11),
    "or_1": (10, 13),
    "or_2": (12, 15),
}

MAX_STEPS = 3
MAX_TURNS = 5


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Amount = Annotated[int, Field(ge=1, le=10)]
Turns = Annotated[int, Field(ge=1, le=MAX_TURNS)]


class Damage(_Frozen):
    """Each target loses `amount` PV (not an attack: reaches the reserve line and protected wizards)."""

    kind: Literal["damage"] = "damage"
    target: Target
    amount: Amount


class Heal(_Frozen):
    """Each target regains `amount` PV, never above its maximum PV."""

    kind: Literal["heal"] = "heal"
    target: Target
    amount: Amount


class Modify(_Frozen):
    """Each target gains (or loses, if negative) `pa` PA and `pv` PV (a PV bonus also raises its maximum);
    for `turns` turns, else for as long as it stays on the board. PA never goes below 0; a wizard brought
    to 0 PV goes to the graveyard."""

    kind: Literal["modify"] = "modify"
    target: Target
    pa: int = Field(default=0, ge=-5, le=5)
    pv: int = Field(default=0, ge=-5, le=5)
    turns: Turns | None = None

    @model_validator(mode="after")
    def _changes_something(self) -> Modify:
        if self.pa == 0 and self.pv == 0:
            raise ValueError("a modify step changes pa or pv")
        return self


class Protect(_Frozen):
    """Each target cannot be attacked (direct attacks) for `turns` turns; effects still reach it."""

    kind: Literal["protect"] = "protect"
    target: Target
    turns: Turns


class Stun(_Frozen):
    """Each target cannot attack for `turns` turns."""

    kind: Literal["stun"] = "stun"
    target: Target
    turns: Turns


class Destroy(_Frozen):
    """Each target goes to the graveyard, whatever its PV."""

    kind: Literal["destroy"] = "destroy"
    target: Target


class Move(_Frozen):
    """Each target moves to line `to`, if that line has a free slot; the front line never empties."""

    kind: Literal["move"] = "move"
    target: Target
    to: Line


class Draw(_Frozen):
    """The owner draws `count` cards from their pioche, up to the hand limit of 8."""

    kind: Literal["draw"] = "draw"
    count: Annotated[int, Field(ge=1, le=3)]


class Discard(_Frozen):
    """The opponent sends `count` cards of their hand, drawn at random, to their graveyard."""

    kind: Literal["discard"] = "discard"
    count: Annotated[int, Field(ge=1, le=3)]


class Mill(_Frozen):
    """`count` cards of the opponent's pioche, drawn at random, go to their graveyard."""

    kind: Literal["mill"] = "mill"
    count: Annotated[int, Field(ge=1, le=3)]


class Recall(_Frozen):
    """The owner takes back `count` wizard cards of their choice from their graveyard into their hand
    (up to the hand limit), with their catalog PA and PV."""

    kind: Literal["recall"] = "recall"
    count: Annotated[int, Field(ge=1, le=2)]


class ExtraSummon(_Frozen):
    """The owner may place `count` more wizard(s) from their hand during this turn."""

    kind: Literal["extra_summon"] = "extra_summon"
    count: Annotated[int, Field(ge=1, le=2)]


class Redraw(_Frozen):
    """A chosen "Excès de magie": the owner shuffles their hand into their pioche and draws as many cards."""

    kind: Literal["redraw"] = "redraw"


STEP_MODELS: tuple[type[_Frozen], ...] = (
    Damage,
    Heal,
    Modify,
    Protect,
    Stun,
    Destroy,
    Move,
    Draw,
    Discard,
    Mill,
    Recall,
    ExtraSummon,
    Redraw,
)
Step = Annotated[
    Damage
    | Heal
    | Modify
    | Protect
    | Stun
    | Destroy
    | Move
    | Draw
    | Discard
    | Mill
    | Recall
    | ExtraSummon
    | Redraw,
    Field(discriminator="kind"),
]
# The vocabulary, in the order docs/choco/cards.md documents it.
STEP_KINDS: tuple[str, ...] = tuple(str(model.model_fields["kind"].default) for model in STEP_MODELS)


class Effect(_Frozen):
    """A card's effect: its name and text as the "Effets actifs" panel shows them, and what it does.

    `duration` bounds a continuous effect (or a pure effect that `stays`) to that many turns; without it
    a continuous effect lasts as long as its wizard is on the board."""

    name: LocalizedText
    text: LocalizedText
    trigger: Trigger
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)
    duration: Turns | None = None
    stays: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> Effect:
        repeats = self.trigger == "continuous" or self.stays
        if self.duration is not None and not repeats:
            raise ValueError("duration is only for a continuous effect or a pure effect that stays")
        if self.stays and self.trigger != "from_hand":
            raise ValueError("only a pure effect (trigger from_hand) can stay")
        if self.stays and self.duration is None:
            raise ValueError("a pure effect that stays needs a duration")
        return self


class ChocoCard(CardBase):
    """One card. A normal wizard has PA and PV; an effect wizard adds an effect triggered on placement
    or continuous; a pure effect has only an effect, played from the hand."""

    type: CardType
    rarity: Rarity
    pa: int | None = Field(default=None, ge=1, le=20)
    pv: int | None = Field(default=None, ge=1, le=30)
    effect: Effect | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ChocoCard:
        wizard = self.type != "pure"
        if wizard and (self.pa is None or self.pv is None):
            raise _card_error("pa" if self.pa is None else "pv", "a wizard has PA and PV")
        if not wizard and (self.pa is not None or self.pv is not None):
            raise _card_error("pa" if self.pa is not None else "pv", "a pure effect has no PA or PV")
        if (self.type == "normal") != (self.effect is None):
            raise _card_error("effect", "effect wizards and pure effects have an effect, normal wizards none")
        if self.effect is not None:
            expected = "from_hand" if self.type == "pure" else "on_place or continuous"
            if (self.effect.trigger == "from_hand") != (self.type == "pure"):
                raise _card_error("effect.trigger", f"a {self.type} card's effect is triggered {expected}")
            if self.type == "pure" and any(getattr(s, "target", None) == "self" for s in self.effect.steps):
                raise _card_error("effect.steps", "a pure effect has no self to target")
        if wizard:
            assert self.pa is not None
            assert self.pv is not None
            pa_range, pv_range = stat_ranges(self.type, self.rarity)
            for field, value, (low, high) in (("pa", self.pa, pa_range), ("pv", self.pv, pv_range)):
                if not low <= value <= high:
                    raise _card_error(
                        field, f"{self.type} {self.rarity} needs {low} to {high}, found {value}"
                    )
        return self


def stat_ranges(card_type: CardType, rarity: Rarity) -> tuple[tuple[int, int], tuple[int, int]]:
    """The inclusive (PA, PV) ranges of a wizard of this type and rarity."""
    if card_type == "normal":
        return NORMAL_PA[rarity], NORMAL_PV[rarity]
    return EFFECT_PA[rarity], EFFECT_PV[rarity]


def _card_error(field: str, reason: str) -> PydanticCustomError:
    return PydanticCustomError("choco_card", "field {field}: {reason}", {"field": field, "reason": reason})


class ChocoCatalog(CatalogBase[ChocoCard]):
    game: Literal["choco"]

    def of_type(self, card_type: CardType) -> tuple[ChocoCard, ...]:
        return tuple(c for c in self.cards if c.type == card_type)
