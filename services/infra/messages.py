"""What services want said, as data: localizable text, embeds and buttons, and where it goes.

Services never call Discord. They return these specs for the interaction at hand, or store them
in the outbox for channel posts and DMs; the Discord layer renders them in the reader's language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

import orjson

from core.i18n import (
    capitalized,
    format_date,
    format_int,
    normalize_locale,
    sentence_openers,
    t,
    written_with,
)
from core.message_guard import GUARD, Written

RAW = "="  # a Text with this key is shown verbatim (a player's name, a card name already localized)
LINES = "=lines"  # a Text with this key renders its "items" (a list of Text), one per line
PER_LOCALE = "=locale"  # a Text with this key is shown as its text in the reader's language (params)
PUBLIC = "=public"  # a Text with this key is a public message's label, shown in the server's language


@dataclass(frozen=True)
class Text:
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def raw(text: str) -> Text:
        return Text(RAW, {"text": text})

    @staticmethod
    def lines(items: list[Text]) -> Text:
        return Text(LINES, {"items": list(items)})

    @staticmethod
    def public(key: str) -> Text:
        """A label of a public message (a button of a duel's message) quoted in a private reply: the
        channel shows it in the server's language, so the reply must name it that way (the error handler
        renders it so; elsewhere it falls back to the reader's language)."""
        return Text(PUBLIC, {"key": key})

    @staticmethod
    def per_locale(texts: dict[str, str]) -> Text:
        """Text already written in each language (language -> text), for a message composed in a
        service but shown later, in a language chosen when it is delivered (e.g. a channel edit)."""
        return Text(PER_LOCALE, dict(texts))

    def to_json(self) -> dict[str, Any]:
        """The text as JSON, as orjson writes the dataclass itself (`MessageSpec.to_json`): a Text inside
        the parameters is its own {"key", "params"} object, a `Number` or a `Day` a {"value"} object."""
        return {"key": self.key, "params": {k: _param_to_json(v) for k, v in self.params.items()}}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Text:
        return Text(data["key"], {k: _param_from_json(v) for k, v in data.get("params", {}).items()})


@dataclass(frozen=True)
class Number:
    """An integer parameter written as the reader's language groups it (« 15 100 » / "15,100"): a
    message stored in the outbox does not know yet in which language it will be read."""

    value: int


@dataclass(frozen=True)
class Day:
    """A date parameter written out in the reader's language (« 1 décembre 2026 », "December 1, 2026"),
    for the same reason as `Number`."""

    value: date


def render_text(value: Text | None, locale: str | None) -> str:
    """A Text in the reader's language, its Text and Number parameters rendered first."""
    if value is None:
        return ""
    key, params = value.key, value.params
    if not params and not key.startswith("="):  # a label, a rarity: `t` remembers these per language
        return t(key, locale)
    if key == RAW:
        return str(GUARD.check(params.get("text", ""), RAW, "text"))
    if key == LINES:
        return join_lines([_line(item, locale) for item in params.get("items", [])])
    if key == PER_LOCALE:
        lang = normalize_locale(locale)
        return str(GUARD.check(params.get(lang, ""), PER_LOCALE, lang))
    if key == PUBLIC:
        return t(str(params.get("key", "")), locale)
    rendered = {k: render_param(v, locale) for k, v in params.items()}
    for name in sentence_openers(key, normalize_locale(locale)):  # « l'IA » opening a sentence: « L'IA »
        value = params.get(name)
        if isinstance(value, Text) and value.key != RAW and isinstance(rendered[name], str):
            rendered[name] = capitalized(rendered[name])
    return t(key, locale, **rendered)


# The lines `Text.lines` wrote, by their language and their Text's JSON: a game's posts repeat most of their
# lines from one to the next (a Chocobataille board and hand: about half of them), and orjson writes a
# line's Text in about a microsecond where writing it out takes five to twenty, on a cold cache more
# (docs/performance.md, "The eighth round"). A line is a pure function of its Text and language given the
# catalogs and the guard's forbidden words (`written_with`): the set is dropped when they change, and when
# full. A line the guard refused a parameter of is not kept (it logs at each writing, and a player's
# quoted text, a str subclass, is marked apart from the same str: the guard reads them differently).
KEPT_LINES = 4096
_kept_lines: dict[tuple[str, bytes], str] = {}
_kept_lines_for: list[object] = [None, None]


def _line(item: Text, locale: str | None) -> str:
    if not item.params or item.key.startswith("="):  # a label, a name, a raw text: no cheaper to look up
        return render_text(item, locale)
    basis = written_with()
    if basis is None:  # the tests' wording check reads every text as it is written
        return render_text(item, locale)
    if _kept_lines_for[0] is not basis[0] or _kept_lines_for[1] is not basis[1]:
        _kept_lines.clear()
        _kept_lines_for[:] = basis
    try:
        key = (
            normalize_locale(locale),
            orjson.dumps(item, default=_marked, option=orjson.OPT_PASSTHROUGH_SUBCLASS),
        )
    except orjson.JSONEncodeError:  # a parameter orjson cannot write (an integer past 64 bits)
        return render_text(item, locale)
    written = _kept_lines.get(key)
    if written is None:
        refused = GUARD.refused
        written = render_text(item, locale)
        if GUARD.refused == refused:
            if len(_kept_lines) >= KEPT_LINES:
                _kept_lines.clear()
            _kept_lines[key] = written
    return written


def _marked(value: Any) -> Any:
    """A str or int subclass in a line's key (`_line`): its class named, the guard reading it apart."""
    if isinstance(value, str | int):
        return [type(value).__qualname__, str(value)]
    raise TypeError


def join_lines(lines: Sequence[str]) -> str:
    """Rendered lines one under the other, as `Text.lines` renders: a caller that keeps some lines rendered
    (a duel's controls, the same until the next move) joins them with the one that changed."""
    joined = "\n".join(lines)
    if any(isinstance(line, Written) for line in lines):  # tests: each line as the wording check read it
        return Written(joined, "\n".join(line.read if isinstance(line, Written) else line for line in lines))
    return joined


def render_param(value: Any, locale: str | None) -> Any:
    """A message's parameter as the reader reads it: a `Text`, a `Number` or a `Day` written in their
    language, a list as its items separated by commas. The one path for every message's parameters,
    a refusal's (`DomainError.params`) included."""
    if type(value) in _PLAIN:  # most parameters: shown as they are
        return value
    if isinstance(value, Text):
        return render_text(value, locale)
    if isinstance(value, Number):
        return format_int(value.value, locale)
    if isinstance(value, Day):
        return format_date(value.value, locale)
    if isinstance(value, list | tuple):
        return ", ".join(str(render_param(v, locale)) for v in value)
    return value


_PLAIN = (str, int, float)


def _param_to_json(value: Any) -> Any:
    if type(value) in _PLAIN:  # most parameters; a referee's post and a hand carry thousands of them
        return value
    if isinstance(value, Number):
        return {"value": value.value}
    if isinstance(value, Day):
        return {"value": value.value.isoformat()}
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, list) and value and all(isinstance(v, Text) for v in value):
        return [v.to_json() for v in value]
    return value


# What a parameter written as an object can be: a Text ({"key", "params"}), a Number or a Day ({"value"}).
# No parameter is a plain object: a message could only show it as a repr, which the guard refuses
# (core/message_guard.py). Rows written before orjson wrote the dataclasses mark them ("$text", "$texts",
# "$int", "$date") and still read.
_TEXT_FIELDS = frozenset(("key", "params"))
_VALUE_FIELD = frozenset(("value",))


def _param_from_json(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:  # most parameters, as in `_param_to_json`
        return value
    if kind is dict:
        fields = value.keys()
        if fields == _TEXT_FIELDS:
            return Text.from_json(value)
        if fields == _VALUE_FIELD:
            inner = value["value"]
            return Day(date.fromisoformat(inner)) if isinstance(inner, str) else Number(int(inner))
        if "$int" in value:
            return Number(int(value["$int"]))
        if "$date" in value:
            return Day(date.fromisoformat(str(value["$date"])))
        if "$text" in value:
            return Text.from_json(value["$text"])
        if "$texts" in value:
            return [Text.from_json(v) for v in value["$texts"]]
        return value
    if kind is list and value and all(type(v) is dict and v.keys() == _TEXT_FIELDS for v in value):
        return [Text.from_json(v) for v in value]
    return value


def _as_is(text: Text) -> Any:
    return text


@dataclass(frozen=True)
class EmbedField:
    name: Text
    value: Text
    inline: bool = True


@dataclass(frozen=True)
class Embed:
    title: Text | None = None
    description: Text | None = None
    fields: tuple[EmbedField, ...] = ()
    color: int | None = None
    # The file name of an image attached to the same message, shown large in the embed (a card).
    image: str | None = None


@dataclass(frozen=True)
class Attachment:
    """A text file sent with the message (a finished battle's log). Its `text` is a `Text` when the file
    is written for a reader (a battle told round by round), rendered in the language of the message that
    carries it, like the embeds: a channel post's file is only written once the outbox knows its server."""

    filename: str
    text: str | Text

    def body(self, locale: str | None) -> str:
        return self.text if isinstance(self.text, str) else render_text(self.text, locale)


@dataclass(frozen=True)
class StripCard:
    """One card of a `CardStrip`: its catalog id and the copy drawn (None: the card's own rarity)."""

    card_id: str
    rarity: str | None = None
    stars: int = 0
    holo: bool = False


@dataclass(frozen=True)
class CardStrip:
    """Cards side by side in one PNG, attached to the message (a Chocobataille hand by DM). Only the ids
    are stored: the picture is composed when the message is sent, from the card images' cache, in the
    language of the message (`discord_app.render.files_with_strips`)."""

    filename: str
    game: str
    cards: tuple[StripCard, ...]
    scale: float = 0.4  # of a card's size (360 x 504): 1 for one card shown off
    # The cards' figures in rows of four instead of whole cards (a hand, a line-up: card_images/figures.py).
    figures: bool = False


@dataclass(frozen=True)
class Picture:
    """A picture drawn when the message is sent, in its language, from `data` (plain JSON): a tournament's
    bracket or standings (`kind`, services/community/card_images/tournament.py). Only the data is stored,
    so that each edit of a post costs a few hundred bytes in the outbox, not a PNG."""

    filename: str
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class SelectOption:
    label: Text
    value: str
    description: Text | None = None  # the grey line under the label; none when empty


@dataclass(frozen=True)
class Select:
    """A select menu under the message (a row of its own); its custom_id names the persistent handler."""

    custom_id: str
    placeholder: Text
    options: tuple[SelectOption, ...]


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Button:
    label: Text
    custom_id: str  # namespaced and opaque: "game:action:<id>"; every click is re-checked by a service
    style: ButtonStyle = "secondary"


@dataclass(frozen=True)
class MessageSpec:
    content: Text | None = None
    embeds: tuple[Embed, ...] = ()
    buttons: tuple[Button, ...] = ()
    # The bot pings nobody by default; a referee's call to the next player names who may be pinged.
    ping_users: tuple[int, ...] = ()
    # For a DM: the label of the private "show" button posted in its fallback channel when DMs are closed.
    show_label: Text | None = None
    # For a post in a thread: archive the thread once the message is delivered (a finished game).
    archive_thread: bool = False
    # Files sent with the message; an edit replaces the message's files with these.
    attachments: tuple[Attachment, ...] = ()
    # Pictures of cards attached to the message (composed at delivery: `CardStrip`).
    strips: tuple[CardStrip, ...] = ()
    selects: tuple[Select, ...] = ()
    pictures: tuple[Picture, ...] = ()  # drawn at delivery (`Picture`)

    def to_json(self) -> str:
        """The outbox's payload. Written by orjson (compact, UTF-8): Python's `json.dumps` took three
        quarters of the time of a Chocobataille post's payload (about 96 of 130 µs, orjson 22), written
        twice in every turn's unit; what the standard module writes (older rows) reads back the same. A
        value orjson refuses (an integer past 64 bits) is written by the standard module, the same JSON.

        The texts are handed to orjson as they are: it writes a dataclass (a Text, a Number, a Day) itself,
        in C. Calling back into Python for each Text (about 60 in a Chocobataille post) was two thirds of
        the payload's time (docs/performance.md, "The eighth round")."""
        try:
            return orjson.dumps(self._as_json(_as_is), option=orjson.OPT_SORT_KEYS).decode()
        except orjson.JSONEncodeError:
            return json.dumps(self._as_json(Text.to_json), sort_keys=True)

    def _as_json(self, written: Callable[[Text], Any]) -> dict[str, Any]:
        def text(v: Text | None) -> Any:
            return written(v) if v is not None else None

        return {
            "content": text(self.content),
            "embeds": [
                {
                    "title": text(e.title),
                    "description": text(e.description),
                    "fields": [
                        {"name": text(f.name), "value": text(f.value), "inline": f.inline} for f in e.fields
                    ],
                    "color": e.color,
                    "image": e.image,
                }
                for e in self.embeds
            ],
            "buttons": [
                {"label": text(b.label), "custom_id": b.custom_id, "style": b.style} for b in self.buttons
            ],
            "ping_users": list(self.ping_users),
            "show_label": text(self.show_label),
            "archive_thread": self.archive_thread,
            "attachments": [
                {"filename": a.filename, "text": a.text if isinstance(a.text, str) else text(a.text)}
                for a in self.attachments
            ],
            "strips": [
                {
                    "filename": s.filename,
                    "game": s.game,
                    "cards": [[c.card_id, c.rarity, c.stars, c.holo] for c in s.cards],
                    "scale": s.scale,
                    "figures": s.figures,
                }
                for s in self.strips
            ],
            "selects": [
                {
                    "custom_id": m.custom_id,
                    "placeholder": text(m.placeholder),
                    "options": [[text(o.label), o.value] for o in m.options],
                }
                for m in self.selects
            ],
            **(
                {
                    "pictures": [
                        {"filename": p.filename, "kind": p.kind, "data": p.data} for p in self.pictures
                    ]
                }
                if self.pictures
                else {}
            ),
        }

    @staticmethod
    def from_json(raw: str) -> MessageSpec:
        data = orjson.loads(raw)

        def text(v: Any) -> Text | None:
            return Text.from_json(v) if v is not None else None

        return MessageSpec(
            content=text(data.get("content")),
            embeds=tuple(
                Embed(
                    title=text(e.get("title")),
                    description=text(e.get("description")),
                    fields=tuple(
                        EmbedField(
                            Text.from_json(f["name"]), Text.from_json(f["value"]), f.get("inline", True)
                        )
                        for f in e.get("fields", [])
                    ),
                    color=e.get("color"),
                    image=e.get("image"),
                )
                for e in data.get("embeds", [])
            ),
            buttons=tuple(
                Button(Text.from_json(b["label"]), b["custom_id"], b.get("style", "secondary"))
                for b in data.get("buttons", [])
            ),
            ping_users=tuple(int(u) for u in data.get("ping_users", [])),
            show_label=text(data.get("show_label")),
            archive_thread=bool(data.get("archive_thread", False)),
            attachments=tuple(
                Attachment(
                    a["filename"], a["text"] if isinstance(a["text"], str) else Text.from_json(a["text"])
                )
                for a in data.get("attachments", [])
            ),
            strips=tuple(
                CardStrip(
                    s["filename"],
                    s["game"],
                    tuple(StripCard(str(c[0]), c[1], int(c[2]), bool(c[3])) for c in s["cards"]),
                    float(s.get("scale", 0.4)),
                    bool(s.get("figures", False)),
                )
                for s in data.get("strips", [])
            ),
            selects=tuple(
                Select(
                    m["custom_id"],
                    Text.from_json(m["placeholder"]),
                    tuple(SelectOption(Text.from_json(label), str(value)) for label, value in m["options"]),
                )
                for m in data.get("selects", [])
            ),
            pictures=tuple(
                Picture(str(p["filename"]), str(p["kind"]), dict(p["data"])) for p in data.get("pictures", [])
            ),
        )


@dataclass(frozen=True)
class Target:
    """Where an outbox message goes. For a DM, `fallback_channel_id` is the game's channel or thread
    where a private "show" button replaces the DM when the player's DMs are closed. For a channel post,
    `players` are who would otherwise never learn that Discord refused it (services/infra/outbox.py).

    `guild_id` is the server the message belongs to, and must be given (a keyword without default): with
    several processes, the one holding that server's shard sends it (docs/deployment.md, "Several processes
    and shards"). A channel post names the channel's server; a DM names the server of its fallback channel
    (its "show" button is a post there). None only where there is no server: a DM channel's message (a
    battle fought in DMs), a DM with no fallback; any process sends those."""

    kind: Literal["channel", "dm"]
    id: int  # channel/thread id, or the player's user id for a DM
    fallback_channel_id: int | None = None
    # For a game's channel post: its players, told by DM when the bot may not post there.
    players: tuple[int, ...] = ()
    guild_id: int | None = field(kw_only=True)
