"""Message keys of HOSS words that several of its modules show (below the facade, which re-exports them,
so the battle renderer can use them without importing the facade)."""

from __future__ import annotations

RACE_KEYS = {
    "squelette": "hoss.race.squelette",
    "orc": "hoss.race.orc",
    "sylvestre": "hoss.race.sylvestre",
    "humain": "hoss.race.humain",
}

RANK_NAME_KEYS = {  # a rank's name; 9 is the highest, « Max »
    1: "hoss.ranked.rank.1",
    2: "hoss.ranked.rank.2",
    3: "hoss.ranked.rank.3",
    4: "hoss.ranked.rank.4",
    5: "hoss.ranked.rank.5",
    6: "hoss.ranked.rank.6",
    7: "hoss.ranked.rank.7",
    8: "hoss.ranked.rank.8",
    9: "hoss.ranked.rank.max",
}
CLASS_KEYS = {
    "guerrier": "hoss.class.guerrier",
    "cavalier": "hoss.class.cavalier",
    "lancier": "hoss.class.lancier",
    "assassin": "hoss.class.assassin",
    "archer": "hoss.class.archer",
    "mage": "hoss.class.mage",
    "defenseur": "hoss.class.defenseur",
}
ELEMENT_KEYS = {
    "feu": "hoss.element.feu",
    "glace": "hoss.element.glace",
    "foudre": "hoss.element.foudre",
    "poison": "hoss.element.poison",
}
STATUS_KEYS = {
    "poison": "hoss.status.poison",
    "saignement": "hoss.status.saignement",
    "embrasement": "hoss.status.embrasement",
    "bris": "hoss.status.bris",
    "gel": "hoss.status.gel",
    "choc": "hoss.status.choc",
    "confusion": "hoss.status.confusion",
}
BUFF_KEYS = {
    "soins": "hoss.buff.soins",
    "vitesse": "hoss.buff.vitesse",
    "degat": "hoss.buff.degat",
    "pv": "hoss.buff.pv",
    "chance_crit": "hoss.buff.chance_crit",
    "degat_crit": "hoss.buff.degat_crit",
    "marqueur": "hoss.buff.marqueur",
    "marqueur_double": "hoss.buff.marqueur_double",
    "marqueur_aleatoire": "hoss.buff.marqueur_aleatoire",
    "revive": "hoss.buff.revive",
    "shield": "hoss.buff.shield",
    "confusion": "hoss.buff.confusion",
}
RANK_KEYS = {1: "hoss.rank.1", 2: "hoss.rank.2", 3: "hoss.rank.3"}
RARITY_KEYS = {
    "basique": "hoss.rarity.basique",
    "argent": "hoss.rarity.argent",
    "or": "hoss.rarity.or",
    "platine": "hoss.rarity.platine",
    "diamant": "hoss.rarity.diamant",
    "divin": "hoss.rarity.divin",
}
