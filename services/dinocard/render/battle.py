"""How a Dinocard battle reads in Discord: the public message of the steps shown so far, its buttons, and
the whole log as a text file once the battle is over.

Everything here is drawn from the engine's view for a spectator (`engine.protocol.SPECTATOR`): the board
after the last step shown and that step's public events. So the public message never holds an egg's card,
a step not shown yet, the result before the end or the seed of a live battle; the log file and the seed
come with the last step only. Event texts are `dinocard.event.<kind>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from core.i18n import t
from engine.dinocard import ELEMENTS, DinocardCard, DinocardView
from services.dinocard.keys import ELEMENT_KEYS, EVENT_KEYS, OUTCOME_KEYS
from services.infra.messages import Attachment, Button, Embed, EmbedField, MessageSpec, Text

ELEMENT_MARKS = {"feu": "🔥", "bois": "🌳", "eau": "💧", "foudre": "⚡", "ciel": "☁️"}
COLORS = {"live": 0x3BA55C, "over": 0x5865F2}
MAX_LINES = 30  # of events on the message (a phase has fewer; the log file has them all)
QUIET = frozenset({"board", "egg_card"})  # the board is the fields; an egg's card is never public
PLACES = ("slot", "target_slot")  # a rail's places, 0 to 2 from the left, shown 1 to 3


def card_name(cards: Mapping[str, DinocardCard], card_id: str | None) -> Text:
    if card_id is None or card_id not in cards:
        return Text("dinocard.battle.egg")
    card = cards[card_id]
    return Text.per_locale({"fr": card.name.fr, "en": card.name.en})


def event_text(
    event: Mapping[str, Any], who: Sequence[Text], cards: Mapping[str, DinocardCard]
) -> Text | None:
    """One public event as a line; None for what the board or the title already says."""
    kind = str(event["kind"])
    data = dict(event["data"])
    if kind in QUIET:
        return None
    params: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("card", "source"):
            if value is None:
                params[name] = Text("dinocard.battle.egg" if name == "card" else "dinocard.battle.effect")
            continue
        if name in ("card_id", "source_id"):
            params[name.removesuffix("_id")] = card_name(cards, str(value))
        elif name in ("seat", "target_seat", "source_seat", "winner") and isinstance(value, int):
            params[name.replace("seat", "who") if name != "winner" else "winner"] = who[value]
        elif name == "element":
            params["element"] = Text(ELEMENT_KEYS[str(value)])
        elif name == "reason" and kind in ("energy", "graveyard"):
            kind = f"{kind}_{value}"
        elif name == "target_slot":
            kind = "attack_player" if value is None else "attack"
            if value is not None:
                params["target_slot"] = value + 1
        elif name == "life":
            params["life_a"], params["life_b"] = value
        elif name == "reason":
            params["reason"] = Text(OUTCOME_KEYS[str(value)])
        else:
            params[name] = value + 1 if name in PLACES and isinstance(value, int) else value
    return Text(EVENT_KEYS[_kind(kind, data, params)], params)


def _kind(kind: str, data: Mapping[str, Any], params: dict[str, Any]) -> str:
    """The event's message, where its wording depends on its data: the end's lives read winner first
    (« Maître Moueffe gagne — 17 PV contre 0 »), a drawn end has no winner, and an enchantment of one's
    own dinoz says so (« enchante son dinoz en place 1 »)."""
    if kind == "ended":
        if data.get("winner") is None:
            params.pop("winner", None)
            return "ended_draw"
        if data["winner"] == 1:
            params["life_a"], params["life_b"] = params["life_b"], params["life_a"]
    if kind == "enchant" and data.get("seat") == data.get("target_seat"):
        params.pop("target_who", None)
        return "enchant_own"
    return kind


LANGUAGES = ("fr", "en")  # card names are in the catalog in both; the message shows the reader's


def _slot(slot: Mapping[str, Any] | None, cards: Mapping[str, DinocardCard], lang: str) -> str:
    """A place of the rail with its numbers named: « Winks F2/E2 » (force, endurance left), « 🥚 1
    marqueur ». An egg's éclosion is its hidden card's: how many markers it needs is not shown."""
    if slot is None:
        return "·"
    if not slot.get("hatched"):
        return _egg(lang, int(slot.get("markers", 0)))
    card = cards.get(str(slot.get("card_id")))
    name = card.name.get(lang) if card is not None else "?"
    force, endurance, damage = slot.get("force", 0), slot.get("endurance", 0), slot.get("damage", 0)
    return _dinoz(lang, name, int(force), int(endurance - damage))


# A place is written once per language and content: a dinoz stays on its rail, unchanged, for most steps,
# and every step's message wrote each place of both rails in both languages again (issue 39).
@lru_cache(maxsize=4096)
def _egg(lang: str, markers: int) -> str:
    return t("dinocard.battle.rail_egg", lang, markers=markers)


@lru_cache(maxsize=4096)
def _dinoz(lang: str, name: str, force: int, endurance: int) -> str:
    return t("dinocard.battle.rail_dinoz", lang, name=name, force=force, endurance=endurance)


def side(board: Mapping[str, Any], seat: int, cards: Mapping[str, DinocardCard]) -> Text:
    energy = " ".join(
        f"{ELEMENT_MARKS[e]}{n}" for e, n in board["energy"][seat].items() if n and e in ELEMENTS
    )
    rail = {lang: " | ".join(_slot(s, cards, lang) for s in board["rails"][seat]) for lang in LANGUAGES}
    objects = {
        lang: ", ".join(
            cards[o["card_id"]].name.get(lang) if o["card_id"] in cards else "?"
            for o in board["objects"][seat]
        )
        or "—"
        for lang in LANGUAGES
    }
    return Text(
        "dinocard.battle.side",
        {
            "life": board["life"][seat],
            "pile": board["pile"][seat],
            "graveyard": board["graveyard"][seat],
            "energy": energy or "—",
            "rail": Text.per_locale(rail),
            "objects": Text.per_locale(objects),
        },
    )


def log_text(view: DinocardView, who: Sequence[str], seed: int, cards: Mapping[str, DinocardCard]) -> str:
    """The whole battle, step by step (every event, eggs' cards included: nothing is hidden at the end),
    with the seed that replays it. Written in French and English names, one event per line (JSON data)."""
    lines = [f"dinocard battle: {who[0]} vs {who[1]}", f"seed: {seed}", ""]
    for index, step in enumerate(view.log, start=1):
        lines.append(f"step {index}")
        for event in step:
            if event["kind"] == "board":
                continue
            data = ", ".join(f"{k}={v}" for k, v in event["data"].items())
            lines.append(f"  {event['kind']}: {data}")
    return "\n".join(lines) + "\n"


def battle_spec(
    *,
    number: int,
    view: DinocardView,
    who: Sequence[Text],
    players: Sequence[Text],
    levels: Sequence[int | None],
    cards: Mapping[str, DinocardCard],
    controls: tuple[int, int] | None,
    summary: Text | None = None,
    log: str | None = None,
) -> MessageSpec:
    """The public message after the steps shown; `controls` (match id, version) while it is watched.
    `who` names each seat's pack (the title and the events), `players` who plays it: a side's field is
    labelled with its pack and its value opens with the player's mention, where Discord shows a name."""
    title = Text(
        "dinocard.battle.title",
        {"number": number, "a": who[0], "b": who[1], "round": view.round, "phase": view.phase},
    )
    lines = [t for e in view.events if (t := event_text(e, who, cards)) is not None][-MAX_LINES:]
    board = view.board
    fields = [
        EmbedField(
            Text("dinocard.battle.side_name", {"name": who[seat], "level": levels[seat] or 0}),
            Text.lines(
                [Text("dinocard.battle.side_player", {"player": players[seat]}), side(board, seat, cards)]
            ),
            inline=False,
        )
        for seat in (1, 0)
    ]
    if summary is not None:
        fields.append(EmbedField(Text("dinocard.battle.result"), summary, inline=False))
    embed = Embed(
        title=title,
        description=Text.lines(lines)
        if lines
        else Text("dinocard.battle.start" if not view.shown else "dinocard.battle.quiet"),
        fields=tuple(fields),
        color=COLORS["over" if view.finished else "live"],
    )
    buttons: tuple[Button, ...] = ()
    if controls is not None and not view.finished:
        match_id, version = controls
        buttons = (
            Button(Text("dinocard.battle.next"), f"dino:next:{match_id}:{version}", "primary"),
            Button(Text("dinocard.battle.phase"), f"dino:phase:{match_id}:{version}"),
            Button(Text("dinocard.battle.all"), f"dino:all:{match_id}:{version}"),
        )
    files = (Attachment(f"dinocard-{number}.txt", log),) if log is not None else ()
    return MessageSpec(embeds=(embed,), buttons=buttons, attachments=files)
