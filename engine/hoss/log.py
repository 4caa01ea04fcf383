"""The battle log's round summaries and creature snapshots (also used by the views).

A log is a list of round records, each `{"round": n, "events": [...], "sides": [...]}`: the events of the
round in time order (decisions applied at its start at t=0, hits, statuses, ticks, deaths, then the
end-of-round steps at t=5000), and each side's state once the round is over. Every value is JSON-able
(lists, not tuples) so a record can travel as an `Event` unchanged. The full format is in
docs/hoss/rules-notes.md. Logging is off unless asked for; every log line is guarded by one
`if entries is not None`, so a bulk simulation pays nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.hoss.catalog import RACES
from engine.hoss.fighters import Fighter, Side

if TYPE_CHECKING:
    from engine.hoss.battle import Battle


def statuses_of(f: Fighter, now: int) -> dict[str, Any]:
    """Active markers: stack totals (centi-PV for ticks, bp for Bris and Gel), Choc's remaining ms."""
    found: dict[str, Any] = {}
    if f.poison:
        found["poison"] = f.poison
    if f.bleed:
        found["saignement"] = f.bleed
    if f.burn:
        found["embrasement"] = f.burn
    if f.bris_bp:
        found["bris"] = f.bris_bp
    if f.gel_bp:
        found["gel"] = f.gel_bp
    if f.shock_until > now:
        found["choc"] = f.shock_until - now
    if f.confused:
        found["confusion"] = True
    return found


def snapshot(f: Fighter, now: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "uid": f.uid,
        "card": f.card.id,
        "rank": f.card.rank,
        "hp": max(0, f.hp),
        "hp_max": f.max_hp,
    }
    if f.shield:
        data["shield"] = f.shield
    if f.is_def:
        data["protege"] = f.protege.uid if f.protege is not None else None
    markers = statuses_of(f, now)
    if markers:
        data["statuses"] = markers
    if f.revived:
        data["revived"] = True
    if f.path_options:
        data["evolving"] = list(f.path_options)
    return data


def side_summary(side: Side, now: int) -> dict[str, Any]:
    return {
        "seat": side.seat,
        "hand": len(side.hand),
        "pile": len(side.pile),
        "synergy": {RACES[race]: bp for race, bp in enumerate(side.synergy) if bp},
        "creatures": [snapshot(f, now) for f in side.fighters],
    }


def round_summary(b: Battle) -> dict[str, Any]:
    return {"sides": [side_summary(side, b.round_end) for side in b.sides]}
