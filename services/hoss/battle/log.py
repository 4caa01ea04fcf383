"""A finished battle told to a reader: the log's JSON (`battle_replay.log_text`, kept as it is for replays and
checks) turned into plain text, round by round, in one language: each round's notable events, then both
sides as the round left them, then who won and why.

The battle message carries it as a file beside the JSON (written in the server's language when the
outbox sends it: `Attachment.text` is a `Text`), and `/hoss revoir` attaches it in the reader's language.
A text file shows no mention as a name, so the file calls the sides « Joueur » and « IA (Rang N) » and
gives the player's Discord id once, in its heading.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.hoss import HossCatalog
from services.hoss.battle.replay import log_json
from services.hoss.battle.view import EventView, SideView, events_of, named, side_of
from services.hoss.keys import RANK_NAME_KEYS
from services.hoss.render.battle import (
    event_line,
    in_every_language,
    name_of,
    opponent_name,
    player_name,
    reason_line,
    side_text,
)
from services.infra.messages import Attachment, Embed, MessageSpec, Text, render_text

REPLAY_BODY = 4000  # an embed's description holds 4,096 characters


def json_name(battle_id: int) -> str:
    return f"hoss-battle-{battle_id}.json"


def text_name(battle_id: int) -> str:
    return f"hoss-battle-{battle_id}.txt"


def _status(outcome: dict[str, Any]) -> str:
    winners = outcome.get("winners") or []
    return "won" if 0 in winners else "lost" if winners else "draw"


@dataclass(frozen=True)
class _Round:
    """A round of the log as every language tells it: its events, both sides as it left them, and the
    card of every creature it may name (those met so far, then the sides' own)."""

    record: dict[str, Any]
    cards: dict[str, str]  # uid -> card id
    events: tuple[EventView, ...]
    sides: tuple[SideView, ...]


def _rounds(data: dict[str, Any]) -> list[_Round]:
    """The log's rounds read once, for every language the log is written in."""
    met: dict[str, str] = {}
    told = []
    for record in data["rounds"]:
        named(met, record)
        sides = tuple(side_of(side) for side in record["sides"])
        cards = dict(met)
        for side in sides:
            cards.update({c.uid: c.card for c in side.creatures})
        told.append(_Round(record, cards, events_of(record), sides))
    return told


def _round_lines(
    told: _Round, name: Callable[[str], str], catalog: HossCatalog, locale: str, sides: tuple[Text, Text]
) -> tuple[dict[str, str], list[str]]:
    """The round's events, with every creature met so far named in `locale` (`name`: a card's name)."""
    shown = {uid: name(card) for uid, card in told.cards.items()}
    lines = [render_text(Text("hoss.battle.round", {"round": told.record["round"]}), locale)]
    lines += [event_line(e, shown, catalog, locale, sides) for e in told.events]
    return shown, lines


def _names(catalog: HossCatalog, locale: str) -> Callable[[str], str]:
    """`name_of` in `locale`, each card looked up once per log."""
    known: dict[str, str] = {}

    def name(card: str) -> str:
        found = known.get(card)
        if found is None:
            found = known[card] = name_of(catalog, card, locale)
        return found

    return name


def _ending(outcome: dict[str, Any] | None, sides: tuple[Text, Text], locale: str) -> list[str]:
    if outcome is None:
        return []
    status = _status(outcome)
    if status == "draw":
        verdict = Text("hoss.log.draw")
    else:
        verdict = Text("hoss.log.winner", {"winner": sides[0] if status == "won" else sides[1]})
    return [render_text(verdict, locale), reason_line(str(outcome["reason"]), status, sides, locale)]


def readable_log(log: str, catalog: HossCatalog, locale: str) -> str:
    """The whole battle as plain text in `locale` (no Markdown: it is read as a file)."""
    data = json.loads(log)
    return _told(data, _rounds(data), catalog, locale)


def _told(data: dict[str, Any], rounds: list[_Round], catalog: HossCatalog, locale: str) -> str:
    rank = int(data["rank"])
    sides = (Text("hoss.log.player"), opponent_name(rank, None))
    player = data["setups"][0].get("player_id")
    title = Text("hoss.log.title", {"battle": data["battle"], "rank": Text(RANK_NAME_KEYS[rank])})
    lines = [
        render_text(title, locale),
        render_text(Text("hoss.log.sides", {"player": sides[0], "id": player, "opponent": sides[1]}), locale),
    ]
    name = _names(catalog, locale)
    headings = [render_text(Text("hoss.log.side", {"side": label}), locale) for label in sides]
    for told in rounds:
        shown, events = _round_lines(told, name, catalog, locale, sides)
        lines += ["", *events]
        for seat, heading in enumerate(headings):
            lines.append(heading)
            board = side_text(told.sides[seat], shown, locale)
            lines += [f"  {line}" for line in board.split("\n")]
    lines += ["", *_ending(data.get("outcome"), sides, locale)]
    return "\n".join(lines).replace("**", "") + "\n"


def log_files(battle_id: int, document: dict[str, Any], catalog: HossCatalog) -> tuple[Attachment, ...]:
    """A finished battle's files: the story in the language the message is shown in, then the JSON, from
    the log's `document` (`battle_replay.log_document`), read once for every language (its rounds' sides
    and the cards they name)."""
    rounds = _rounds(document)
    story = in_every_language(lambda locale: _told(document, rounds, catalog, locale))
    return Attachment(text_name(battle_id), story), Attachment(json_name(battle_id), log_json(document))


def replay_spec(log: str, battle: int, catalog: HossCatalog, locale: str) -> MessageSpec:
    """A finished battle's rounds, for `/hoss revoir` (a private reply: the reader's language), with the
    JSON log and the whole battle as text attached."""
    data = json.loads(log)
    sides = (
        player_name(int(data["setups"][0].get("player_id") or 0)),
        opponent_name(int(data["rank"]), None),
    )
    name = _names(catalog, locale)
    lines: list[str] = []
    for told in _rounds(data):
        lines += _round_lines(told, name, catalog, locale, sides)[1]
    lines += _ending(data.get("outcome"), sides, locale)
    body = "\n".join(lines)
    if len(body) > REPLAY_BODY:
        body = body[: REPLAY_BODY - 10] + "\n…"
    title = Text("hoss.replay.title", {"battle": battle, "rank": Text(RANK_NAME_KEYS[int(data["rank"])])})
    return MessageSpec(
        embeds=(Embed(title=title, description=Text.raw(body or "—")),),
        attachments=(
            Attachment(f"hoss-replay-{battle}.json", log),
            Attachment(f"hoss-replay-{battle}.txt", readable_log(log, catalog, locale)),
        ),
    )
