"""A small Pillz catalog built in code, so the economy tests do not depend on data/pillz.json's contents:
two clans, every number of stars, two leaders (one per clan) and a few character abilities."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.pillz.catalog import DAMAGE_RANGE, POWER_RANGE, PillzCatalog

CLANS = {"ronin": ("Rōnin", "Ronin"), "kaze": ("Clan du Vent", "Wind Clan")}
# (stars, how many characters) per clan; 1-2 stars give 12 non-leaders, enough for a starter.
SHAPE = ((1, 3), (2, 3), (3, 2), (4, 2), (5, 1))


def catalog_data() -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for clan in CLANS:
        for stars, count in SHAPE:
            for n in range(1, count + 1):
                card: dict[str, Any] = {
                    "id": f"{clan}_{stars}_{n}",
                    "name": {"fr": f"{clan.title()} {stars}-{n}", "en": f"{clan.title()} {stars}-{n} EN"},
                    "clan": clan,
                    "stars": stars,
                    "power": POWER_RANGE[stars][0] + n - 1,
                    "damage": DAMAGE_RANGE[stars][0],
                }
                if stars == 2 and n == 1:
                    card["ability"] = {
                        "kind": "power_bonus",
                        "value": 2,
                        "name": {"fr": "Fougue", "en": "Ardour"},
                    }
                cards.append(card)
    cards.append(
        {
            "id": "ashigaru",
            "name": {"fr": "Ashigaru", "en": "Ashigaru"},
            "clan": "ronin",
            "stars": 3,
            "power": 5,
            "damage": 3,
            "leader": True,
            "ability": {
                "kind": "counter_attack",
                "value": 0,
                "name": {"fr": "Contre-attaque", "en": "Counter"},
            },
        }
    )
    cards.append(
        {
            "id": "tengu",
            "name": {"fr": "Tengu", "en": "Tengu"},
            "clan": "kaze",
            "stars": 4,
            "power": 6,
            "damage": 4,
            "leader": True,
            "ability": {"kind": "clan_power", "value": 1, "name": {"fr": "Bourrasque", "en": "Gust"}},
        }
    )
    clans = [{"id": k, "name": {"fr": fr, "en": en}} for k, (fr, en) in CLANS.items()]
    return {"game": "pillz", "version": 1, "clans": clans, "cards": cards}


def small_catalog() -> PillzCatalog:
    return PillzCatalog.model_validate(catalog_data())


def write_catalog(path: Path) -> Path:
    path.write_text(json.dumps(catalog_data(), ensure_ascii=False), encoding="utf-8")
    return path
