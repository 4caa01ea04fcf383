"""Generate data/choco.json (the 145 Chocobataille cards) from the tables below.

Stats follow the ranges of engine/choco/catalog.py with a fixed pattern (a higher PA pays with lower PV);
effect texts are written from the effect's steps, in French and English, so the text never disagrees
with what the engine does. Run from the repository root: `python tools/gen_choco_catalog.py`.
The output is checked in; edit this file and regenerate rather than editing the JSON by hand.
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

# --- normal wizards: (rarity, [(fr, en), ...]) ---------------------------------------------------------

NORMAL: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "bronze_1",
        [
            ("Aglaé Pommeverte", "Aglae Greenapple"),
            ("Barnabé Crapaud", "Barnaby Toad"),
            ("Capucine Cendrée", "Capucine Ashgrey"),
            ("Dorothée Balai", "Dorothy Broomstick"),
            ("Eudes Lentille", "Odo Lentil"),
            ("Fulbert Cornemuse", "Fulbert Bagpipe"),
            ("Gervaise Chaudron", "Gervaise Cauldron"),
            ("Honorine Brindille", "Honorine Twig"),
            ("Ignace Fiole", "Ignatius Phial"),
            ("Joséphine Grelotte", "Josephine Shiver"),
            ("Lambert Potiron", "Lambert Pumpkin"),
            ("Mahaut Chandelle", "Mahaut Candle"),
            ("Norbert Pissenlit", "Norbert Dandelion"),
            ("Odile Corbeau", "Odile Raven"),
            ("Pacôme Tisonnier", "Pacome Poker"),
            ("Quentin Sureau", "Quentin Elderberry"),
            ("Rosine Verveine", "Rosine Vervain"),
            ("Sidonie Plume", "Sidonie Quill"),
            ("Théophile Mousse", "Theophilus Moss"),
            ("Ursule Marmite", "Ursula Stewpot"),
            ("Valentin Lucarne", "Valentine Skylight"),
            ("Wilfried Hibou", "Wilfred Owlet"),
            ("Xavière Nuage", "Xaviera Cloud"),
            ("Yvon Galet", "Yvon Pebble"),
            ("Zélie Cannelle", "Zelie Cinnamon"),
            ("Anselme Lichen", "Anselm Lichen"),
            ("Blanche Genièvre", "Blanche Juniper"),
            ("Cyprien Étoile", "Cyprian Star"),
        ],
    ),
    (
        "bronze_2",
        [
            ("Thomas le Rimeur", "Thomas the Rhymer"),
            ("Mère Demdike", "Mother Demdike"),
            ("Alizon Device", "Alizon Device"),
            ("Bessie Dunlop", "Bessie Dunlop"),
            ("Jeanne Harvilliers", "Jeanne Harvilliers"),
            ("Janet Horne", "Janet Horne"),
            ("Agnès Waterhouse", "Agnes Waterhouse"),
            ("Grizel la Sage", "Grizel the Wise"),
            ("Ambroise des Brumes", "Ambrose of the Mists"),
            ("Berthe la Distillatrice", "Bertha the Distiller"),
            ("Colomban Lanterne", "Columban Lantern"),
            ("Désirée Pluvieuse", "Desiree Rainfall"),
            ("Émeric Chardon", "Emeric Thistle"),
            ("Firmin Grimoire", "Firmin Grimoire"),
            ("Gaspard Sablier", "Gaspard Hourglass"),
            ("Hortense Mandragore", "Hortense Mandrake"),
            ("Isidore Chouette", "Isidore Owl"),
            ("Jacinthe Ombrelune", "Hyacinth Moonshade"),
            ("Léonce Fumerolle", "Leonce Smokewisp"),
            ("Mélisande Orties", "Melisande Nettles"),
        ],
    ),
    (
        "argent_1",
        [
            ("Jean Trithème", "Johannes Trithemius"),
            ("Johann Georg Faust", "Johann Georg Faust"),
            ("Mélusine", "Melusine"),
            ("Gerbert d'Aurillac", "Gerbert of Aurillac"),
            ("Giambattista della Porta", "Giambattista della Porta"),
            ("Heinrich Khunrath", "Heinrich Khunrath"),
            ("Basile Valentin", "Basil Valentine"),
            ("Papus", "Papus"),
            ("Agnès Sampson", "Agnes Sampson"),
            ("Mère Shipton", "Mother Shipton"),
            ("Marie Laveau", "Marie Laveau"),
            ("Dame Alice Kyteler", "Dame Alice Kyteler"),
            ("La Voisin", "La Voisin"),
            ("Ursule Kemp", "Ursula Kemp"),
            ("Simon Forman", "Simon Forman"),
            ("Marsile Ficin", "Marsilio Ficino"),
        ],
    ),
    (
        "argent_2",
        [
            ("Roger Bacon", "Roger Bacon"),
            ("Michel Scot", "Michael Scot"),
            ("Edward Kelley", "Edward Kelley"),
            ("Pierre d'Abano", "Pietro d'Abano"),
            ("Arnaud de Villeneuve", "Arnaldus de Villa Nova"),
            ("Raymond Lulle", "Ramon Llull"),
            ("Jabir ibn Hayyan", "Jabir ibn Hayyan"),
            ("Zosime de Panopolis", "Zosimos of Panopolis"),
            ("Marie la Juive", "Mary the Jewess"),
            ("Cagliostro", "Cagliostro"),
            ("Comte de Saint-Germain", "Count of Saint Germain"),
            ("Éliphas Lévi", "Eliphas Levi"),
        ],
    ),
    (
        "or_1",
        [
            ("Nicolas Flamel", "Nicolas Flamel"),
            ("Paracelse", "Paracelsus"),
            ("John Dee", "John Dee"),
            ("Corneille Agrippa", "Cornelius Agrippa"),
            ("Albert le Grand", "Albertus Magnus"),
            ("Nostradamus", "Nostradamus"),
            ("Simon le Magicien", "Simon Magus"),
            ("Apollonius de Tyane", "Apollonius of Tyana"),
            ("Ostanès", "Ostanes"),
        ],
    ),
    (
        "or_2",
        [
            ("Merlin", "Merlin"),
            ("Morgane", "Morgan le Fay"),
            ("Hécate", "Hecate"),
            ("Circé", "Circe"),
            ("Le roi Salomon", "King Solomon"),
            ("Hermès Trismégiste", "Hermes Trismegistus"),
            ("Médée", "Medea"),
        ],
    ),
]

# --- effect wizards and pure effects: (rarity, name, effect name, trigger, steps, extra) -----------------


def s(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **fields}


EffectRow = tuple[str, tuple[str, str], tuple[str, str], str, list[dict[str, Any]], dict[str, Any]]

EFFECT_WIZARDS: list[EffectRow] = [
    # bronze_1
    (
        "bronze_1",
        ("Aurèle Murmure", "Aurele Whisper"),
        ("Murmure des pages", "Rustling Pages"),
        "on_place",
        [s("draw", count=1)],
        {},
    ),
    (
        "bronze_1",
        ("Bertille Écume", "Bertille Seafoam"),
        ("Écume apaisante", "Soothing Foam"),
        "on_place",
        [s("heal", target="ally", amount=2)],
        {},
    ),
    (
        "bronze_1",
        ("Clovis Ronce", "Clovis Bramble"),
        ("Ronces griffues", "Clawing Brambles"),
        "on_place",
        [s("damage", target="enemy", amount=1)],
        {},
    ),
    (
        "bronze_1",
        ("Delphine Brume", "Delphine Haze"),
        ("Voile de brume", "Veil of Mist"),
        "on_place",
        [s("protect", target="self", turns=1)],
        {},
    ),
    (
        "bronze_1",
        ("Edmond Rouille", "Edmund Rust"),
        ("Baguette rouillée", "Rusty Wand"),
        "on_place",
        [s("modify", target="enemy", pa=-1, turns=2)],
        {},
    ),
    (
        "bronze_1",
        ("Fleur Chicorée", "Fleur Chicory"),
        ("Tisane de chicorée", "Chicory Brew"),
        "continuous",
        [s("heal", target="random_ally", amount=1)],
        {},
    ),
    (
        "bronze_1",
        ("Gontran Tonnerre", "Gontran Thunder"),
        ("Coup de tonnerre", "Thunderclap"),
        "on_place",
        [s("damage", target="random_enemy", amount=2)],
        {},
    ),
    (
        "bronze_1",
        ("Hermine Givre", "Ermine Frost"),
        ("Souffle glacé", "Icy Breath"),
        "on_place",
        [s("stun", target="enemy", turns=1)],
        {},
    ),
    (
        "bronze_1",
        ("Irénée Ficelle", "Irenaeus String"),
        ("Fil tendu", "Taut Thread"),
        "on_place",
        [s("move", target="enemy", to="front")],
        {},
    ),
    (
        "bronze_1",
        ("Jeanne Pervenche", "Jeanne Periwinkle"),
        ("Floraison", "Blossoming"),
        "continuous",
        [s("modify", target="self", pa=1)],
        {"duration": 2},
    ),
    # bronze_2
    (
        "bronze_2",
        ("Mère Holle", "Mother Hulda"),
        ("Neige bienfaisante", "Kindly Snow"),
        "continuous",
        [s("heal", target="all_allies", amount=1)],
        {"duration": 3},
    ),
    (
        "bronze_2",
        ("La Befana", "La Befana"),
        ("Hotte de l'Épiphanie", "Epiphany Basket"),
        "on_place",
        [s("draw", count=2)],
        {},
    ),
    (
        "bronze_2",
        ("Gullveig", "Gullveig"),
        ("Trois fois née", "Thrice Born"),
        "continuous",
        [s("heal", target="self", amount=2)],
        {},
    ),
    (
        "bronze_2",
        ("Kikimora", "Kikimora"),
        ("Farce nocturne", "Night Prank"),
        "on_place",
        [s("discard", count=1)],
        {},
    ),
    (
        "bronze_2",
        ("Perchta", "Perchta"),
        ("Chasse sauvage", "Wild Hunt"),
        "on_place",
        [s("damage", target="enemy_reserve", amount=1)],
        {},
    ),
    (
        "bronze_2",
        ("Prudence Grelot", "Prudence Sleighbell"),
        ("Cri de ralliement", "Rallying Cry"),
        "on_place",
        [s("modify", target="ally_front", pa=1)],
        {},
    ),
    (
        "bronze_2",
        ("Rosalie Sortilège", "Rosalie Spellwright"),
        ("Appel pressant", "Urgent Summons"),
        "on_place",
        [s("extra_summon", count=1)],
        {},
    ),
    (
        "bronze_2",
        ("Nicodème Fenouil", "Nicodemus Fennel"),
        ("Repli soigné", "Tended Retreat"),
        "on_place",
        [s("move", target="ally", to="reserve"), s("heal", target="ally", amount=2)],
        {},
    ),
    # argent_1
    (
        "argent_1",
        ("Sibylle de Cumes", "Cumaean Sibyl"),
        ("Feuilles d'oracle", "Oracle Leaves"),
        "on_place",
        [s("draw", count=2)],
        {},
    ),
    (
        "argent_1",
        ("La Pythie", "The Pythia"),
        ("Présage", "Omen"),
        "on_place",
        [s("protect", target="ally", turns=2)],
        {},
    ),
    (
        "argent_1",
        ("Érichtho", "Erichtho"),
        ("Nécromancie", "Necromancy"),
        "on_place",
        [s("recall", count=1)],
        {},
    ),
    (
        "argent_1",
        ("Canidie", "Canidia"),
        ("Poupée de cire", "Wax Doll"),
        "continuous",
        [s("damage", target="random_enemy", amount=1)],
        {},
    ),
    (
        "argent_1",
        ("Louhi", "Louhi"),
        ("Brouillard du Nord", "Northern Fog"),
        "on_place",
        [s("stun", target="enemy_front", turns=1)],
        {},
    ),
    (
        "argent_1",
        ("Morgause", "Morgause"),
        ("Malédiction", "Curse"),
        "on_place",
        [s("modify", target="enemy", pa=-2)],
        {},
    ),
    # argent_2
    (
        "argent_2",
        ("Calypso", "Calypso"),
        ("Île d'Ogygie", "Isle of Ogygia"),
        "on_place",
        [s("move", target="enemy", to="reserve"), s("stun", target="enemy", turns=1)],
        {},
    ),
    (
        "argent_2",
        ("Aradia", "Aradia"),
        ("Évangile des sorcières", "Gospel of the Witches"),
        "continuous",
        [s("modify", target="all_allies", pa=1, turns=1)],
        {},
    ),
    (
        "argent_2",
        ("Pasiphaé", "Pasiphae"),
        ("Philtre funeste", "Baleful Philtre"),
        "on_place",
        [s("damage", target="enemy", amount=3)],
        {},
    ),
    (
        "argent_2",
        ("Isobel Gowdie", "Isobel Gowdie"),
        ("Envol de lièvres", "Flight of Hares"),
        "on_place",
        [s("mill", count=2)],
        {},
    ),
    (
        "argent_2",
        ("Tituba", "Tituba"),
        ("Gâteau de sorcière", "Witch Cake"),
        "on_place",
        [s("heal", target="all_allies", amount=2)],
        {},
    ),
    # or_1
    (
        "or_1",
        ("Pernelle Flamel", "Perenelle Flamel"),
        ("Élixir de longue vie", "Elixir of Life"),
        "continuous",
        [s("heal", target="all_allies", amount=2)],
        {},
    ),
    (
        "or_1",
        ("Taliesin", "Taliesin"),
        ("Chant du barde", "Bard's Song"),
        "on_place",
        [s("draw", count=2), s("extra_summon", count=1)],
        {},
    ),
    (
        "or_1",
        ("Gwydion", "Gwydion"),
        ("Illusion guerrière", "Warrior Illusion"),
        "on_place",
        [s("move", target="enemy", to="front"), s("damage", target="enemy", amount=3)],
        {},
    ),
    # or_2
    (
        "or_2",
        ("Baba Yaga", "Baba Yaga"),
        ("Isba sur pattes de poule", "Hut on Hen's Legs"),
        "on_place",
        [s("destroy", target="enemy")],
        {},
    ),
    (
        "or_2",
        ("Viviane", "Viviane"),
        ("Dame du Lac", "Lady of the Lake"),
        "on_place",
        [s("protect", target="all_allies", turns=1), s("heal", target="all_allies", amount=2)],
        {},
    ),
    (
        "or_2",
        ("Väinämöinen", "Vainamoinen"),
        ("Chant des origines", "Song of Origins"),
        "continuous",
        [s("damage", target="all_enemies", amount=1)],
        {"duration": 3},
    ),
]

PURE_EFFECTS: list[tuple[str, tuple[str, str], list[dict[str, Any]], dict[str, Any]]] = [
    ("bronze_1", ("Éclair de poche", "Pocket Lightning"), [s("damage", target="enemy", amount=2)], {}),
    ("bronze_1", ("Baume de guimauve", "Marshmallow Balm"), [s("heal", target="ally", amount=3)], {}),
    ("bronze_1", ("Coup de vent", "Gust of Wind"), [s("move", target="enemy", to="reserve")], {}),
    ("bronze_1", ("Pioche ensorcelée", "Bewitched Draw"), [s("draw", count=2)], {}),
    ("bronze_1", ("Bouclier de brume", "Mist Shield"), [s("protect", target="ally", turns=1)], {}),
    ("bronze_1", ("Croassement", "Croak"), [s("stun", target="enemy", turns=1)], {}),
    ("bronze_2", ("Chocogrenouille bondissante", "Leaping Chocofrog"), [s("extra_summon", count=1)], {}),
    ("bronze_2", ("Averse de grêle", "Hailstorm"), [s("damage", target="all_enemies", amount=1)], {}),
    ("bronze_2", ("Miroir du destin", "Mirror of Fate"), [s("redraw"), s("draw", count=1)], {}),
    ("bronze_2", ("Grimoire chapardé", "Pilfered Grimoire"), [s("discard", count=1)], {}),
    ("argent_1", ("Éveil du cimetière", "Graveyard Wake"), [s("recall", count=1)], {}),
    ("argent_1", ("Termites de bibliothèque", "Library Termites"), [s("mill", count=2)], {}),
    ("argent_1", ("Fortifiant", "Tonic"), [s("modify", target="ally", pa=2, pv=2, turns=2)], {}),
    (
        "argent_2",
        ("Aura de vigueur", "Aura of Vigour"),
        [s("heal", target="all_allies", amount=1)],
        {"stays": True, "duration": 3},
    ),
    (
        "argent_2",
        ("Marée d'ombre", "Shadow Tide"),
        [s("damage", target="enemy_front", amount=2), s("stun", target="enemy_front", turns=1)],
        {},
    ),
    ("or_1", ("Jugement de cendres", "Judgement of Ashes"), [s("destroy", target="enemy")], {}),
    (
        "or_1",
        ("Cercle de protection", "Protective Circle"),
        [s("protect", target="ally_reserve", turns=2), s("modify", target="ally_front", pv=2)],
        {},
    ),
    (
        "or_2",
        ("Grand Œuvre", "Magnum Opus"),
        [s("recall", count=2), s("heal", target="all_allies", amount=3)],
        {},
    ),
]

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
        fr, en = f"À la pose : {fr}.", f"On placement: {en}."
    elif trigger == "continuous":
        fr_end = f" (pendant {turns_fr(duration)})" if duration else ""
        en_end = f" (for {turns_en(duration)})" if duration else ""
        fr = f"Continu : à la pose puis à chaque fin de tour, {fr}{fr_end}."
        en = f"Continuous: on placement and at each end of turn, {en}{en_end}."
    elif extra.get("stays"):
        fr = f"Reste actif {turns_fr(duration)} : maintenant puis à chaque fin de tour, {fr}."
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
