"""Generate data/pillz.json (66 Pillz duel characters in six clans) and docs/pillz/abilities.md from the
tables in tools/pillz_card_source.py.

Power and damage follow the ranges of engine/pillz/catalog.py with a fixed pattern per stars: a plain
character cycles through profiles of about the same power x damage (more stars, a higher product), a
character with an ability or a leader pays for it with a lower profile. Run from the repository root:
`python tools/gen_pillz_catalog.py`. The output is checked in; edit the tables and regenerate, never
the JSON.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.pillz.catalog import PillzCatalog  # noqa: E402
from tools.pillz_card_source import ABILITY_NAMES, CLANS, Character  # noqa: E402

# (power, damage) profiles per stars, inside POWER_RANGE / DAMAGE_RANGE.
PLAIN: dict[int, list[tuple[int, int]]] = {
    1: [(3, 2), (2, 3), (4, 1)],
    2: [(4, 3), (3, 4), (5, 2)],
    3: [(5, 4), (4, 5), (6, 3)],
    4: [(6, 5), (7, 4), (5, 6)],
    5: [(8, 6), (7, 7), (9, 5)],
}
WITH_ABILITY: dict[int, tuple[int, int]] = {1: (2, 2), 2: (3, 3), 3: (4, 4), 4: (6, 4), 5: (7, 5)}
LEADER: dict[int, tuple[int, int]] = {3: (5, 3), 4: (6, 4), 5: (7, 5)}

# What each ability does, exactly as the engine implements it (engine/pillz/rules.py, engine.py).
SEMANTICS: dict[str, str] = {
    "power_bonus": "+value power in the round this character fights (its attack is (power + value) × pillz).",
    "damage_bonus": "If this character wins its round, it deals damage + value.",
    "heal_on_win": "If this character wins its round, its owner regains value PV, never above the "
    "starting 12 PV. Applied after the damage.",
    "pillz_on_loss": "If this character loses its round, its owner gets value pillz back after paying the bet "
    "(they may end with more pillz than before the round).",
    "drain_pillz": "If this character wins its round, the opponent loses value pillz (not below 0), after "
    "paying their bet and receiving any Réserve refund.",
    "reduce_damage": "If this character loses its round, its owner takes value less damage (not below 0).",
    "cancel_ability": "The opposing character's ability does nothing in this round. Two Entrave characters "
    "facing each other cancel each other; Entrave has no other effect (its value is unused: 1).",
    "counter_attack": "Leader. If drawn among its owner's four characters, its owner plays second (leads rounds "
    "2 and 4) whatever the stars; if both players have one drawn, chance decides who begins.",
    "clan_power": "Leader. If drawn, every drawn character of the leader's clan (the leader included) has "
    "+value power for the whole duel; shown in the line-up's stats.",
    "war_chest": "Leader. If drawn, after each round its owner loses (whichever character fought), the "
    "owner gets value pillz back, on top of a Réserve and before a Larcin. The duel still starts at 12 "
    "pillz.",
    "blessing": "Leader. If drawn, the first round its owner loses (whichever character fought), the "
    "owner takes value less damage (after Armure, not below 0); once per duel, spent on that first loss "
    "even if nothing was left to take off. The duel still starts at 12 PV, and healing never goes above "
    "12.",
}


def slug(text: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", bare.lower().replace("'", "")).strip("-")


def card(clan: str, character: Character, leader: bool, plain_index: dict[int, int]) -> dict[str, Any]:
    fr, en, stars, kind, value = character
    if leader:
        power, damage = LEADER[stars]
    elif kind is not None:
        power, damage = WITH_ABILITY[stars]
    else:
        index = plain_index.get(stars, 0)
        plain_index[stars] = index + 1
        power, damage = PLAIN[stars][index % len(PLAIN[stars])]
    data: dict[str, Any] = {
        "id": slug(f"{clan} {en}"),
        "name": {"fr": fr, "en": en},
        "clan": clan,
        "stars": stars,
        "power": power,
        "damage": damage,
    }
    if leader:
        data["leader"] = True
    if kind is not None:
        name_fr, name_en = ABILITY_NAMES[kind]
        data["ability"] = {"kind": kind, "value": value, "name": {"fr": name_fr, "en": name_en}}
    return data


def build() -> dict[str, Any]:
    clans: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    plain_index: dict[int, int] = {}
    for clan, fr, en, leader, characters in CLANS:
        clans.append({"id": clan, "name": {"fr": fr, "en": en}})
        cards.append(card(clan, leader, True, plain_index))
        cards += [card(clan, c, False, plain_index) for c in characters]
    return {"game": "pillz", "version": 1, "clans": clans, "cards": cards}


DOC_HEAD = """# Pillz duel: abilities

Generated by `tools/gen_pillz_catalog.py` from `tools/pillz_card_source.py`; edit those, not this file.
The engine's code is `engine/pillz/rules.py` (`matchup`, `active`, `choose_first`) and
`engine/pillz/rules.py` (`leader_effects`) and `engine/pillz/engine.py` (`with_clan_power`, `_resolve`);
the rules notes are in `rules-notes.md`.

Every duel starts at 12 PV and 12 pillz for both players, whatever the leaders (the rulebook's « Vous
débutez avec 12 points de vie et 12 pillz »); no ability changes the start, and no PV ever goes above 12.

Character abilities act only in the round their character fights, and only if the opposing character
is not an Entrave (`cancel_ability`). Leader abilities act for the whole duel, and only when the leader
is among its owner's four drawn characters; a leader fights like any character. Its own ability is not
a character ability: an Entrave never cancels it, and Trésor de guerre and Bénédiction act on the
rounds their owner loses whichever character fought.

Order of a round's resolution: attacks (power with Furie × pillz) → winner drawn → damage (Coup précis
added, Armure subtracted, then Bénédiction, each not below 0) → Second souffle heals the winner → both
bets are paid → Réserve and Trésor de guerre refund the loser → Larcin drains the loser → KO check.
Every ability that changed a number is listed under its round, with what it changed.
"""


def doc(data: dict[str, Any]) -> str:
    clan_names = {c["id"]: c["name"]["fr"] for c in data["clans"]}
    out = [DOC_HEAD, "## Abilities", ""]
    for kind, (fr, en) in ABILITY_NAMES.items():
        holders = [c for c in data["cards"] if c.get("ability", {}).get("kind") == kind]
        out += [f"### {fr} / {en} (`{kind}`)", "", SEMANTICS[kind], ""]
        out += ["| Card | Clan | Stars | Power | Damage | Value |", "|---|---|---|---|---|---|"]
        for c in holders:
            name = f"{c['name']['fr']} / {c['name']['en']} (`{c['id']}`)"
            row = f"| {name} | {clan_names[c['clan']]} | {c['stars']} | {c['power']} | {c['damage']}"
            out.append(f"{row} | {c['ability']['value']} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main() -> None:
    data = build()
    PillzCatalog.model_validate(data)  # fail here rather than at start-up
    out = ROOT / "data" / "pillz.json"
    out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}: {len(data['cards'])} characters")
    page = ROOT / "docs" / "pillz" / "abilities.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(doc(data), encoding="utf-8")
    print(f"wrote {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
