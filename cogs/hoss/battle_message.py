"""The public battle message of a ranked HOSS battle: both sides with PV bars, statuses and synergies, the
round's notable events and the result. Pure rendering from the service's `BattleView` and round records;
the live message's edits and controls are in `cogs/hoss/battle.py`."""

from __future__ import annotations

import json
from typing import Any

from cogs.hoss.render import gold
from core.i18n import format_int
from discord_app.render import text
from engine.hoss.catalog import HossCatalog
from services.hoss import RACE_KEYS
from services.hoss.ranked import RANK_NAME_KEYS, BattleView
from services.platform.messages import Embed, EmbedField, MessageSpec, Text

BAR = 10
STATUS_KEYS = {
    "poison": "hoss.battle.status.poison",
    "saignement": "hoss.battle.status.saignement",
    "embrasement": "hoss.battle.status.embrasement",
    "bris": "hoss.battle.status.bris",
    "gel": "hoss.battle.status.gel",
    "choc": "hoss.battle.status.choc",
    "confusion": "hoss.battle.status.confusion",
}
EVENT_KEYS = {
    "play": "hoss.battle.event.play",
    "place": "hoss.battle.event.place",
    "move": "hoss.battle.event.move",
    "evolve": "hoss.battle.event.evolve",
    "evolve_choice": "hoss.battle.event.evolve_choice",
    "death": "hoss.battle.event.death",
    "revive": "hoss.battle.event.revive",
}
STATUS_TITLES = {"won": "hoss.battle.won", "lost": "hoss.battle.lost", "draw": "hoss.battle.draw"}


def pv_bar(hp: int, hp_max: int) -> str:
    filled = 0 if hp <= 0 or hp_max <= 0 else max(1, min(BAR, round(BAR * hp / hp_max)))
    return "▰" * filled + "▱" * (BAR - filled)


def pv_of(centi: int) -> int:
    """The engine counts hundredths of PV; a creature alive with less than 1 PV still shows 1."""
    return -(-centi // 100)


def name_of(catalog: HossCatalog, card_id: str, locale: str) -> str:
    card = catalog.card(card_id)
    return card.name.get(locale) if card is not None else card_id


def uid_names(sides: list[dict[str, Any]], catalog: HossCatalog, locale: str) -> dict[str, str]:
    names = {}
    for side in sides:
        for creature in side.get("creatures", []):
            names[creature["uid"]] = name_of(catalog, creature["card"], locale)
        for card in side.get("hand_cards", []):
            names[card["id"]] = name_of(catalog, card["card"], locale)
    return names


def names_from_log(log: str, catalog: HossCatalog, locale: str) -> dict[str, str]:
    """Every creature of the battle by uid, under its latest card (dead ones included)."""
    names: dict[str, str] = {}
    for record in json.loads(log)["rounds"]:
        for event in record["events"]:
            if event["k"] == "play":
                names[str(event["tgt"])] = name_of(catalog, str(event["card"]), locale)
            elif event["k"] == "evolve":
                names[str(event["tgt"])] = name_of(catalog, str(event["to"]), locale)
    return names


def creature_line(creature: dict[str, Any], names: dict[str, str], locale: str) -> str:
    hp, hp_max = int(creature["hp"]), int(creature["hp_max"])
    pv = f"{format_int(pv_of(hp), locale)}/{format_int(pv_of(hp_max), locale)}"
    parts = [f"**{names.get(creature['uid'], creature['card'])}** {pv_bar(hp, hp_max)} {pv}"]
    if creature.get("shield"):
        parts.append(
            text(
                Text("hoss.battle.shield", {"shield": format_int(pv_of(int(creature["shield"])), locale)}),
                locale,
            )
        )
    statuses = [text(Text(STATUS_KEYS[s]), locale) for s in creature.get("statuses", {}) if s in STATUS_KEYS]
    if statuses:
        parts.append("[" + ", ".join(statuses) + "]")
    if creature.get("protege"):
        protege = names.get(creature["protege"], creature["protege"])
        parts.append(text(Text("hoss.battle.protects", {"protege": protege}), locale))
    return " ".join(parts)


def side_text(side: dict[str, Any], names: dict[str, str], locale: str) -> str:
    lines = [creature_line(c, names, locale) for c in side.get("creatures", [])]
    if not lines:
        lines.append(text(Text("hoss.battle.no_creature"), locale))
    synergy = side.get("synergy", {})
    if synergy:
        found = [
            text(
                Text("hoss.battle.synergy", {"race": Text(RACE_KEYS[race]), "percent": f"{bp / 100:g}"}),
                locale,
            )
            for race, bp in synergy.items()
            if race in RACE_KEYS
        ]
        lines.append(" · ".join(found))
    lines.append(text(Text("hoss.battle.counts", {"hand": side["hand"], "pile": side["pile"]}), locale))
    return "\n".join(lines)


def event_line(event: dict[str, Any], names: dict[str, str], locale: str, catalog: HossCatalog) -> str:
    uid = str(event.get("tgt", ""))
    who = Text("hoss.battle.you" if uid.startswith("a") else "hoss.battle.ai")
    params: dict[str, Any] = {"who": who, "card": names.get(uid, uid)}
    if "protege" in event:
        params["protege"] = names.get(str(event["protege"]), str(event["protege"]))
    if "to" in event:
        params["to"] = name_of(catalog, str(event["to"]), locale)
    if event["k"] in ("play",) and "card" in event:
        params["card"] = name_of(catalog, str(event["card"]), locale)
    return "• " + text(Text(EVENT_KEYS[event["k"]], params), locale)


def round_events(
    record: dict[str, Any], catalog: HossCatalog, locale: str, known: dict[str, str]
) -> list[str]:
    names = {**known, **uid_names(record["sides"], catalog, locale)}
    return [event_line(e, names, locale, catalog) for e in record["events"] if e["k"] in EVENT_KEYS]


def result_text(view: BattleView, locale: str) -> str:
    result = view.result
    assert result is not None
    lines = [f"**{text(Text(STATUS_TITLES[result.status]), locale)}**", text(Text(result.reason), locale)]
    if not result.counted:
        lines.append(text(Text("hoss.battle.not_counted"), locale))
    else:
        amounts = {"base": result.base, "fast": result.fast_bonus, "flawless": result.flawless_bonus}
        bonus = {name: format_int(amount, locale) for name, amount in amounts.items()}
        lines.append(text(Text("hoss.battle.reward", {"gold": gold(result.gold, locale), **bonus}), locale))
    return "\n".join(lines)


def battle_spec(
    view: BattleView, record: dict[str, Any] | None, catalog: HossCatalog, locale: str, known: dict[str, str]
) -> MessageSpec:
    """The public battle message: at an intermediate round (`record` and its sides) or now (snapshot)."""
    if record is not None and record["round"] != view.round:
        sides, round_number, final = record["sides"], record["round"], False
    else:
        sides, round_number, final = view.snapshot["seats"], view.round, True
    names = {**known, **uid_names(sides, catalog, locale)}
    lines = [text(Text("hoss.battle.round", {"round": round_number}), locale)]
    if record is not None:
        lines += round_events(record, catalog, locale, known)
    if final and view.status == "live":
        if view.ai_decided and view.ai_decided[-1] == view.pause - 1:
            lines.append(text(Text("hoss.decision_timeout"), locale))
        deadline = int(view.deadline.timestamp()) if view.deadline is not None else 0
        lines.append(text(Text("hoss.battle.your_turn", {"deadline": f"<t:{deadline}:R>"}), locale))
    if final and view.result is not None:
        lines.append(result_text(view, locale))
    title = Text("hoss.battle.title", {"battle": view.battle_id, "rank": Text(rank_key(view.rank))})
    fields = (
        EmbedField(Text("hoss.battle.you"), Text.raw(side_text(sides[0], names, locale)), inline=False),
        EmbedField(Text("hoss.battle.ai"), Text.raw(side_text(sides[1], names, locale)), inline=False),
    )
    return MessageSpec(embeds=(Embed(title=title, description=Text.raw("\n".join(lines)), fields=fields),))


def rank_key(rank: int) -> str:
    return str(RANK_NAME_KEYS[rank])
