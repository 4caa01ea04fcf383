"""A small built-in catalog and random decks: for tests and benchmarks that pass it as their catalog.

The real cards are in data/hoss.json (validated by `catalog.HossCatalog`); this one only has to cover
every rule: the four races, the seven classes, the four elements, every status a card can carry,
two-path lines, Sylvestre heal and deflect, Défenseurs, and the twelve buffs. Its numbers follow the
shape of docs/hoss/balance.md (Rang 1 ~100 PV / ATK 14 / 2 s) without its budget.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import LocalizedText
from engine.hoss.catalog import (
    RARITIES,
    BuffCard,
    BuffEffect,
    CreatureCard,
    CreatureClass,
    Element,
    HossCatalog,
    Race,
    Rarity,
    Status,
)
from engine.hoss.deck import BUFFS_PER_DECK, LINES_PER_DECK, MAX_DEFENDER_LINES, setup_extra
from engine.hoss.state import CopySpec
from engine.protocol import PlayerSetup

# line id, race, class, R1 (pv, atk, interval), extras, {path suffix: (extra elements, extra statuses)}
_Extras = dict[str, Any]
_LINES: tuple[tuple[str, Race, CreatureClass, tuple[int, int, float], _Extras, dict[str, _Extras]], ...] = (
    (
        "hum_guerrier",
        "humain",
        "guerrier",
        (106, 14, 2.0),
        {"statuses": {"bris": 0.15}, "crit_chance": 0.06},
        {},
    ),
    (
        "orc_guerrier",
        "orc",
        "guerrier",
        (110, 17, 2.4),
        {"statuses": {"saignement": 0.18}},
        {"a": {}, "b": {"elements": ("feu",), "statuses": {"saignement": 0.12, "embrasement": 0.15}}},
    ),
    ("orc_cavalier", "orc", "cavalier", (140, 15, 2.8), {"statuses": {"saignement": 0.2}}, {}),
    ("sq_lancier", "squelette", "lancier", (88, 18, 2.6), {"crit_chance": 0.09, "crit_damage": 0.2}, {}),
    (
        "sq_assassin",
        "squelette",
        "assassin",
        (62, 13, 1.5),
        {"crit_chance": 0.26, "crit_damage": 0.5, "dodge_bonus": 0.1},
        {"a": {"crit_chance": 0.34}, "b": {"elements": ("poison",), "statuses": {"poison": 0.14}}},
    ),
    (
        "sq_archer",
        "squelette",
        "archer",
        (78, 9, 1.1),
        {"elements": ("glace",), "statuses": {"gel": 0.1}},
        {},
    ),
    (
        "syl_guerrier",
        "sylvestre",
        "guerrier",
        (100, 12, 1.6),
        {"heal_chance": 0.15, "deflect_chance": 0.08},
        {},
    ),
    (
        "syl_archer",
        "sylvestre",
        "archer",
        (80, 8, 0.9),
        {"heal_chance": 0.1, "elements": ("poison",), "statuses": {"poison": 0.08}},
        {},
    ),
    ("hum_mage", "humain", "mage", (86, 16, 2.3), {"elements": ("foudre",), "statuses": {"choc": 0.22}}, {}),
    ("orc_mage", "orc", "mage", (88, 19, 2.8), {"elements": ("feu",), "statuses": {"embrasement": 0.22}}, {}),
    (
        "syl_defenseur",
        "sylvestre",
        "defenseur",
        (205, 0, 5.0),
        {"damage_reduction": 0.2, "block": 0.25, "deflect_chance": 0.2, "heal_chance": 0.1},
        {},
    ),
    (
        "hum_defenseur",
        "humain",
        "defenseur",
        (210, 0, 5.0),
        {"damage_reduction": 0.25, "block": 0.22},
        {"a": {}, "b": {"elements": ("foudre",)}},
    ),
)

_BUFFS: tuple[tuple[BuffEffect, float], ...] = (
    ("soins", 0.05),
    ("vitesse", 0.2),
    ("degat", 0.1),
    ("pv", 0.1),
    ("chance_crit", 0.1),
    ("degat_crit", 0.4),
    ("marqueur", 0.08),
    ("marqueur_double", 0.25),
    ("marqueur_aleatoire", 0.1),
    ("revive", 0.15),
    ("shield", 0.05),
    ("confusion", 0.05),
)

_RANK_SCALE = {1: 1.0, 2: 1.6, 3: 2.4}
_RANK_INTERVAL = {1: 1.0, 2: 0.95, 3: 0.9}


def _card(
    line: str,
    race: Race,
    cls: CreatureClass,
    rank: int,
    suffix: str,
    base: tuple[int, int, float],
    extras: _Extras,
) -> CreatureCard:
    pv, atk, interval = base
    scale = _RANK_SCALE[rank]
    card_id = f"{line}_{rank}{suffix}"
    parent = None if rank == 1 else f"{line}_{rank - 1}{suffix if rank == 3 else ''}"
    statuses: dict[Status, float] = dict(extras.get("statuses", {}))
    elements: tuple[Element, ...] = tuple(extras.get("elements", ()))
    fields: dict[str, Any] = {k: v for k, v in extras.items() if k not in ("statuses", "elements")}
    if cls == "defenseur":
        fields["damage_reduction"] = min(0.6, fields.get("damage_reduction", 0.0) + 0.04 * (rank - 1))
        fields["block"] = min(0.6, fields.get("block", 0.0) + 0.04 * (rank - 1))
    return CreatureCard(
        id=card_id,
        name=LocalizedText(fr=card_id, en=card_id),
        line=line,
        race=race,
        cls=cls,
        rank=rank,
        parent=parent,
        pv=round(pv * scale),
        atk=round(atk * scale),
        interval=interval if cls == "defenseur" else round(interval * _RANK_INTERVAL[rank], 2),
        statuses=statuses,
        elements=elements,
        **fields,
    )


def _build() -> HossCatalog:
    cards: list[CreatureCard | BuffCard] = []
    for line, race, cls, base, extras, paths in _LINES:
        cards.append(_card(line, race, cls, 1, "", base, extras))
        for suffix, tweak in (paths or {"a": {}}).items():
            merged = {**extras, **tweak}
            if "elements" in tweak:
                merged["statuses"] = {**extras.get("statuses", {}), **tweak.get("statuses", {})}
            cards.append(_card(line, race, cls, 2, suffix, base, merged))
            cards.append(_card(line, race, cls, 3, suffix, base, merged))
    for effect, power in _BUFFS:
        buff_id = f"buff_{effect}"
        cards.append(
            BuffCard(id=buff_id, name=LocalizedText(fr=buff_id, en=buff_id), effect=effect, power=power)
        )
    return HossCatalog(game="hoss", version=1, cards=tuple(cards))


SAMPLE_CATALOG = _build()


def lines_of(catalog: HossCatalog) -> dict[str, list[CreatureCard]]:
    """Each line's cards, ranks in order, lines in id order."""
    lines: dict[str, list[CreatureCard]] = {}
    for card in catalog.cards:
        if isinstance(card, CreatureCard):
            lines.setdefault(card.line, []).append(card)
    return {line: sorted(cards, key=lambda c: (c.rank, c.id)) for line, cards in sorted(lines.items())}


def buffs_of(catalog: HossCatalog) -> list[BuffCard]:
    return sorted((c for c in catalog.cards if isinstance(c, BuffCard)), key=lambda c: c.id)


def full_deck(
    catalog: HossCatalog, lines: Sequence[str], buffs: Sequence[str], rarity: Rarity = "divin", stars: int = 5
) -> dict[str, Any]:
    """`PlayerSetup.extra` owning every card of `lines` at one rarity: e.g. six Maître lines, Divin 5★."""
    by_line = lines_of(catalog)
    copy_lines = [[CopySpec(card=c.id, rarity=rarity, stars=stars) for c in by_line[line]] for line in lines]
    copy_buffs = [CopySpec(card=b, rarity=rarity, stars=stars) for b in buffs]
    return setup_extra(copy_lines, copy_buffs)


def random_copy(rng: random.Random, card: str) -> CopySpec:
    roll = rng.random()
    rarity = RARITIES[0] if roll < 0.3 else RARITIES[int(rng.random() * len(RARITIES))]
    return CopySpec(card=card, rarity=rarity, stars=int(rng.random() * 6), holo=rng.random() < 0.05)


def random_extra(rng: random.Random, catalog: HossCatalog) -> dict[str, Any]:
    """A valid random deck: 6 distinct lines (at most 2 Défenseurs), ranks sometimes missing, random
    rarities, stars and holo (Basique 0★ included), sometimes two copies of a card, 2 distinct buffs."""
    by_line = lines_of(catalog)
    defenders = [line for line, cards in by_line.items() if cards[0].cls == "defenseur"]
    attackers = [line for line in by_line if line not in defenders]
    n_def = min(len(defenders), int(rng.random() * (MAX_DEFENDER_LINES + 1)))
    chosen = rng.sample(defenders, n_def) + rng.sample(attackers, LINES_PER_DECK - n_def)
    rng.shuffle(chosen)
    lines = []
    for line in chosen:
        copies = []
        for card in by_line[line]:
            if card.rank == 1 or rng.random() < 0.8:
                copies.append(random_copy(rng, card.id))
                if rng.random() < 0.15:
                    copies.append(random_copy(rng, card.id))
        lines.append(copies)
    buffs = [random_copy(rng, b.id) for b in rng.sample(buffs_of(catalog), BUFFS_PER_DECK)]
    return setup_extra(lines, buffs)


def random_setup(rng: random.Random, catalog: HossCatalog, seat: int) -> PlayerSetup:
    extra = random_extra(rng, catalog)
    deck = tuple(c["card"] for line in extra["lines"] for c in line["copies"]) + tuple(
        b["card"] for b in extra["buffs"]
    )
    return PlayerSetup(seat=seat, player_id=rng.randrange(1, 10**12), deck=deck, extra=extra)
