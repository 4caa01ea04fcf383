"""How a game's public messages address people, checked on the specs a service produced: everyone in the
channel reads a public post, so it never says « vous »/"you" to one of them (docs/platform.md, "Names in
public messages"), it names the players by mention where Discord shows a mention as a name (content,
an embed's description, a field's value), and it puts no mention where Discord shows the raw `<@id>`
(an embed's title, a field's name, a button's label).

A game's test collects the public specs of a seeded whole game (its channel posts and edits from the
outbox, and the messages its clicks return), renders them in every language and asks `findings` what is
wrong; a negative control in each test proves the check can fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.settings import SUPPORTED_LOCALES
from services.infra.messages import MessageSpec, Text, render_text
from store.connection import Connection

# The reader addressed: French « vous » and its possessives, English "you" and "your(s)".
ADDRESSED = re.compile(r"\b(vous|votre|vos|you|your|yours)\b", re.IGNORECASE)
MENTION = re.compile(r"<@!?\d+>")


@dataclass(frozen=True)
class Part:
    """One rendered piece of a message: where it sits (`content`, `title`, `field name`...) and its text."""

    where: str
    text: str

    @property
    def shows_mentions(self) -> bool:
        """Discord renders a mention as a name in content, descriptions and field values only."""
        return self.where in ("content", "description", "field value")


def parts(spec: MessageSpec, locale: str) -> list[Part]:
    def text(value: Text | None) -> str:
        return render_text(value, locale) if value is not None else ""

    found = [Part("content", text(spec.content))]
    for embed in spec.embeds:
        found += [Part("title", text(embed.title)), Part("description", text(embed.description))]
        for field in embed.fields:
            found += [Part("field name", text(field.name)), Part("field value", text(field.value))]
    found += [Part("button", text(b.label)) for b in spec.buttons]
    return [p for p in found if p.text]


def findings(specs: Iterable[MessageSpec], players: Sequence[int]) -> list[str]:
    """Every part that addresses its reader or shows a raw mention, in every language, and every player
    of `players` that no message names where Discord shows their name."""
    problems: list[str] = []
    named: set[int] = set()
    for spec in specs:
        for locale in SUPPORTED_LOCALES:
            for part in parts(spec, locale):
                if word := ADDRESSED.search(part.text):
                    problems.append(f"[{locale}] {part.where} says {word.group(0)!r}: {part.text[:200]}")
                mentions = MENTION.findall(part.text)
                if mentions and not part.shows_mentions:
                    problems.append(f"[{locale}] {part.where} shows {mentions[0]} raw: {part.text[:200]}")
                if part.shows_mentions:
                    named |= {p for p in players if f"<@{p}>" in part.text}
    problems += [f"player {p} is never named" for p in players if p not in named]
    return problems


def channel_posts(conn: Connection) -> list[MessageSpec]:
    """Every channel post and edit the outbox holds, in the order they were queued."""
    rows = conn.execute("SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id").fetchall()
    return [MessageSpec.from_json(str(payload)) for (payload,) in rows]


__all__ = ["ADDRESSED", "Part", "channel_posts", "findings", "parts"]
