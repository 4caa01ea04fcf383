"""Generate data/hoss.json from the budget model described in docs/hoss/balance.md.

The committed source of truth is data/hoss.json: this script is a helper that produced it. Re-running it
rewrites the file from the tables below, so a hand edit of the JSON must be carried over here (or the
script abandoned). Usage, from the repository root::

    python tools/gen_hoss_catalog.py            # writes data/hoss.json
    python tools/gen_hoss_catalog.py --table    # also prints the budget tables of balance.md

How a creature card is built (see balance.md for the why):

1. its *shape*: class base stats, times the race's style, times the rank's progression, times its path's
   tweaks (offensive, defensive, elemental...): PV, ATK, interval, crit, dodge, status chances;
2. its *budget*: ``T1 x RANK_POWER[rank] x CLASS_FACTOR x RACE_FACTOR``;
3. ATK and PV are scaled together (same factor) until power = DPS_eff x EHP meets the budget; ATK is then
   rounded and PV solved exactly from the rounded ATK, so every card lands on its budget.

A Défenseur never strikes: its budget is a protection value, EHP_def, handled the same way on PV alone.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "hoss.json"

sys.path.insert(0, str(ROOT))

from engine.hoss.catalog import ELEMENT_STATUS  # noqa: E402
from tools.hoss_budget import (  # noqa: E402
    CLASS_DODGE,
    CLASS_FACTOR,
    D1,
    HEAL_WEIGHT,
    RACE_FACTOR,
    RANK_SCALE,
    STATUS_WEIGHT,
    T1,
    dps,
)

PREFIX = {"squelette": "sq", "orc": "orc", "sylvestre": "syl", "humain": "hum"}

# --- the budget model (numbers in tools/hoss_budget.py, shared with the catalog test) ----------------------

RANK_POWER = {rank: scale**2 for rank, scale in RANK_SCALE.items()}


def dps_eff(atk: float, c: Card) -> float:
    crit = 1 + c.crit_chance * (0.5 + c.crit_damage)
    marks = sum(chance * STATUS_WEIGHT[s] for s, chance in c.statuses.items())
    return dps(atk, c.interval) * (crit + marks + c.heal_chance * HEAL_WEIGHT)


def ehp_per_pv(c: Card) -> float:
    return 1 / ((1 - CLASS_DODGE[c.cls] - c.dodge_bonus) * (1 - c.deflect_chance))


def protection_per_pv(c: Card) -> float:
    avoid = (1 - c.damage_reduction) * (1 - c.block) * (1 - CLASS_DODGE["defenseur"])
    return (1 + 0.5 * c.deflect_chance + 0.5 * c.heal_chance) * (1 + 0.05 * len(c.elements)) / avoid


# --- card shapes ------------------------------------------------------------------------------------------


@dataclass
class Card:
    race: str
    cls: str
    rank: int
    pv: float
    atk: float
    interval: float
    crit_chance: float = 0.0
    crit_damage: float = 0.0
    dodge_bonus: float = 0.0
    damage_reduction: float = 0.0
    block: float = 0.0
    statuses: dict[str, float] = field(default_factory=dict)
    elements: tuple[str, ...] = ()
    heal_chance: float = 0.0
    deflect_chance: float = 0.0


# Rang 1 shape of each class for a neutral race; only the PV:DPS ratio matters, the budget sets the size.
# fmt: off
CLASS_BASE = {
    "guerrier": Card("", "guerrier", 1, pv=110, atk=14, interval=2.0, crit_chance=0.06, crit_damage=0.1,
                     dodge_bonus=0.02),
    "cavalier": Card("", "cavalier", 1, pv=160, atk=15, interval=2.5, crit_chance=0.05, crit_damage=0.1),
    "lancier": Card("", "lancier", 1, pv=100, atk=19, interval=2.6, crit_chance=0.05, crit_damage=0.2,
                    dodge_bonus=0.02),
    "assassin": Card("", "assassin", 1, pv=65, atk=13, interval=1.5, crit_chance=0.22, crit_damage=0.5,
                     dodge_bonus=0.08),
    "archer": Card("", "archer", 1, pv=64, atk=8, interval=1.1, crit_chance=0.08, crit_damage=0.15,
                   dodge_bonus=0.03),
    "mage": Card("", "mage", 1, pv=80, atk=16, interval=2.3, crit_chance=0.05, crit_damage=0.1),
    "defenseur": Card("", "defenseur", 1, pv=210, atk=0, interval=5.0, damage_reduction=0.2, block=0.25),
}
# fmt: on

# Race style on attackers: (pv, atk, interval) multipliers, flat crit / dodge, race status and its base chance.
RACE_STYLE: dict[str, dict[str, Any]] = {
    "squelette": {"pv": 0.95, "atk": 1.0, "interval": 1.0, "crit": 0.04, "dodge": 0.02},
    "orc": {"pv": 1.05, "atk": 1.25, "interval": 1.2, "status": ("saignement", 0.18)},
    "sylvestre": {"pv": 1.0, "atk": 0.85, "interval": 0.8, "heal": 0.15},
    "humain": {"pv": 1.05, "atk": 1.0, "interval": 1.0, "crit_damage": 0.1, "status": ("bris", 0.15)},
}
# Race style on Défenseurs: reduction, block and the Sylvestre's deflect / heal on blocks.
DEFENDER_STYLE: dict[str, dict[str, float]] = {
    "squelette": {"damage_reduction": 0.15, "block": 0.30},
    "orc": {"damage_reduction": 0.25, "block": 0.18},
    "sylvestre": {"damage_reduction": 0.15, "block": 0.25, "deflect_chance": 0.20, "heal_chance": 0.10},
    "humain": {"damage_reduction": 0.25, "block": 0.22},
}
SYLVAN_WARRIOR_DEFLECT = 0.08
MAGE_ELEMENT_CHANCE = 0.22  # base chance of a mage's element status
OTHER_ELEMENT_CHANCE = 0.14  # base chance of the element status of another class

# Rank progression of the shape (the budget does the scaling of PV and ATK).
RANK_INTERVAL = {1: 1.0, 2: 0.95, 3: 0.9}
RANK_CRIT = {1: 0.0, 2: 0.02, 3: 0.04}
RANK_CRIT_DAMAGE = {1: 0.0, 2: 0.1, 3: 0.2}
RANK_DODGE = {1: 0.0, 2: 0.01, 3: 0.02}
RANK_CHANCE = {1: 1.0, 2: 1.15, 3: 1.3}  # status, heal and deflect chances
RANK_DEFENCE = {1: 0.0, 2: 0.04, 3: 0.08}  # added to a Défenseur's reduction and block


def rhythm(interval: float) -> float:
    """Status chances shrink on fast hitters so chance per second stays comparable (balance.md)."""
    return min(1.3, max(0.45, interval / 2.2))


# --- lines ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Voie:
    """Tweaks of a path's Rang 2 and Maître. Multipliers on the shape, flat additions on chances."""

    pv: float = 1.0
    atk: float = 1.0
    interval: float = 1.0
    crit: float = 0.0
    crit_damage: float = 0.0
    dodge: float = 0.0
    status_mult: float = 1.0  # on the race status (saignement, bris)
    heal_mult: float = 1.0
    elements: tuple[str, ...] | None = None  # replaces the line's elements from Rang 2
    master_elements: tuple[str, ...] = ()  # added at the Maître
    extra_statuses: tuple[tuple[str, float], ...] = ()  # status, base chance (before rhythm and rank)
    block: float = 0.0
    damage_reduction: float = 0.0
    deflect: float = 0.0


OFFENSIVE = Voie(pv=0.85, atk=1.15, crit=0.04)
DEFENSIVE = Voie(pv=1.2, atk=0.85, dodge=0.02)


@dataclass(frozen=True)
class Line:
    race: str
    cls: str
    names: dict[str, tuple[str, str]]  # "1", "2a", "3a", ("2b", "3b"): (fr, en)
    elements: tuple[str, ...] = ()  # from Rang 1
    paths: dict[str, Voie] = field(default_factory=lambda: {"a": Voie()})


# fmt: off
LINES: list[Line] = [
    # --- Squelette: precise and evasive; cold and venom; immunities and avoidance are race rules ---
    Line("squelette", "guerrier", {
        "1": ("Légionnaire des cryptes", "Crypt Legionary"),
        "2a": ("Centurion d'ossuaire", "Ossuary Centurion"),
        "3a": ("Seigneur des Mille Os", "Lord of a Thousand Bones"),
    }),
    Line("squelette", "cavalier", {
        "1": ("Cavalier du linceul", "Shroud Rider"),
        "2a": ("Chevalier de la dernière chevauchée", "Knight of the Last Ride"),
        "3a": ("Maître du Cortège funèbre", "Master of the Funeral Cortege"),
    }),
    Line("squelette", "lancier", {
        "1": ("Piquier sans chair", "Fleshless Pikeman"),
        "2a": ("Hallebardier sépulcral", "Sepulchral Halberdier"),
        "3a": ("Grand Empaleur des tertres", "High Impaler of the Barrows"),
    }, paths={"a": Voie(master_elements=("glace",))}),
    Line("squelette", "assassin", {
        "1": ("Rôdeur des caveaux", "Vault Prowler"),
        "2a": ("Lame-fémur", "Femur Blade"),
        "2b": ("Empoisonneur exhumé", "Exhumed Poisoner"),
        "3a": ("Maître des Entailles muettes", "Master of Silent Cuts"),
        "3b": ("Doyenne des Fioles noires", "Matron of the Black Vials"),
    }, paths={"a": replace(OFFENSIVE, crit=0.08, crit_damage=0.2), "b": Voie(elements=("poison",))}),
    Line("squelette", "archer", {
        "1": ("Archer aux os creux", "Hollow-Bone Archer"),
        "2a": ("Guetteur des remparts morts", "Dead-Rampart Watcher"),
        "3a": ("Archonte Œil-Vide", "Archon Hollow-Eye"),
    }, paths={"a": Voie(master_elements=("glace",))}),
    Line("squelette", "mage", {
        "1": ("Acolyte du givre funèbre", "Acolyte of Grave Frost"),
        "2a": ("Nécromancien des neiges", "Snowbound Necromancer"),
        "3a": ("Liche de l'Hiver sans fin", "Lich of the Endless Winter"),
    }, elements=("glace",)),
    Line("squelette", "defenseur", {
        "1": ("Gardien d'ossements", "Bone Warden"),
        "2a": ("Muraille de côtes", "Ribcage Wall"),
        "2b": ("Sentinelle de givre", "Rime Sentinel"),
        "3a": ("Haut-Gardien du Reliquaire", "High Keeper of the Reliquary"),
        "3b": ("Patriarche du Tombeau gelé", "Patriarch of the Frozen Tomb"),
    }, paths={"a": Voie(block=0.06), "b": Voie(elements=("glace",), damage_reduction=0.04)}),
    # --- Orc: heavy, slow blows that bleed; fire ---
    Line("orc", "guerrier", {
        "1": ("Cogneur du clan", "Clan Basher"),
        "2a": ("Écorcheur à deux haches", "Twin-Axe Flayer"),
        "2b": ("Brute des braises", "Ember Brute"),
        "3a": ("Seigneur de guerre Saigne-Tout", "Warlord Bleed-All"),
        "3b": ("Grand Chef Gueule-de-Forge", "High Chief Forge-Maw"),
    }, paths={"a": replace(OFFENSIVE, crit=0.0, status_mult=1.5), "b": Voie(elements=("feu",))}),
    Line("orc", "cavalier", {
        "1": ("Chevaucheur de sanglier", "Boar Rider"),
        "2a": ("Pillard au sanglier cuirassé", "Armoured-Boar Raider"),
        "3a": ("Khan des Hordes grondantes", "Khan of the Rumbling Hordes"),
    }),
    Line("orc", "lancier", {
        "1": ("Porte-croc", "Tuskbearer"),
        "2a": ("Harponneur de mammouths", "Mammoth Harpooner"),
        "3a": ("Maître-Épieu du Clan rouge", "Spear-Master of the Red Clan"),
    }),
    Line("orc", "assassin", {
        "1": ("Égorgeur des fourrés", "Thicket Throatcutter"),
        "2a": ("Surineur balafré", "Scarred Shanker"),
        "3a": ("Maîtresse des Crocs nocturnes", "Mistress of the Night Fangs"),
    }),
    Line("orc", "archer", {
        "1": ("Archer aux flèches barbelées", "Barbed-Arrow Archer"),
        "2a": ("Chasseur de têtes des crêtes", "Ridge Headhunter"),
        "3a": ("Grand Veneur du Croc sanglant", "Grand Huntsman of the Bloody Fang"),
    }, paths={"a": Voie(master_elements=("feu",))}),
    Line("orc", "mage", {
        "1": ("Chaman des cendres", "Ash Shaman"),
        "2a": ("Invocateur de brasiers", "Blaze Caller"),
        "2b": ("Hurleur d'orage", "Storm Howler"),
        "3a": ("Archimage du Volcan rugissant", "Archmage of the Roaring Volcano"),
        "3b": ("Grand Chaman du Tonnerre rouge", "Grand Shaman of the Red Thunder"),
    }, elements=("feu",), paths={"a": Voie(atk=1.1, pv=0.9), "b": Voie(elements=("foudre",))}),
    Line("orc", "defenseur", {
        "1": ("Bouclier du clan", "Clan Shieldbearer"),
        "2a": ("Mur-de-Fer", "Ironwall"),
        "3a": ("Grand Rempart de la Horde", "Great Bulwark of the Horde"),
    }),
    # --- Sylvestre: many quick hits that heal allies; venom ---
    Line("sylvestre", "guerrier", {
        "1": ("Lame de ronce", "Bramble Blade"),
        "2a": ("Duelliste d'écorce", "Barkskin Duelist"),
        "3a": ("Maître-Lame des Clairières", "Blade-Master of the Glades"),
    }),
    Line("sylvestre", "cavalier", {
        "1": ("Cavalier de cerf", "Stag Rider"),
        "2a": ("Chevalier des frondaisons", "Knight of the Canopy"),
        "3a": ("Haut-Prince des Ramures", "High Prince of the Antlers"),
    }),
    Line("sylvestre", "lancier", {
        "1": ("Lancier de saule", "Willow Lancer"),
        "2a": ("Gardien à la lance-liane", "Vine-Spear Keeper"),
        "3a": ("Sénéchal des Racines profondes", "Seneschal of the Deep Roots"),
    }),
    Line("sylvestre", "assassin", {
        "1": ("Ombre de la mousse", "Moss Shade"),
        "2a": ("Tisseuse d'aiguilles de pin", "Pine-Needle Weaver"),
        "3a": ("Maîtresse du Sous-Bois", "Mistress of the Underwood"),
    }, paths={"a": Voie(master_elements=("poison",))}),
    Line("sylvestre", "archer", {
        "1": ("Archer de la canopée", "Canopy Archer"),
        "2a": ("Archère du Vent-Vert", "Greenwind Archer"),
        "2b": ("Archère aux dards de guêpe", "Wasp-Dart Archer"),
        "3a": ("Archidruide de la Volée sans fin", "Archdruid of the Endless Volley"),
        "3b": ("Reine des Guêpes-Flèches", "Queen of the Arrow-Wasps"),
    }, paths={"a": Voie(interval=0.88, heal_mult=1.3), "b": Voie(elements=("poison",))}),
    Line("sylvestre", "mage", {
        "1": ("Semeur de spores", "Spore Sower"),
        "2a": ("Druide des tourbières", "Bog Druid"),
        "3a": ("Grande Mère des Spores", "Great Mother of Spores"),
    }, elements=("poison",)),
    Line("sylvestre", "defenseur", {
        "1": ("Écorce-Garde", "Barkguard"),
        "2a": ("Sentinelle de ronces", "Briar Sentinel"),
        "3a": ("Aïeul Cœur-de-Chêne", "Elder Oak-Heart"),
    }),
    # --- Humain: disciplined all-rounders who break armour; lightning ---
    Line("humain", "guerrier", {
        "1": ("Milicien du bourg", "Town Militiaman"),
        "2a": ("Sergent d'armes", "Sergeant-at-Arms"),
        "3a": ("Connétable du Royaume", "Constable of the Realm"),
    }),
    Line("humain", "cavalier", {
        "1": ("Écuyer monté", "Mounted Squire"),
        "2a": ("Chevalier Brise-Ligne", "Line-Breaker Knight"),
        "2b": ("Chevalier caparaçonné", "Barded Knight"),
        "3a": ("Grand Maréchal des Étendards", "Grand Marshal of the Banners"),
        "3b": ("Commandeur de la Citadelle", "Commander of the Citadel"),
    }, paths={"a": replace(OFFENSIVE, status_mult=1.3), "b": DEFENSIVE}),
    Line("humain", "lancier", {
        "1": ("Piquier de la garde", "Guard Pikeman"),
        "2a": ("Hallebardier royal", "Royal Halberdier"),
        "3a": ("Capitaine des Piques d'argent", "Captain of the Silver Pikes"),
    }),
    Line("humain", "assassin", {
        "1": ("Coupe-bourse des ruelles", "Alley Cutpurse"),
        "2a": ("Dague de la guilde", "Guild Dagger"),
        "3a": ("Maître-Espion de la Couronne", "Spymaster of the Crown"),
    }),
    Line("humain", "archer", {
        "1": ("Arbalétrier du guet", "Watch Crossbowman"),
        "2a": ("Franc-archer", "Free Archer"),
        "3a": ("Maître-Archer de la Tour blanche", "Master Archer of the White Tower"),
    }, paths={"a": Voie(master_elements=("foudre",))}),
    Line("humain", "mage", {
        "1": ("Apprenti de l'orage", "Storm Apprentice"),
        "2a": ("Mage de la foudre royale", "Royal Thunder Mage"),
        "3a": ("Grand Magistre des Éclairs", "Grand Magister of Lightning"),
    }, elements=("foudre",)),
    Line("humain", "defenseur", {
        "1": ("Garde au pavois", "Pavise Guard"),
        "2a": ("Gardien de la herse", "Portcullis Warden"),
        "3a": ("Grand Bouclier du Roi", "The King's Great Shield"),
    }, paths={"a": Voie(master_elements=("foudre",))}),
]
# fmt: on

BUFFS = [
    ("soins", 0.05, "Rosée de jouvence", "Dew of Youth"),
    ("vitesse", 0.20, "Vent de bataille", "Battle Gale"),
    ("degat", 0.10, "Pierre à aiguiser runique", "Runic Whetstone"),
    ("pv", 0.10, "Gourde de vigueur", "Flask of Vigour"),
    ("chance_crit", 0.10, "Œil du rapace", "Raptor's Eye"),
    ("degat_crit", 0.40, "Tranchant du bourreau", "Executioner's Edge"),
    ("marqueur", 0.08, "Encre des marques", "Branding Ink"),
    ("marqueur_double", 0.25, "Écho maudit", "Cursed Echo"),
    ("marqueur_aleatoire", 0.10, "Dé du chaos", "Chaos Die"),
    ("revive", 0.15, "Dernier sursaut", "Last Rally"),
    ("shield", 0.05, "Égide de brume", "Mist Aegis"),
    ("confusion", 0.05, "Poudre de démence", "Madness Powder"),
]

# --- building ---------------------------------------------------------------------------------------------


def shape(line: Line, rank: int, path: Voie | None) -> Card:
    base = CLASS_BASE[line.cls]
    p = path or Voie()
    elements = line.elements if rank == 1 or p.elements is None else p.elements
    if rank == 3:
        elements = elements + tuple(e for e in p.master_elements if e not in elements)
    if line.cls == "defenseur":
        style = DEFENDER_STYLE[line.race]
        return Card(
            line.race,
            line.cls,
            rank,
            pv=base.pv,
            atk=0,
            interval=5.0,
            damage_reduction=style["damage_reduction"] + RANK_DEFENCE[rank] + p.damage_reduction,
            block=style["block"] + RANK_DEFENCE[rank] + p.block,
            deflect_chance=style.get("deflect_chance", 0.0) * RANK_CHANCE[rank],
            heal_chance=style.get("heal_chance", 0.0) * RANK_CHANCE[rank],
            elements=elements,
        )
    race = RACE_STYLE[line.race]
    interval = base.interval * race["interval"] * RANK_INTERVAL[rank] * p.interval
    card = Card(
        line.race,
        line.cls,
        rank,
        pv=base.pv * race["pv"] * p.pv,
        atk=base.atk * race["atk"] * p.atk,
        interval=round(interval, 2),
        crit_chance=base.crit_chance + race.get("crit", 0.0) + RANK_CRIT[rank] + p.crit,
        crit_damage=base.crit_damage + race.get("crit_damage", 0.0) + RANK_CRIT_DAMAGE[rank] + p.crit_damage,
        dodge_bonus=base.dodge_bonus + race.get("dodge", 0.0) + RANK_DODGE[rank] + p.dodge,
        elements=elements,
    )
    tempo = rhythm(card.interval) * RANK_CHANCE[rank]
    if "status" in race:
        status, chance = race["status"]
        card.statuses[status] = chance * tempo * p.status_mult
    for element in elements:
        chance = MAGE_ELEMENT_CHANCE if line.cls == "mage" else OTHER_ELEMENT_CHANCE
        status = ELEMENT_STATUS[element]
        # Gel's strength is the hit's damage, which already grows with rank: its chance does not.
        card.statuses[status] = chance * (rhythm(card.interval) if status == "gel" else tempo)
    for status, chance in p.extra_statuses:
        card.statuses[status] = card.statuses.get(status, 0.0) + chance * tempo
    if "heal" in race:
        card.heal_chance = race["heal"] * tempo * p.heal_mult
    if line.race == "sylvestre" and line.cls == "guerrier":
        card.deflect_chance = SYLVAN_WARRIOR_DEFLECT * RANK_CHANCE[rank] + p.deflect
    return card


def rounded(card: Card) -> Card:
    return replace(
        card,
        crit_chance=round(card.crit_chance, 2),
        crit_damage=round(card.crit_damage, 2),
        dodge_bonus=round(card.dodge_bonus, 2),
        damage_reduction=round(card.damage_reduction, 2),
        block=round(card.block, 2),
        statuses={s: round(c, 2) for s, c in card.statuses.items()},
        heal_chance=round(card.heal_chance, 2),
        deflect_chance=round(card.deflect_chance, 2),
    )


def budget(card: Card) -> float:
    if card.cls == "defenseur":
        return D1 * RANK_SCALE[card.rank]
    factor = CLASS_FACTOR.get(card.cls, 1.0) * RACE_FACTOR.get(card.race, 1.0)
    return T1 * RANK_POWER[card.rank] * factor


def fit(card: Card) -> Card:
    """Scale PV and ATK so the card meets its budget exactly (PV solved from the rounded ATK)."""
    card = rounded(card)
    target = budget(card)
    if card.cls == "defenseur":
        return replace(card, pv=round(target / protection_per_pv(card)))
    power = dps_eff(card.atk, card) * card.pv * ehp_per_pv(card)
    atk = max(1, round(card.atk * math.sqrt(target / power)))
    pv = round(target / (dps_eff(atk, card) * ehp_per_pv(card)))
    return replace(card, atk=atk, pv=pv)


def to_json(
    card_id: str, line_id: str, names: tuple[str, str], parent: str | None, c: Card
) -> dict[str, Any]:
    return {
        "kind": "creature",
        "id": card_id,
        "name": {"fr": names[0], "en": names[1]},
        "line": line_id,
        "race": c.race,
        "cls": c.cls,
        "rank": c.rank,
        "parent": parent,
        "pv": int(c.pv),
        "atk": int(c.atk),
        "interval": c.interval,
        "crit_chance": c.crit_chance,
        "crit_damage": c.crit_damage,
        "dodge_bonus": c.dodge_bonus,
        "damage_reduction": c.damage_reduction,
        "block": c.block,
        "statuses": {s: c.statuses[s] for s in sorted(c.statuses)},
        "elements": list(c.elements),
        "heal_chance": c.heal_chance,
        "deflect_chance": c.deflect_chance,
    }


def build() -> tuple[dict[str, Any], list[tuple[str, Card]]]:
    cards: list[dict[str, Any]] = []
    built: list[tuple[str, Card]] = []
    for line in LINES:
        line_id = f"{PREFIX[line.race]}_{line.cls}"
        first = f"{line_id}_1"
        c1 = fit(shape(line, 1, None))
        cards.append(to_json(first, line_id, line.names["1"], None, c1))
        built.append((first, c1))
        for letter, path in line.paths.items():
            second, third = f"{line_id}_2{letter}", f"{line_id}_3{letter}"
            c2, c3 = fit(shape(line, 2, path)), fit(shape(line, 3, path))
            cards.append(to_json(second, line_id, line.names[f"2{letter}"], first, c2))
            cards.append(to_json(third, line_id, line.names[f"3{letter}"], second, c3))
            built += [(second, c2), (third, c3)]
    for effect, power, fr, en in BUFFS:
        cards.append(
            {
                "kind": "buff",
                "id": f"buff_{effect}",
                "name": {"fr": fr, "en": en},
                "effect": effect,
                "power": power,
            }
        )
    return {"game": "hoss", "version": 1, "cards": cards}, built


def dump(catalog: dict[str, Any]) -> str:
    """Indented JSON, one field per line, with the small objects (names, statuses) on one line."""
    out = [
        "{",
        f'  "game": {json.dumps(catalog["game"])},',
        f'  "version": {catalog["version"]},',
        '  "cards": [',
    ]
    for i, card in enumerate(catalog["cards"]):
        fields = [f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in card.items()]
        sep = "," if i < len(catalog["cards"]) - 1 else ""
        out.append("    {\n" + ",\n".join(fields) + "\n    }" + sep)
    out += ["  ]", "}", ""]
    return "\n".join(out)


def tables(built: list[tuple[str, Card]]) -> str:
    rows = [
        "| card | pv | atk | interval | DPS | DPS_eff | EHP | power / budget |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for card_id, c in built:
        if c.cls == "defenseur":
            ehp = c.pv * protection_per_pv(c)
            rows.append(f"| {card_id} | {c.pv} | 0 | 5.0 | — | — | {ehp:.0f} | {ehp / budget(c):.3f} |")
            continue
        d = dps_eff(c.atk, c)
        e = c.pv * ehp_per_pv(c)
        rows.append(
            f"| {card_id} | {c.pv} | {c.atk} | {c.interval} | {dps(c.atk, c.interval):.2f} | {d:.2f} | {e:.0f} "
            f"| {d * e / budget(c):.3f} |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="print the per-card budget table")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    catalog, built = build()
    args.out.write_text(dump(catalog), encoding="utf-8")
    if args.table:
        print(tables(built))
    print(f"wrote {args.out}: {len(catalog['cards'])} cards", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
