"""Generate data/choco.json (the 145 Chocobataille cards) from the tables in tools/choco_card_source.py.

Stats follow the ranges of engine/choco/catalog.py with a fixed pattern (a higher PA pays with lower PV);
effect texts are written from the effect's steps, in French and English, so the text never disagrees
with what the engine does. Run from the repository root: `python tools/gen_choco_catalog.py`.
The output is checked in; edit the tables (tools/choco_card_source.py) and regenerate, never the JSON.
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

from engine.choco.catalog import (  # noqa: E402
    EFFECT_PA,
    EFFECT_PV,
    NORMAL_PA,
    NORMAL_PV,
    ChocoCatalog,
)
from tools.choco_card_source import EFFECT_WIZARDS, NORMAL, PURE_EFFECTS  # noqa: E402

NBSP = "\u00a0"  # before a colon in French (docs/glossary.md, "Typography")

# --- effect texts -----------------------------------------------------------------------------------------

# target -> (French object, French "à" form, English)
TARGET_WORDS: dict[str, tuple[str, str, str]] = {
    "self": ("ce sorcier", "à ce sorcier", "this wizard"),
    "ally": ("un sorcier allié au choix", "à un sorcier allié au choix", "an allied wizard of your choice"),
    "enemy": (
        "un sorcier adverse au choix",
        "à un sorcier adverse au choix",
        "an enemy wizard of your choice",
    ),
    "random_ally": ("un sorcier allié au hasard", "à un sorcier allié au hasard", "a random allied wizard"),
    "random_enemy": (
        "un sorcier adverse au hasard",
        "à un sorcier adverse au hasard",
        "a random enemy wizard",
    ),
    "all_allies": ("tous les sorciers alliés", "à tous les sorciers alliés", "all allied wizards"),
    "all_enemies": ("tous les sorciers adverses", "à tous les sorciers adverses", "all enemy wizards"),
    "ally_front": (
        "les sorciers alliés en ligne de front",
        "aux sorciers alliés en ligne de front",
        "allied wizards on the front line",
    ),
    "ally_reserve": (
        "les sorciers alliés en ligne de réserve",
        "aux sorciers alliés en ligne de réserve",
        "allied wizards on the reserve line",
    ),
    "enemy_front": (
        "les sorciers adverses en ligne de front",
        "aux sorciers adverses en ligne de front",
        "enemy wizards on the front line",
    ),
    "enemy_reserve": (
        "les sorciers adverses en ligne de réserve",
        "aux sorciers adverses en ligne de réserve",
        "enemy wizards on the reserve line",
    ),
}


def plural(n: int, fr_one: str, fr_many: str) -> str:
    return fr_one if n == 1 else fr_many


def turns_fr(n: int) -> str:
    return f"{n} tour" if n == 1 else f"{n} tours"


def turns_en(n: int) -> str:
    return f"{n} turn" if n == 1 else f"{n} turns"


SAME_TARGET = ("ce même sorcier", "à ce même sorcier", "that same wizard")
SINGLE = {"ally", "enemy", "random_ally", "random_enemy"}


def step_text(step: dict[str, Any], same: bool = False) -> tuple[str, str]:
    kind = step["kind"]
    obj, dat, en = SAME_TARGET if same else TARGET_WORDS.get(step.get("target", "self"), ("", "", ""))
    n = step.get("amount", step.get("count", step.get("turns", 0)))
    if kind == "damage":
        return f"retire {n} PV {dat}", f"deals {n} damage to {en}"
    if kind == "heal":
        return f"rend {n} PV {dat}", f"restores {n} HP to {en}"
    if kind == "modify":
        parts_fr = [
            f"{v:+d} {label}" for v, label in ((step.get("pa", 0), "PA"), (step.get("pv", 0), "PV")) if v
        ]
        parts_en = [
            f"{v:+d} {label}" for v, label in ((step.get("pa", 0), "AP"), (step.get("pv", 0), "HP")) if v
        ]
        change = " et ".join(parts_fr)
        change_en = " and ".join(parts_en)
        turns = step.get("turns")
        fr_end = f" pendant {turns_fr(turns)}" if turns else ""
        en_end = f" for {turns_en(turns)}" if turns else ""
        return f"donne {change} {dat}{fr_end}", f"gives {change_en} to {en}{en_end}"
    if kind == "protect":
        return (
            f"protège {obj} des attaques pendant {turns_fr(n)}",
            f"protects {en} from attacks for {turns_en(n)}",
        )
    if kind == "stun":
        return (
            f"empêche {obj} d'attaquer pendant {turns_fr(n)}",
            f"stops {en} from attacking for {turns_en(n)}",
        )
    if kind == "destroy":
        return f"envoie {obj} au cimetière", f"sends {en} to the graveyard"
    if kind == "move":
        line_fr = "en ligne de front" if step["to"] == "front" else "en ligne de réserve"
        line_en = "to the front line" if step["to"] == "front" else "to the reserve line"
        return f"déplace {obj} {line_fr}", f"moves {en} {line_en}"
    if kind == "draw":
        return f"piochez {n} {plural(n, 'carte', 'cartes')}", f"draw {n} {'card' if n == 1 else 'cards'}"
    if kind == "discard":
        return (
            f"l'adversaire défausse {n} {plural(n, 'carte', 'cartes')} de sa main au hasard",
            f"the opponent discards {n} random {'card' if n == 1 else 'cards'} from their hand",
        )
    if kind == "mill":
        return (
            f"{n} {plural(n, 'carte', 'cartes')} au hasard de la pioche adverse "
            f"{plural(n, 'part', 'partent')} au cimetière",
            f"{n} random {'card' if n == 1 else 'cards'} of the opponent's deck go to the graveyard",
        )
    if kind == "recall":
        return (
            f"reprenez en main {n} {plural(n, 'sorcier', 'sorciers')} de votre cimetière",
            f"take {n} {'wizard' if n == 1 else 'wizards'} from your graveyard back into your hand",
        )
    if kind == "extra_summon":
        return (
            f"vous pouvez poser {n} {plural(n, 'sorcier', 'sorciers')} de plus ce tour-ci",
            f"you may place {n} more {'wizard' if n == 1 else 'wizards'} this turn",
        )
    if kind == "redraw":
        return (
            "remettez votre main dans votre pioche et piochez autant de cartes",
            "shuffle your hand into your deck and draw as many cards",
        )
    raise ValueError(kind)


def effect_text(trigger: str, steps: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, str]:
    # A single target named again is the same wizard (docs/choco/cards.md, "One choice per activation").
    parts = [
        step_text(
            step,
            same=step.get("target") in SINGLE and step.get("target") in [p.get("target") for p in steps[:i]],
        )
        for i, step in enumerate(steps)
    ]
    fr = ", puis ".join(p[0] for p in parts)
    en = ", then ".join(p[1] for p in parts)
    duration = extra.get("duration")
    if trigger == "on_place":
        fr, en = f"À la pose{NBSP}: {fr}.", f"On placement: {en}."
    elif trigger == "continuous":
        fr_end = f" (pendant {turns_fr(duration)})" if duration else ""
        en_end = f" (for {turns_en(duration)})" if duration else ""
        fr = f"Continu{NBSP}: à la pose puis à chaque fin de tour, {fr}{fr_end}."
        en = f"Continuous: on placement and at each end of turn, {en}{en_end}."
    elif extra.get("stays"):
        fr = f"Reste actif {turns_fr(duration)}{NBSP}: maintenant puis à chaque fin de tour, {fr}."
        en = f"Stays active for {turns_en(duration)}: now and at each end of turn, {en}."
    else:
        fr, en = f"{fr[0].upper()}{fr[1:]}.", f"{en[0].upper()}{en[1:]}."
    return {"fr": fr, "en": en}


# --- stats and assembly -----------------------------------------------------------------------------------


def slug(text: str) -> str:
    bare = "".join(
        c for c in unicodedata.normalize("NFKD", text.replace("Œ", "OE")) if not unicodedata.combining(c)
    )
    return re.sub(r"[^a-z0-9]+", "_", bare.lower()).strip("_")


def stats(index: int, pa_range: tuple[int, int], pv_range: tuple[int, int]) -> tuple[int, int]:
    """Cycle PA through its range; the higher the PA, the lower the PV (width 4 ranges)."""
    pa_width = pa_range[1] - pa_range[0] + 1
    pv_width = pv_range[1] - pv_range[0] + 1
    a = index % pa_width
    pv_step = (pv_width - 1) - a - ((index // pa_width) % 2)
    return pa_range[0] + a, pv_range[0] + max(0, min(pv_width - 1, pv_step))


def build() -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for rarity, names in NORMAL:
        for index, (fr, en) in enumerate(names):
            pa, pv = stats(index, NORMAL_PA[rarity], NORMAL_PV[rarity])
            cards.append(
                {
                    "id": slug(fr),
                    "name": {"fr": fr, "en": en},
                    "type": "normal",
                    "rarity": rarity,
                    "pa": pa,
                    "pv": pv,
                }
            )
    counters: dict[str, int] = {}
    for rarity, (fr, en), (effect_fr, effect_en), trigger, steps, extra in EFFECT_WIZARDS:
        index = counters.get(rarity, 0)
        counters[rarity] = index + 1
        pa, pv = stats(index + 1, EFFECT_PA[rarity], EFFECT_PV[rarity])
        effect = {"name": {"fr": effect_fr, "en": effect_en}, "text": effect_text(trigger, steps, extra)}
        effect |= {"trigger": trigger, "steps": steps, **extra}
        cards.append(
            {
                "id": slug(fr),
                "name": {"fr": fr, "en": en},
                "type": "effect",
                "rarity": rarity,
                "pa": pa,
                "pv": pv,
                "effect": effect,
            }
        )
    for rarity, (fr, en), steps, extra in PURE_EFFECTS:
        effect = {"name": {"fr": fr, "en": en}, "text": effect_text("from_hand", steps, extra)}
        effect |= {"trigger": "from_hand", "steps": steps, **extra}
        cards.append(
            {"id": slug(fr), "name": {"fr": fr, "en": en}, "type": "pure", "rarity": rarity, "effect": effect}
        )
    return {"game": "choco", "version": 1, "cards": cards}


DOC_MARKER = "<!-- Everything below is generated by tools/gen_choco_catalog.py. -->"
RARITY_NAMES = {
    "bronze_1": "Bronze 1",
    "bronze_2": "Bronze 2",
    "argent_1": "Argent 1",
    "argent_2": "Argent 2",
    "or_1": "Or 1",
    "or_2": "Or 2",
}


def steps_json(effect: dict[str, Any]) -> str:
    shown = {k: v for k, v in effect.items() if k in ("steps", "duration", "stays")}
    return "`" + json.dumps(shown, ensure_ascii=False) + "`"


def doc_lists(cards: list[dict[str, Any]]) -> str:
    out = ["", "## Card list", ""]
    out += [
        "### Normal wizards (92)",
        "",
        "| Id | Français | English | Rarity | PA | PV |",
        "|---|---|---|---|---|---|",
    ]
    for c in cards:
        if c["type"] == "normal":
            n = c["name"]
            out.append(
                f"| `{c['id']}` | {n['fr']} | {n['en']} | {RARITY_NAMES[c['rarity']]} | {c['pa']} | {c['pv']} |"
            )
    for kind, title in (("effect", "Effect wizards (35)"), ("pure", "Pure effects (18)")):
        out += ["", f"### {title}", ""]
        for c in cards:
            if c["type"] != kind:
                continue
            n, e = c["name"], c["effect"]
            stats = f", PA {c['pa']}, PV {c['pv']}" if kind == "effect" else ""
            out += [
                f"#### {n['fr']} / {n['en']} (`{c['id']}`)",
                "",
                f"{RARITY_NAMES[c['rarity']]}{stats}. Effect: **{e['name']['fr']}** / **{e['name']['en']}**,"
                f" trigger `{e['trigger']}`.",
                "",
                f"- FR : {e['text']['fr']}",
                f"- EN: {e['text']['en']}",
                f"- Data: {steps_json(e)}",
                "",
            ]
    return "\n".join(out).rstrip() + "\n"


def main() -> None:
    data = build()
    ChocoCatalog.model_validate(data)  # fail here rather than at start-up
    out = ROOT / "data" / "choco.json"
    out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}: {len(data['cards'])} cards")
    doc = ROOT / "docs" / "choco" / "cards.md"
    head = doc.read_text(encoding="utf-8").split(DOC_MARKER)[0]
    doc.write_text(head + DOC_MARKER + "\n" + doc_lists(data["cards"]), encoding="utf-8")
    print(f"wrote {doc.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
