"""The typed view of a ranked battle's public message: what the board shows at one round (both sides,
the round's notable events) and, on the battle's latest state, the call to decide or the result.

Built here, from the engine's log records and its seat-0 view, so that the renderer (`services/hoss/render/battle.py`)
and the cogs never read the engine's log keys. Only what the board is allowed to show gets in: the
player's hand, the piles' order and the seed have no field, so no message built from it can carry them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.hoss import ENGINE, HossState, HossView, SeatView
from services.hoss.arena.results import ArenaTag
from services.hoss.battle.battles import PLAYER, SEAT_PREFIX, BattleResult, only_moves

KEPT_VIEWS = 64  # the player's views kept by the state they were drawn from; all dropped beyond it
_views: dict[int, tuple[HossState, HossView]] = {}


def player_view(state: HossState) -> HossView:
    """`ENGINE.view(state, PLAYER)` (the battle restored from the state, then viewed), kept for the states
    last asked: a unit that saves a battle draws its board from the state it saved, and the next
    « Décider » reads that very object back (states are kept by their JSON, `MatchRules.kept_states`), so
    its controls find the view instead of restoring the battle again (issue 39). A view is a pure
    function of a frozen state: sharing it between the writer's thread and the loop is safe."""
    kept = _views.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    view = ENGINE.view(state, PLAYER)
    if len(_views) >= KEPT_VIEWS:  # plain dict operations (atomic), as the kept states
        _views.clear()
    _views[id(state)] = (state, view)
    return view


# The events the board shows (every event stays in the log).
NOTABLE_EVENTS = frozenset({"play", "place", "move", "evolve", "evolve_choice", "death", "revive"})


@dataclass(frozen=True)
class CreatureView:
    uid: str  # a1..a6 for the player, b1..b6 for the AI
    card: str  # catalog id of its current card
    hp: int  # hundredths of PV
    hp_max: int
    shield: int  # hundredths of PV
    statuses: tuple[str, ...]
    protege: str | None  # the uid a Défenseur protects
    defender: bool = False  # a Défenseur (it guards `protege`, or nobody yet)


@dataclass(frozen=True)
class SideView:
    creatures: tuple[CreatureView, ...]
    synergy: tuple[tuple[str, int], ...]  # (race, basis points), in the engine's order
    hand: int  # how many cards: the cards themselves are the player's secret
    pile: int


@dataclass(frozen=True)
class EventView:
    kind: str  # one of NOTABLE_EVENTS
    target: str  # the creature's uid
    card: str | None = None  # play: the card played
    protege: str | None = None  # place, move
    to: str | None = None  # evolve: the new card

    @property
    def mine(self) -> bool:
        """An event of the player's creature (else the AI's)."""
        return self.target.startswith(SEAT_PREFIX)


@dataclass(frozen=True)
class Board:
    """The battle message at one round: `final` when it is the battle as it is now (then `status`,
    `deadline`, `ai_decided` and `result` say what comes next), else an earlier round shown on the way."""

    battle_id: int
    rank: int
    owner: int  # the player: their buttons name them
    round: int
    sides: tuple[SideView, SideView]
    events: tuple[EventView, ...]
    names: Mapping[str, str]  # every creature met so far, uid -> its latest card (dead ones included)
    final: bool
    status: str  # 'live', 'won', 'lost' or 'draw'
    pause: int  # the pause the battle waits at (its buttons answer that pause)
    deadline: datetime | None  # when the AI decides for the player, while live
    ai_decided: bool  # the AI took the player's previous pause (its deadline passed)
    result: BattleResult | None
    arena: ArenaTag | None = None  # an Arena attack: whom it attacks (its title and « Abandonner »)
    between: bool = False  # the battle waits between two rounds, only for a possible Défenseur move

    @property
    def guards(self) -> bool:
        """The player has a Défenseur in play: the « Défenseur » button is on the message."""
        return self.status == "live" and any(c.defender for c in self.sides[PLAYER].creatures)


def side_of(data: Mapping[str, Any]) -> SideView:
    """A side from an engine log record (a round as it was stored)."""
    creatures = tuple(
        CreatureView(
            uid=str(c["uid"]),
            card=str(c["card"]),
            hp=int(c["hp"]),
            hp_max=int(c["hp_max"]),
            shield=int(c.get("shield") or 0),
            statuses=tuple(str(s) for s in c.get("statuses") or {}),
            protege=str(c["protege"]) if c.get("protege") else None,
            defender="protege" in c,
        )
        for c in data.get("creatures", [])
    )
    synergy = tuple((str(race), int(bp)) for race, bp in (data.get("synergy") or {}).items())
    return SideView(creatures, synergy, int(data["hand"]), int(data["pile"]))


def side_of_view(seat: SeatView) -> SideView:
    """A side from the engine's view now (the hand's cards, the player's own, are left out)."""
    creatures = tuple(
        CreatureView(
            uid=c.uid,
            card=c.card,
            hp=c.hp,
            hp_max=c.hp_max,
            shield=c.shield,
            statuses=tuple(name for name, _ in c.statuses),
            protege=c.protege,
            defender=c.defender,
        )
        for c in seat.creatures
    )
    return SideView(creatures, seat.synergy, seat.hand, seat.pile)


def events_of(record: Mapping[str, Any]) -> tuple[EventView, ...]:
    return tuple(
        EventView(
            kind=str(e["k"]),
            target=str(e.get("tgt", "")),
            card=str(e["card"]) if "card" in e else None,
            protege=str(e["protege"]) if "protege" in e else None,
            to=str(e["to"]) if "to" in e else None,
        )
        for e in record["events"]
        if e["k"] in NOTABLE_EVENTS
    )


def named(names: dict[str, str], record: Mapping[str, Any]) -> None:
    """Update `names` with the creatures a round brought in or evolved."""
    for event in record["events"]:
        if event["k"] == "play":
            names[str(event["tgt"])] = str(event["card"])
        elif event["k"] == "evolve":
            names[str(event["tgt"])] = str(event["to"])


@dataclass(frozen=True)
class Now:
    """The battle's latest state, as the service knows it after a unit."""

    battle_id: int
    rank: int
    owner: int
    round: int
    status: str
    pause: int
    deadline: datetime | None
    ai_decided: bool
    result: BattleResult | None
    seats: tuple[SeatView, SeatView]  # ENGINE.view(state, player).seats
    arena: ArenaTag | None = None


def boards(
    now: Now, earlier: Iterable[Mapping[str, Any]], records: Sequence[Mapping[str, Any]]
) -> list[Board]:
    """One board per record of `records` (the rounds a unit just played, in order), the last one the
    battle now; without records, the battle now alone. `earlier` are the battle's rounds before those,
    for the names of creatures that died since."""
    names: dict[str, str] = {}
    for record in earlier:
        named(names, record)
    if not records:
        return [_board(now, _now_sides(now), now.round, (), names, final=True)]
    shown = []
    for index, record in enumerate(records):
        named(names, record)
        if index == len(records) - 1:
            shown.append(_board(now, _now_sides(now), now.round, events_of(record), names, final=True))
        else:
            rnd = int(record["round"])
            sides = (side_of(record["sides"][PLAYER]), side_of(record["sides"][1 - PLAYER]))
            shown.append(_board(now, sides, rnd, events_of(record), names, final=False))
    return shown


def _now_sides(now: Now) -> tuple[SideView, SideView]:
    """The player's side, then the AI's."""
    return side_of_view(now.seats[PLAYER]), side_of_view(now.seats[1 - PLAYER])


def _board(
    now: Now,
    sides: tuple[SideView, SideView],
    round_number: int,
    events: tuple[EventView, ...],
    names: dict[str, str],
    *,
    final: bool,
) -> Board:
    return Board(
        battle_id=now.battle_id,
        rank=now.rank,
        owner=now.owner,
        round=round_number,
        sides=sides,
        events=events,
        names=dict(names),
        final=final,
        status=now.status,
        pause=now.pause,
        deadline=now.deadline,
        ai_decided=now.ai_decided,
        result=now.result,
        arena=now.arena,
        between=final and now.status == "live" and waits_between_rounds(now.seats),
    )


def waits_between_rounds(seats: Sequence[SeatView]) -> bool:
    """The player may only move a Défenseur or let the next round come (`battles.between_rounds`, read
    from the engine's view)."""
    return only_moves(seats[PLAYER].legal or ())
