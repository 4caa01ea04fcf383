"""A player's deck as `PlayerSetup.extra` carries it, validated against the catalog.

Shape (documented in docs/hoss/rules-notes.md)::

    extra = {
        "lines": [                       # exactly 6, one per creature line, at most 2 Défenseur lines
            {"copies": [                 # the copies owned of the line's cards (any ranks, any order)
                {"card": "orc_guerrier_1", "rarity": "or", "stars": 3, "holo": False},
                ...
            ]},
            ...
        ],
        "buffs": [                       # exactly 2 different buff cards
            {"card": "buff_soins", "rarity": "argent", "stars": 5, "holo": False},
            ...
        ],
    }

The line takes the best copy (highest bonus; the first listed on a tie) of each of its cards; a line
must own its Rang 1 and stops at the last rank owned. `PlayerSetup.deck`, when not empty, must list
exactly the card ids of `extra` (a card owned twice appears twice), so the two never disagree.
Validation happens here, at the edge; the battle trusts what it receives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.errors import DomainError
from engine.hoss.bonus import MAX_STARS
from engine.hoss.catalog import RARITIES, BuffCard, CreatureCard, HossCatalog
from engine.hoss.rules import STATUSES
from engine.hoss.state import BuffSpec, CardSpec, CopySpec, DeckSpec, LineSpec
from engine.protocol import PlayerSetup

LINES_PER_DECK = 6
BUFFS_PER_DECK = 2
MAX_DEFENDER_LINES = 2
COPY_KEYS = frozenset({"card", "rarity", "stars", "holo"})
T = TypeVar("T")


class HossSetupError(DomainError):
    """A deck or battle setup the rules refuse; `key` names what is wrong (hoss.error.setup.*)."""

    key = "hoss.error.setup"


def bp(value: float) -> int:
    """A catalog fraction (0.25) as basis points (2500)."""
    return round(value * 10000)


def card_spec(card: CreatureCard) -> CardSpec:
    chances = card.statuses
    return CardSpec(
        id=card.id,
        line=card.line,
        race=card.race,
        cls=card.cls,
        rank=card.rank,
        parent=card.parent,
        pv=card.pv,
        atk=card.atk,
        interval_ms=round(card.interval * 1000),
        crit_bp=bp(card.crit_chance),
        crit_damage_bp=bp(card.crit_damage),
        dodge_bp=bp(card.dodge_bonus),
        reduction_bp=bp(card.damage_reduction),
        block_bp=bp(card.block),
        statuses=tuple((s, bp(chances[s])) for s in STATUSES if s in chances and bp(chances[s]) > 0),
        elements=card.elements,
        heal_bp=bp(card.heal_chance),
        deflect_bp=bp(card.deflect_chance),
    )


def _copy(raw: Any, where: str) -> CopySpec:
    if not isinstance(raw, Mapping) or set(raw) != COPY_KEYS:
        raise HossSetupError("hoss.error.setup.copy", where=where)
    card, rarity, stars, holo = raw["card"], raw["rarity"], raw["stars"], raw["holo"]
    if not isinstance(card, str) or rarity not in RARITIES or not isinstance(holo, bool):
        raise HossSetupError("hoss.error.setup.copy", where=where)
    if isinstance(stars, bool) or not isinstance(stars, int) or not 0 <= stars <= MAX_STARS:
        raise HossSetupError("hoss.error.setup.copy", where=where)
    return CopySpec(card=card, rarity=rarity, stars=stars, holo=holo)


def _best(copies: Sequence[CopySpec]) -> list[CopySpec]:
    """The best copy of each card, in card-id order (the order paths are offered in)."""
    best: dict[str, CopySpec] = {}
    for copy in copies:
        kept = best.get(copy.card)
        if kept is None or copy.bonus_pm > kept.bonus_pm:
            best[copy.card] = copy
    return [best[card] for card in sorted(best)]


def _line(raw: Any, index: int, catalog: HossCatalog) -> tuple[LineSpec, bool]:
    where = f"lines[{index}]"
    if not isinstance(raw, Mapping) or set(raw) != {"copies"}:
        raise HossSetupError("hoss.error.setup.line", where=where)
    copies_raw = raw["copies"]
    if not isinstance(copies_raw, list | tuple) or not copies_raw:
        raise HossSetupError("hoss.error.setup.line", where=where)
    copies = [_copy(c, f"{where}.copies[{i}]") for i, c in enumerate(copies_raw)]
    cards: list[CreatureCard] = []
    for copy in copies:
        card = catalog.card(copy.card)
        if not isinstance(card, CreatureCard):
            raise HossSetupError("hoss.error.setup.unknown_card", card=copy.card, where=where)
        cards.append(card)
    line_id = cards[0].line
    if any(card.line != line_id for card in cards):
        raise HossSetupError("hoss.error.setup.mixed_line", line=line_id, where=where)
    by_id = {card.id: card for card in cards}
    best = _best(copies)
    firsts = [c for c in best if by_id[c.card].rank == 1]
    if not firsts:
        raise HossSetupError("hoss.error.setup.missing_rank1", line=line_id)
    seconds = [c for c in best if by_id[c.card].rank == 2]
    owned_seconds = {c.card for c in seconds}
    thirds = [c for c in best if by_id[c.card].rank == 3 and by_id[c.card].parent in owned_seconds]
    spec = LineSpec(line=line_id, r1=firsts[0], r2=tuple(seconds), r3=tuple(thirds))
    return spec, by_id[firsts[0].card].cls == "defenseur"


def _buff(raw: Any, index: int, catalog: HossCatalog) -> BuffSpec:
    copy = _copy(raw, f"buffs[{index}]")
    card = catalog.card(copy.card)
    if not isinstance(card, BuffCard):
        raise HossSetupError("hoss.error.setup.unknown_card", card=copy.card, where=f"buffs[{index}]")
    return BuffSpec(
        card=card.id,
        effect=card.effect,
        power_bp=bp(card.power),
        rarity=copy.rarity,
        stars=copy.stars,
        holo=copy.holo,
    )


class KnownCopies:
    """Lines and buffs of decks already validated against one catalog, by their exact text (`repr`, which
    tells 1 from 1.0 and True): a line or buff met again is taken as validated then, its frozen specs
    shared, while the deck's own checks (counts, duplicates, Défenseurs, `deck`) run every time. The AI's
    decks are drawn from few enough copies that most of their lines and buffs were met before (issue 39).
    Holds at most `limit` of each; all are dropped beyond it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.lines: dict[str, tuple[LineSpec, bool]] = {}
        self.buffs: dict[str, BuffSpec] = {}


def _checked(
    read: Callable[[Any, int, HossCatalog], T],
    raw: Any,
    index: int,
    catalog: HossCatalog,
    kept: dict[str, T] | None,
    limit: int,
) -> T:
    """`read(raw, index, catalog)` (its validation), or what it gave for the same text before (`kept`,
    None: nothing kept)."""
    if kept is None:
        return read(raw, index, catalog)
    text = repr(raw)
    found = kept.get(text)
    if found is None:
        found = read(raw, index, catalog)
        if len(kept) >= limit:
            kept.clear()
        kept[text] = found
    return found


def parse_setup(setup: PlayerSetup, catalog: HossCatalog, known: KnownCopies | None = None) -> DeckSpec:
    """The validated deck of one player; raises `HossSetupError` naming the problem. `known`: the lines
    and buffs already validated against `catalog`, kept across calls (`KnownCopies`)."""
    extra = setup.extra
    if not isinstance(extra, Mapping) or set(extra) != {"lines", "buffs"}:
        raise HossSetupError("hoss.error.setup.shape")
    lines_raw, buffs_raw = extra["lines"], extra["buffs"]
    if not isinstance(lines_raw, list | tuple) or len(lines_raw) != LINES_PER_DECK:
        raise HossSetupError("hoss.error.setup.line_count", expected=LINES_PER_DECK)
    if not isinstance(buffs_raw, list | tuple) or len(buffs_raw) != BUFFS_PER_DECK:
        raise HossSetupError("hoss.error.setup.buff_count", expected=BUFFS_PER_DECK)
    lines_kept, buffs_kept = (None, None) if known is None else (known.lines, known.buffs)
    limit = 0 if known is None else known.limit
    parsed = [_checked(_line, raw, i, catalog, lines_kept, limit) for i, raw in enumerate(lines_raw)]
    lines = tuple(spec for spec, _ in parsed)
    if len({spec.line for spec in lines}) != len(lines):
        raise HossSetupError("hoss.error.setup.duplicate_line")
    if sum(1 for _, is_defender in parsed if is_defender) > MAX_DEFENDER_LINES:
        raise HossSetupError("hoss.error.setup.too_many_defenders", maximum=MAX_DEFENDER_LINES)
    buffs = tuple(_checked(_buff, raw, i, catalog, buffs_kept, limit) for i, raw in enumerate(buffs_raw))
    if len({b.card for b in buffs}) != len(buffs):
        raise HossSetupError("hoss.error.setup.duplicate_buff")
    if setup.deck:
        listed = [c["card"] for line in lines_raw for c in line["copies"]] + [b["card"] for b in buffs_raw]
        if sorted(setup.deck) != sorted(listed):
            raise HossSetupError("hoss.error.setup.deck_mismatch")
    return DeckSpec(player_id=setup.player_id, lines=lines, buffs=buffs)


def deck_cards(
    decks: Sequence[DeckSpec], catalog: HossCatalog, known: dict[str, CardSpec] | None = None
) -> tuple[CardSpec, ...]:
    """The creature cards both decks can field, copied out of the catalog, in id order; `known` keeps
    the copies already made from this catalog (they are frozen: a copy serves every battle)."""
    ids = {c.card for deck in decks for line in deck.lines for c in (line.r1, *line.r2, *line.r3)}
    known = {} if known is None else known
    specs = []
    for card_id in sorted(ids):
        spec = known.get(card_id)
        if spec is None:
            card = catalog.card(card_id)
            assert isinstance(card, CreatureCard)
            spec = known[card_id] = card_spec(card)
        specs.append(spec)
    return tuple(specs)


def setup_extra(lines: Sequence[Sequence[CopySpec]], buffs: Sequence[CopySpec]) -> dict[str, Any]:
    """The `PlayerSetup.extra` for these copies: the inverse of `parse_setup`, for tests and tools."""

    def raw(copy: CopySpec) -> dict[str, Any]:
        return {"card": copy.card, "rarity": copy.rarity, "stars": copy.stars, "holo": copy.holo}

    return {
        "lines": [{"copies": [raw(c) for c in line]} for line in lines],
        "buffs": [raw(b) for b in buffs],
    }


__all__ = [
    "HossSetupError",
    "KnownCopies",
    "card_spec",
    "deck_cards",
    "parse_setup",
    "setup_extra",
]
