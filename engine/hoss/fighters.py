"""Runtime creatures and sides: plain mutable objects with __slots__, for the simulation's hot loop.

A fighter's derived numbers (max PV, ATK, chances, interval, damage modifiers against every race x class)
are computed by `refresh` only when something they depend on changes: the card (evolution), the race
synergy of its side, or at the start of a simulation segment. A hit then reads plain attributes.

"All stats" that the copy bonus and the race synergy scale (docs/hoss/rules-notes.md): max PV, ATK,
crit chance, crit-damage bonus, status chances, dodge (class table + card bonus), block, damage reduction,
heal and deflect chances, and attack speed (where the bonus joins the speed total).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.hoss.bonus import attack_interval_ms, buff_strength_bp, scaled
from engine.hoss.catalog import BUFF_EFFECTS, CLASSES, RACES
from engine.hoss.rules import (
    BP,
    CLASS,
    CRIT_BASE_BP,
    DEFENSEUR,
    DODGE_BP,
    ELEMENT,
    ELEMENT_IMMUNE,
    FEARS_RACE,
    FEU,
    RACE,
    RACE_IMMUNE,
    RESISTS_RACE,
    STATUS,
    damage_row,
    synergy_bp,
)
from engine.hoss.state import CardSpec, CopySpec, DeckSpec, LineSpec, Step

SEAT_LETTERS = ("a", "b")
N_KEYS = len(RACES) * len(CLASSES)  # target key = race * 7 + class


def uid_of(seat: int, line_index: int) -> str:
    """Instance id of a seat's line card ("a1".."a6", "b1".."b6"); the creature keeps it when it evolves."""
    return f"{SEAT_LETTERS[seat]}{line_index + 1}"


def line_index_of(uid: str) -> int:
    return int(uid[1:]) - 1


class Fighter:
    """A creature in play. PV amounts are centi-PV; chances are fractions; times are battle ms."""

    __slots__ = (
        "alive",
        "atk",
        "attack_at",
        "bleed",
        "bleed_next",
        "block",
        "bonus_bp",
        "bris",
        "bris_bp",
        "burn",
        "burn_crit_bp",
        "burn_mult_bp",
        "burn_next",
        "card",
        "cls",
        "confused",
        "copy",
        "crit",
        "crit_mult",
        "cycle_start",
        "damage",
        "deflect",
        "dodge",
        "elements",
        "evolutions",
        "fears_race",
        "fire",
        "foe",
        "frozen",
        "gel_bp",
        "heal",
        "immune",
        "interval",
        "is_def",
        "key",
        "line",
        "max_hp",
        "mod_vs",
        "path_options",
        "poison",
        "pool",
        "pool_version",
        "protege",
        "race",
        "race_bit",
        "reduction",
        "resists_race",
        "revived",
        "shield",
        "shock_until",
        "side",
        "statuses",
        "uid",
    )

    # Set by `refresh` alone (a restored creature has none until then): declared for `_take`.
    atk: float
    crit: float
    crit_mult: float
    block: float
    reduction: float
    heal: float
    deflect: float
    interval: int

    def __init__(
        self, uid: str, side: Side, card: CardSpec, copy: CopySpec, twin_of: Fighter | None = None
    ) -> None:
        if twin_of is not None:
            self._take(twin_of, side)
            return
        self.uid = uid
        self.side = side
        self.foe = side.foe
        self.line = side.deck.lines[line_index_of(uid)]
        self.alive = True
        self.revived = False
        self.damage = 0
        self.shield = 0
        self.poison = 0
        self.bleed = 0
        self.bleed_next = 0
        self.burn = 0
        self.burn_next = 0
        self.burn_crit_bp = 0
        self.burn_mult_bp = 0
        self.bris_bp = 0
        self.bris = 0.0
        self.gel_bp = 0
        self.frozen = False
        self.shock_until = 0
        self.confused = False
        self.protege: Fighter | None = None
        self.attack_at = -1  # battle ms of the next hit; -1: none (Défenseur, frozen, dead, mid-attack)
        self.cycle_start = 0  # battle ms the current attack cycle began (last hit, entry, shock's end...)
        self.pool: list[Fighter] = []
        self.pool_version = -1
        self.path_options: tuple[str, ...] = ()
        self.race = RACE[card.race]
        self.race_bit = 1 << self.race
        self.cls = CLASS[card.cls]
        self.is_def = self.cls == DEFENSEUR
        self.fears_race = FEARS_RACE[self.race]
        self.resists_race = RESISTS_RACE[self.race]
        self.key = self.race * len(CLASSES) + self.cls
        self.set_card(card, copy)

    def set_card(self, card: CardSpec, copy: CopySpec) -> None:
        """Take the card's identity (on entry and on evolution); stats follow at the next `refresh`."""
        self.card = card
        self.copy = copy
        self.bonus_bp = copy.bonus_pm * 10
        elements = 0
        immune = RACE_IMMUNE[self.race]
        for name in card.elements:
            elements |= 1 << ELEMENT[name]
            immune |= ELEMENT_IMMUNE[ELEMENT[name]]
        self.elements = elements
        self.immune = immune
        self.fire = bool(elements >> FEU & 1)
        self.evolutions = self.next_options()  # rolled for at every round's end: kept with the card
        self.statuses: tuple[tuple[int, float], ...] = ()
        self.mod_vs: tuple[float, ...] = ()
        self.dodge: tuple[float, ...] = ()
        self.max_hp = 0  # 0 until `refresh`

    def twin(self, side: Side) -> Fighter:
        """This creature as it stands, on `side` (a copy of its side whose foe is set), for a copy of the
        battle: its protégé is still this battle's (the caller maps it), its target pool is left to be
        recomputed, and stats not computed yet (a battle just restored) stay so. Attribute by attribute:
        a look-ahead copies a dozen creatures, and this is several times faster than a loop over the
        slots. A constructor path rather than `Fighter.__new__`: compiled (tools/native.py), a class's
        `__new__` runs its `__init__`."""
        return Fighter(self.uid, side, self.card, self.copy, self)

    def _take(self, f: Fighter, side: Side) -> None:
        self.uid = f.uid
        self.side = side
        self.foe = side.foe
        self.line = f.line
        self.alive = f.alive
        self.revived = f.revived
        self.damage = f.damage
        self.shield = f.shield
        self.poison = f.poison
        self.bleed = f.bleed
        self.bleed_next = f.bleed_next
        self.burn = f.burn
        self.burn_next = f.burn_next
        self.burn_crit_bp = f.burn_crit_bp
        self.burn_mult_bp = f.burn_mult_bp
        self.bris_bp = f.bris_bp
        self.bris = f.bris
        self.gel_bp = f.gel_bp
        self.frozen = f.frozen
        self.shock_until = f.shock_until
        self.confused = f.confused
        self.protege = f.protege
        self.attack_at = f.attack_at
        self.cycle_start = f.cycle_start
        self.pool = []
        self.pool_version = -1
        self.path_options = f.path_options
        self.race = f.race
        self.race_bit = f.race_bit
        self.cls = f.cls
        self.is_def = f.is_def
        self.fears_race = f.fears_race
        self.resists_race = f.resists_race
        self.key = f.key
        self.card = f.card
        self.copy = f.copy
        self.bonus_bp = f.bonus_bp
        self.elements = f.elements
        self.immune = f.immune
        self.fire = f.fire
        self.evolutions = f.evolutions
        self.statuses = f.statuses
        self.mod_vs = f.mod_vs
        self.dodge = f.dodge
        self.max_hp = f.max_hp
        if f.max_hp:
            self.atk = f.atk
            self.crit = f.crit
            self.crit_mult = f.crit_mult
            self.block = f.block
            self.reduction = f.reduction
            self.heal = f.heal
            self.deflect = f.deflect
            self.interval = f.interval

    @property
    def hp(self) -> int:
        return self.max_hp - self.damage

    def refresh(self) -> None:
        """Recompute every derived stat from card, copy bonus, side synergy and the side's buffs.

        They depend only on (card, total bonus) once the side's buffs are fixed, so each side keeps them
        in a small cache: a synergy that comes and goes, or a segment restart, costs a lookup.
        """
        side = self.side
        bonus = self.bonus_bp + side.synergy[self.race]
        key = (self.card.id, bonus)
        stats = side.stats.get(key)
        if stats is None:
            stats = side.stats[key] = fighter_stats(
                self.card, bonus, self.race, self.cls, self.elements, side.buff_key
            )
        (
            self.max_hp,
            self.atk,
            self.crit,
            self.crit_mult,
            self.statuses,
            self.dodge,
            self.block,
            self.reduction,
            self.heal,
            self.deflect,
            self.interval,
            self.mod_vs,
        ) = stats
        if self.damage >= self.max_hp:  # a lost synergy lowers max PV but never kills
            self.damage = self.max_hp - 1

    def next_options(self) -> tuple[CopySpec, ...]:
        """The copies it could evolve into: owned Rang 2 paths, or the Maître of its own path."""
        if self.card.rank == 1:
            return self.line.r2
        if self.card.rank == 2:
            return tuple(c for c in self.line.r3 if self.side.cards[c.card].parent == self.card.id)
        return ()


Stats = tuple[
    int,
    float,
    float,
    float,
    tuple[tuple[int, float], ...],
    tuple[float, ...],
    float,
    float,
    float,
    float,
    int,
    tuple[float, ...],
]


@lru_cache(maxsize=8192)
def fighter_stats(
    card: CardSpec, bonus: int, race: int, cls: int, elements: int, buffs: tuple[int, ...]
) -> Stats:
    """The derived stats of a card at a total bonus (bp) under a side's buffs; cached across battles,
    since bulk simulations meet the same few hundred (card, bonus) pairs again and again. Still computed
    a dozen times per lab battle (each ranked opponent brings new copies and buffs), so the tables'
    parts are cached on their own (`_dodge_row`, `damage_row`)."""
    pv_bp, crit_bp, crit_mult_bp, marker_bp, speed_bp, degat_bp = buffs
    marker = marker_bp / BP
    return (
        max(card.pv * (BP + bonus + pv_bp) // 100, 1),
        card.atk * (BP + bonus) / 100,
        min(1.0, scaled(card.crit_bp, bonus) + crit_bp / BP),
        (CRIT_BASE_BP + card.crit_damage_bp * (BP + bonus) / BP + crit_mult_bp) / BP,
        tuple((STATUS[name], min(1.0, scaled(chance, bonus) + marker)) for name, chance in card.statuses),
        _dodge_row(cls, card.dodge_bp, bonus),
        scaled(card.block_bp, bonus),
        scaled(card.reduction_bp, bonus),
        scaled(card.heal_bp, bonus),
        scaled(card.deflect_bp, bonus),
        attack_interval_ms(card.interval_ms, bonus + speed_bp),
        () if cls == DEFENSEUR else damage_row(race, cls, elements, degat_bp),
    )


@lru_cache(maxsize=4096)
def _dodge_row(cls: int, dodge_bp: int, bonus: int) -> tuple[float, ...]:
    """The class table's dodge against each attacker class plus the card's dodge bonus, raised by the
    bonus."""
    return tuple([min(1.0, (base + dodge_bp) * (BP + bonus) / (BP * BP)) for base in DODGE_BP[cls]])


class Side:
    """One seat's half of the battle: hand, draw pile, creatures in play (in play order), buffs, synergy."""

    __slots__ = (
        "answers",
        "attacker_cards",
        "buff_key",
        "cards",
        "confuse",
        "crit_bp",
        "crit_mult_bp",
        "deck",
        "defender_cards",
        "defenders",
        "degat_bp",
        "double",
        "fighters",
        "foe",
        "hand",
        "legal_cache",
        "marker_bp",
        "pile",
        "pv_bp",
        "race_count",
        "random_marker",
        "revive_bp",
        "seat",
        "shield_bp",
        "soins_bp",
        "speed_bp",
        "stats",
        "steps",
        "synergy",
        "version",
    )

    def __init__(
        self, seat: int, deck: DeckSpec, cards: dict[str, CardSpec], copy_of: Side | None = None
    ) -> None:
        if copy_of is not None:
            self._take(copy_of)
            return
        self.seat = seat
        self.deck = deck
        self.cards = cards
        self.defender_cards = frozenset(
            uid_of(seat, i) for i, line in enumerate(deck.lines) if cards[line.r1.card].cls == "defenseur"
        )
        self.foe: Side = self
        self.hand: list[str] = []
        self.pile: list[str] = []
        self.fighters: list[Fighter] = []
        self.defenders: list[Fighter] = []
        self.version = 0
        self.race_count = [0] * len(RACES)
        self.synergy = [0] * len(RACES)
        self.attacker_cards = 0  # attacker cards in hand or pile
        self.stats: dict[tuple[str, int], Stats] = {}
        self.steps: list[Step] = []
        self.answers: list[tuple[str, str, str]] = []
        self.legal_cache: tuple[list[Step], int, list[Any]] | None = None
        strength = dict.fromkeys(BUFF_EFFECTS, 0)
        for buff in deck.buffs:  # two copies of one effect add up
            strength[buff.effect] += buff_strength_bp(buff.power_bp, buff.bonus_pm)
        self.soins_bp = strength["soins"]
        self.speed_bp = strength["vitesse"]
        self.degat_bp = strength["degat"]
        self.pv_bp = strength["pv"]
        self.crit_bp = strength["chance_crit"]
        self.crit_mult_bp = strength["degat_crit"]
        self.marker_bp = strength["marqueur"]
        self.double = min(1.0, strength["marqueur_double"] / BP)
        self.random_marker = min(1.0, strength["marqueur_aleatoire"] / BP)
        self.revive_bp = min(BP, strength["revive"])
        self.shield_bp = strength["shield"]
        self.confuse = min(1.0, strength["confusion"] / BP)
        self.buff_key = (
            self.pv_bp,
            self.crit_bp,
            self.crit_mult_bp,
            self.marker_bp,
            self.speed_bp,
            self.degat_bp,
        )

    def _take(self, side: Side) -> None:
        """A copy of `side` for a copy of the battle (`convert.copy_battle`): the same immutable specs and
        the same stats cache (pure values keyed by card and bonus under the same buffs), new lists for
        what changes, no creatures yet (the battle's copy adds their twins) and the same foe until the
        battle's copy sets it. A constructor path: compiled, a class's `__new__` runs its `__init__`."""
        self.answers = list(side.answers)
        self.attacker_cards = side.attacker_cards
        self.buff_key = side.buff_key
        self.cards = side.cards
        self.confuse = side.confuse
        self.crit_bp = side.crit_bp
        self.crit_mult_bp = side.crit_mult_bp
        self.deck = side.deck
        self.defender_cards = side.defender_cards
        self.defenders = []
        self.degat_bp = side.degat_bp
        self.double = side.double
        self.fighters = []
        self.foe = side.foe
        self.hand = list(side.hand)
        self.legal_cache = None
        self.marker_bp = side.marker_bp
        self.pile = list(side.pile)
        self.pv_bp = side.pv_bp
        self.race_count = list(side.race_count)
        self.random_marker = side.random_marker
        self.revive_bp = side.revive_bp
        self.seat = side.seat
        self.shield_bp = side.shield_bp
        self.soins_bp = side.soins_bp
        self.speed_bp = side.speed_bp
        self.stats = side.stats
        self.steps = list(side.steps)
        self.synergy = list(side.synergy)
        self.version = 0

    def line(self, uid: str) -> LineSpec:
        return self.deck.lines[line_index_of(uid)]

    def is_defender_card(self, uid: str) -> bool:
        return uid in self.defender_cards

    def living_attackers(self) -> list[Fighter]:
        return [f for f in self.fighters if not f.is_def]

    def count_race(self, race: int, delta: int) -> bool:
        """A creature of `race` entered (+1) or died (-1): update the synergy and refresh who it changes.
        True when the synergy changed (the caller then re-times the pending hits: intervals may differ)."""
        self.race_count[race] += delta
        tier = synergy_bp(self.race_count[race])
        if tier == self.synergy[race]:
            return False
        self.synergy[race] = tier
        for fighter in self.fighters:
            if fighter.race == race:
                fighter.refresh()
        return True


__all__ = ["Fighter", "Side", "line_index_of", "uid_of"]
