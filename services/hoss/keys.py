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
