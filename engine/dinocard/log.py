"""Reading the battle log: each compact event (`codes.py`) as one or two `Event`s with named fields.

An event's `data` names cards by instance id ("a12": seat 0's 13th card, "b0": seat 1's first; see
`instance_id`) and catalog id (`card_id`), seats by number and rail places by `slot` (0 is the left).
Everything here is public but the card of a new egg: `egg` says where an egg was laid, and `egg_card`,
visible to its owner only, which dinoz it is. An egg is named by its slot until it hatches or dies.
Renderers look up `dinocard.event.<kind>`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.dinocard import codes as c
from engine.dinocard.catalog import ELEMENTS
from engine.protocol import Event

SEAT_PREFIX = "ab"

# Per code: the event's kind and the names of the fields after the code. "card" and "source" are
# instance indexes (-1: an egg or no card) of the seat in "seat" (of "source_seat" for "source").
LAYOUT: dict[int, tuple[str, tuple[str, ...]]] = {
    c.TURN: ("turn", ("seat", "phase")),
    c.MARKERS: ("markers", ("seat", "eggs", "markers")),
    c.POISON: ("poison_wound", ("seat", "slot", "card", "amount")),
    c.GROWTH: ("growth", ("seat", "slot", "card", "amount")),
    c.HEAL_PLAYER: ("heal_player", ("seat", "amount", "source")),
    c.HIT_PLAYER: ("hit_player", ("seat", "amount", "source_seat", "source")),
    c.ENERGY: ("energy", ("seat", "card", "reason")),
    c.EGG: ("egg", ("seat", "slot", "card")),
    c.GRAVEYARD: ("graveyard", ("seat", "card", "reason")),
    c.CAST: ("cast", ("seat", "card")),
    c.OBJECT: ("object", ("seat", "card")),
    c.ENCHANT: ("enchant", ("seat", "card", "target_seat", "slot")),
    c.ARC: ("arc", ("seat", "element")),
    c.HIT_DINOZ: ("hit_dinoz", ("seat", "slot", "card", "amount", "source_seat", "source")),
    c.HEAL_DINOZ: ("heal_dinoz", ("seat", "slot", "card", "amount")),
    c.OBJECT_DESTROYED: ("object_destroyed", ("seat", "card")),
    c.DIED: ("died", ("seat", "slot", "card")),
    c.SHIFT: ("shift", ("seat",)),
    c.HATCH: ("hatch", ("seat", "slot", "card")),
    c.REGEN: ("regenerate", ("seat", "slot", "card", "amount")),
    c.COMBAT: ("combat", ("phase",)),
    c.ATTACK: ("attack", ("seat", "slot", "card", "target_slot", "amount")),
    c.POISONED: ("poisoned", ("seat", "slot", "card", "amount")),
    c.COUNTDOWN: ("countdown", ("phases",)),
    c.ROUND: ("round", ("round",)),
    c.END: ("ended", ("winner", "reason", "life_a", "life_b")),
}
ENERGY_REASONS = {c.UNPAID: "unpaid", c.NO_TARGET: "no_target", c.FED: "fed"}
GRAVE_REASONS = {c.RAIL_FULL: "rail_full", c.RESOLVED: "resolved"}

Decks = Sequence[Sequence[str]]


def instance_id(seat: int, inst: int) -> str:
    return f"{SEAT_PREFIX[seat]}{inst}"


def card_refs(event: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """(seat, instance) of every card a public event names: what it reveals to everyone."""
    if event[0] in (c.EGG, c.BOARD):
        return
    names = LAYOUT[event[0]][1]
    fields = dict(zip(names, event[1:], strict=True))
    if fields.get("card", -1) >= 0:
        yield fields["seat"], fields["card"]
    if fields.get("source", -1) >= 0:
        yield fields.get("source_seat", fields["seat"]), fields["source"]


def public_at(
    log: Sequence[Sequence[tuple[int, ...]]], sizes: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat and card instance, the first step whose public events name it (`len(log)` if none): the
    state's `public_at`. Here, compiled with the log's reading: a battle's 250-odd events are walked at
    every launch, three times slower interpreted."""
    first = [[len(log)] * n for n in sizes]
    for index, step in enumerate(log):
        for event in step:
            for seat, inst in card_refs(event):
                if first[seat][inst] > index:
                    first[seat][inst] = index
    return tuple(first[0]), tuple(first[1])


def to_events(event: tuple[int, ...], decks: Decks) -> list[Event]:
    """The `Event`s of one log event (two for an egg: the public place and the owner's card)."""
    if event[0] == c.BOARD:
        return [Event("board", board_data(event, decks, viewer=None))]
    kind, names = LAYOUT[event[0]]
    fields = dict(zip(names, event[1:], strict=True))
    data: dict[str, Any] = {}
    for name, value in fields.items():
        if name in ("card", "source"):
            seat = fields.get("source_seat", fields["seat"]) if name == "source" else fields["seat"]
            _name_card(data, name, seat, value, decks)
        else:
            data[name] = value
    if event[0] == c.EGG:
        card = {k: data.pop(k) for k in ("card", "card_id")}
        return [Event("egg", data), Event("egg_card", {**data, **card}, visible_to=frozenset({data["seat"]}))]
    _readable(event[0], data)
    return [Event(kind, data)]


def _name_card(data: dict[str, Any], name: str, seat: int, inst: int, decks: Decks) -> None:
    if inst < 0:
        data[name] = None
        return
    data[name] = instance_id(seat, inst)
    data[f"{name}_id"] = decks[seat][inst]


def _readable(code: int, data: dict[str, Any]) -> None:
    """Words rather than numbers where a renderer picks a message by them."""
    if code == c.ENERGY:
        data["reason"] = ENERGY_REASONS[data["reason"]]
    elif code == c.GRAVEYARD:
        data["reason"] = GRAVE_REASONS[data["reason"]]
    elif code == c.ARC:
        data["element"] = ELEMENTS[data["element"]]
    elif code == c.ATTACK and data["target_slot"] < 0:
        data["target_slot"] = None  # the player
    elif code == c.END:
        data["winner"] = None if data["winner"] < 0 else data["winner"]
        data["reason"] = c.END_REASONS[data["reason"]]
        data["life"] = [data.pop("life_a"), data.pop("life_b")]


def board_data(board: Sequence[int], decks: Decks, viewer: int | None) -> dict[str, Any]:
    """A BOARD event as data; an egg's card is shown only to its owner (`viewer`), never in the event."""
    life, left, grave = board[1:3], board[3:5], board[5:7]
    energy = [dict(zip(ELEMENTS, board[7 + 5 * s : 12 + 5 * s], strict=True)) for s in (0, 1)]
    rails: list[list[dict[str, Any] | None]] = [[], []]
    at = 17
    for seat in (0, 1):
        for _ in range(c.RAIL_SIZE):
            values = dict(zip(c.SLOT_FIELDS, board[at : at + len(c.SLOT_FIELDS)], strict=True))
            at += len(c.SLOT_FIELDS)
            rails[seat].append(_slot(seat, values, decks, viewer))
    objects: list[list[dict[str, str]]] = [[], []]
    for seat in (0, 1):
        count = board[at]
        objects[seat] = [
            {"card": instance_id(seat, i), "card_id": decks[seat][i]} for i in board[at + 1 : at + 1 + count]
        ]
        at += 1 + count
    return {
        "life": list(life),
        "pile": list(left),
        "graveyard": list(grave),
        "energy": energy,
        "rails": rails,
        "objects": objects,
    }


def _slot(seat: int, values: dict[str, int], decks: Decks, viewer: int | None) -> dict[str, Any] | None:
    inst = values.pop("card")
    if inst < 0:
        return None
    shown: dict[str, Any] = {"hatched": bool(values["hatched"])}
    if values["hatched"]:
        shown.update(values)
        shown["hatched"] = True
    else:
        shown.update(markers=values["markers"], damage=values["damage"], poisoned=values["poisoned"])
    if values["hatched"] or viewer == seat:
        shown["card"] = instance_id(seat, inst)
        shown["card_id"] = decks[seat][inst]
    return shown
