"""Small catalogs built in Python and an "arena" that puts chosen creatures in play, for rule tests.

Tests never read data/hoss.json: every card a test needs is made here with exactly the numbers the test
wants. `arena` builds a `Battle` with creatures already in play (no pauses), a seeded random stream, and
the current round's window set, so a test can call one hit, one round, or one end of round directly.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import LocalizedText
from engine.hoss import fighters, flow
from engine.hoss.battle import Battle
from engine.hoss.catalog import BUFF_EFFECTS, BuffCard, BuffEffect, CreatureCard, HossCatalog, Rarity
from engine.hoss.deck import card_spec
from engine.hoss.fighters import Fighter, uid_of
from engine.hoss.rules import ROUND_MS
from engine.hoss.state import BuffSpec, CopySpec, DeckSpec, LineSpec
from engine.hoss.statuses import clear
from engine.rng import RngState

ALWAYS_MISS = 0.999999  # a random draw above every chance the tests use: no dodge, crit, block, status


def creature(
    card_id: str,
    race: str = "humain",
    cls: str = "guerrier",
    *,
    rank: int = 1,
    parent: str | None = None,
    line: str | None = None,
    pv: int = 100,
    atk: int = 10,
    interval: float = 2.0,
    **fields: Any,
) -> CreatureCard:
    if cls == "defenseur":
        atk = 0
    return CreatureCard(
        id=card_id,
        name=LocalizedText(fr=card_id, en=card_id),
        line=line or card_id.rsplit("_", 1)[0],
        race=race,
        cls=cls,
        rank=rank,
        parent=parent,
        pv=pv,
        atk=atk,
        interval=interval,
        **fields,
    )


def buff(effect: BuffEffect, power: float) -> BuffCard:
    return BuffCard(id=f"buff_{effect}", name=LocalizedText(fr=effect, en=effect), effect=effect, power=power)


def catalog(*cards: CreatureCard | BuffCard) -> HossCatalog:
    return HossCatalog(game="hoss", version=1, cards=tuple(cards))


@dataclass
class Unit:
    """A line put in the arena: its Rang 1 card (in play) and the copies of its later ranks."""

    card: CreatureCard
    rarity: Rarity = "basique"
    stars: int = 0
    holo: bool = False
    later: Sequence[tuple[CreatureCard, Rarity, int]] = field(default_factory=tuple)


def _unit(item: CreatureCard | Unit) -> Unit:
    return item if isinstance(item, Unit) else Unit(item)


def _deck(units: Sequence[Unit], buffs: Iterable[tuple[BuffCard, Rarity, int]]) -> DeckSpec:
    lines = []
    for unit in units:
        r1 = CopySpec(card=unit.card.id, rarity=unit.rarity, stars=unit.stars, holo=unit.holo)
        r2 = tuple(CopySpec(card=c.id, rarity=r, stars=s) for c, r, s in unit.later if c.rank == 2)
        r3 = tuple(CopySpec(card=c.id, rarity=r, stars=s) for c, r, s in unit.later if c.rank == 3)
        lines.append(LineSpec(line=unit.card.line, r1=r1, r2=r2, r3=r3))
    buff_specs = tuple(
        BuffSpec(card=b.id, effect=b.effect, power_bp=round(b.power * 10000), rarity=r, stars=s)
        for b, r, s in buffs
    )
    return DeckSpec(player_id=1, lines=tuple(lines), buffs=buff_specs)


def arena(
    side_a: Sequence[CreatureCard | Unit],
    side_b: Sequence[CreatureCard | Unit],
    *,
    buffs_a: Iterable[tuple[BuffCard, Rarity, int]] = (),
    buffs_b: Iterable[tuple[BuffCard, Rarity, int]] = (),
    hand_a: Sequence[CreatureCard | Unit] = (),
    seed: int = 0,
    log: bool = True,
) -> Battle:
    """Both sides' creatures in play in the given order (uids a1.., b1..), round 1 about to be fought;
    `hand_a` lines are in seat 0's hand (uids after its creatures)."""
    units = ([_unit(u) for u in (*side_a, *hand_a)], [_unit(u) for u in side_b])
    all_cards = [c for side in units for u in side for c in (u.card, *(x[0] for x in u.later))]
    cards = {c.id: card_spec(c) for c in all_cards}
    decks = (_deck(units[0], buffs_a), _deck(units[1], buffs_b))
    b = Battle(decks, cards, RngState(seed=seed), log=log)
    for side, side_units in zip(b.sides, units, strict=True):
        in_play = len(side_a) if side.seat == 0 else len(side_units)
        for index, unit in enumerate(side_units):
            uid = uid_of(side.seat, index)
            side.hand.append(uid)
            if index >= in_play:
                continue
            attackers = [f.uid for f in side.fighters if not f.is_def]
            protege = attackers[0] if unit.card.cls == "defenseur" and attackers else None
            flow.put_in_play(b, side, uid, protege)
        # Only the hand is left to play: with nothing there, the last attacker's death ends the battle.
        side.attacker_cards = sum(1 for uid in side.hand if not side.is_defender_card(uid))
    for f in b.fighters():
        f.refresh()
    b.rnd = random.Random(seed).random
    b.entries = [] if log else None
    b.round_start, b.round_end = 0, ROUND_MS
    return b


def scripted(*values: float) -> Callable[[], float]:
    """A random stream that returns these values, then ALWAYS_MISS forever."""
    queue = list(values)

    def draw() -> float:
        return queue.pop(0) if queue else ALWAYS_MISS

    return draw


def hold(b: Battle, *uids: str) -> None:
    """Stop these creatures' attacks (no hit at all), for tests of what happens to or around them: a 5 s
    cycle never hits, since every round restarts it (until the stats are next computed)."""
    for uid in uids:
        f = get(b, uid)
        f.interval = ROUND_MS
        f.attack_at = -1


def get(b: Battle, uid: str) -> Fighter:
    return next(f for f in (*b.sides[0].fighters, *b.sides[1].fighters) if f.uid == uid)


def heal_fully(f: Fighter) -> None:
    """Back to full PV without statuses, for repeated trials against one target."""
    f.damage = 0
    f.shield = 0
    clear(f)


def entries(b: Battle, kind: str) -> list[dict[str, Any]]:
    assert b.entries is not None
    return [e for e in b.entries if e["k"] == kind]


def within(observed: int, trials: int, p: float, sigmas: float = 4.5) -> bool:
    """`observed` successes out of `trials` agree with probability `p` (binomial, ±4.5 σ)."""
    sd = (trials * p * (1 - p)) ** 0.5
    return bool(abs(observed - trials * p) <= sigmas * max(sd, 1.0))


def hits(
    b: Battle, attacker: str, trials: int, target: str | None = None, t: int = 1000
) -> list[dict[str, Any]]:
    """The log entries of `trials` hits by `attacker` (chosen by the rules, or forced on `target`); every
    creature is healed between two hits so nobody dies and statuses do not pile up."""
    from engine.hoss.damage import attack, strike

    a = get(b, attacker)
    forced = get(b, target) if target is not None else None
    found: list[dict[str, Any]] = []
    for _ in range(trials):
        b.entries = []
        if forced is None:
            attack(b, a, t)
        else:
            strike(b, a, forced, forced, t)
        found += [e for e in b.entries if e["k"] == "hit"]
        for f in b.fighters():
            heal_fully(f)
    return found


def _line_cards(
    line: str, race: str, cls: str, pv: int, atk: int, interval: float, paths: str = "a"
) -> list[CreatureCard]:
    cards = [creature(f"{line}_1", race, cls, line=line, pv=pv, atk=atk, interval=interval)]
    for path in paths:
        cards.append(
            creature(
                f"{line}_2{path}",
                race,
                cls,
                rank=2,
                parent=f"{line}_1",
                line=line,
                pv=pv * 16 // 10,
                atk=atk * 16 // 10,
                interval=interval,
            )
        )
        cards.append(
            creature(
                f"{line}_3{path}",
                race,
                cls,
                rank=3,
                parent=f"{line}_2{path}",
                line=line,
                pv=pv * 24 // 10,
                atk=atk * 24 // 10,
                interval=interval,
            )
        )
    return cards


def deck_catalog() -> HossCatalog:
    """Nine lines (one with two paths, three Défenseurs) and the twelve buffs: enough for any deck rule."""
    cards: list[CreatureCard | BuffCard] = [
        *_line_cards("hg", "humain", "guerrier", 105, 14, 2.0),
        *_line_cards("oc", "orc", "cavalier", 140, 15, 2.6, paths="ab"),
        *_line_cards("sa", "squelette", "archer", 80, 9, 1.1),
        *_line_cards("sm", "sylvestre", "mage", 85, 16, 2.3),
        *_line_cards("ol", "orc", "lancier", 90, 18, 2.6),
        *_line_cards("ha", "humain", "assassin", 62, 13, 1.5),
        *_line_cards("sd", "sylvestre", "defenseur", 200, 0, 5.0),
        *_line_cards("hd", "humain", "defenseur", 210, 0, 5.0),
        *_line_cards("xd", "squelette", "defenseur", 190, 0, 5.0),
    ]
    cards += [buff(effect, 0.1) for effect in BUFF_EFFECTS]
    return catalog(*cards)


def player(
    seat: int,
    lines: Sequence[str],
    buffs: Sequence[str] = ("buff_soins", "buff_pv"),
    rarity: Rarity = "or",
    stars: int = 3,
) -> Any:
    """A `PlayerSetup` owning every card of `lines` at one rarity."""
    from engine.hoss.sample import full_deck
    from engine.protocol import PlayerSetup

    extra = full_deck(deck_catalog(), lines, buffs, rarity, stars)
    return PlayerSetup(seat=seat, player_id=100 + seat, extra=extra)


DECK_A = ("hg", "oc", "sa", "sm", "ol", "sd")
DECK_B = ("ha", "ol", "sm", "hg", "hd", "sa")


def slots_of(cls: type) -> tuple[str, ...]:
    """The `__slots__` of one of engine/hoss/fighters.py's classes, read from its source: a class compiled
    by mypyc (core/native.py) has no `__slots__` attribute."""
    source = Path(fighters.__file__ or "").parent / "fighters.py"
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.Assign) and getattr(item.targets[0], "id", None) == "__slots__":
                    return tuple(ast.literal_eval(item.value))
    raise LookupError(cls.__name__)
