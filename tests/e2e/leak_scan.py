"""A scan of everything the emulator delivered, for secrets, against what each reader may know.

Every message is read in every version it had (each edit, not only the last), in every part a Discord
client receives: content, embeds (every string: title, description, fields, footer, author), components
(labels, placeholders, select options, custom ids and values: a modified client sees them too) and the
bytes of every file ever attached. Each piece has an audience: everyone for a channel or thread post, one
user for a DM or an ephemeral reply.

A `Secret` is a pattern and the users allowed to see it (often nobody: a seed, the draw order). The game
tests compute the secrets of each moment from the database and scan only what appeared since the previous
scan, so a message is judged against the game as it stood when it appeared. Names that the reader may
know (a card revealed on the board, a copy in the reader's own hand) are blanked out before the secret
names are looked for, since a hidden card may share its name with a public one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from emulator import DiscordEmulator
from emulator.records import RecordedMessage

EVERYONE = 0
"""The audience of a public post; also the key of the names everyone may know in `allowed` maps."""


@dataclass(frozen=True)
class Secret:
    what: str  # for the report, e.g. "bob's hand: Merlin"
    pattern: re.Pattern[str]
    owners: frozenset[int] = frozenset()  # the users who may see it
    blankable: bool = True  # False: looked for in the raw text (a sequence of names may hold allowed ones)


@dataclass(frozen=True)
class Piece:
    message: RecordedMessage
    version: int  # 0 = as first posted; len(history) = as it is now; -1 = an attached file
    part: str
    audience: int  # a user id, or EVERYONE
    text: str


@dataclass(frozen=True)
class Finding:
    piece: Piece
    secret: Secret
    excerpt: str  # around the match, as searched (names the reader may know blanked out with ·)

    def __str__(self) -> str:
        kind, name = self.piece.message.where
        return (
            f"{self.secret.what} in {kind}:{name} message {self.piece.message.id} "
            f"(version {self.piece.version}, {self.piece.part}): …{self.excerpt}…"
        )


def normalise(text: str) -> str:
    return text.replace("\u202f", " ").replace("\xa0", " ")


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted({w for w in words if w}, key=len, reverse=True))


def names_secret(what: str, names: Iterable[str], ids: Iterable[str], owners: Iterable[int] = ()) -> Secret:
    """A card: any of its names (every language of the catalog) or its catalog id as a whole word."""
    options = [f"(?:{_alternatives(names)})"]
    if id_part := _alternatives(ids):
        options.append(rf"(?<![\w-])(?:{id_part})(?![\w-])")
    return Secret(what, re.compile("|".join(options), re.IGNORECASE), frozenset(owners))


def seed_secret(what: str, seed: int, owners: Iterable[int] = ()) -> Secret:
    """A seed written in decimal or in hexadecimal (with or without 0x, any case)."""
    pattern = rf"(?<![0-9]){seed}(?![0-9])|(?<![0-9a-f]){seed:x}(?![0-9a-f])"
    return Secret(what, re.compile(pattern, re.IGNORECASE), frozenset(owners))


def order_secret(
    what: str, upcoming: Sequence[Iterable[str]], owners: Iterable[int] = (), gap: int = 120
) -> Secret:
    """The draw order: the words naming each upcoming card (names, ids), in that order, close together."""
    steps = [f"(?:{_alternatives(words)})" for words in upcoming]
    pattern = f"(?s:.{{0,{gap}}}?)".join(steps)
    return Secret(what, re.compile(pattern, re.IGNORECASE), frozenset(owners), blankable=False)


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, keys excluded."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def audience(message: RecordedMessage) -> int:
    if message.ephemeral_to is not None:
        return message.ephemeral_to.id
    if message.channel.is_dm:
        assert message.channel.recipient is not None
        return message.channel.recipient.id
    return EVERYONE


def _version_pieces(message: RecordedMessage, version: int, state: Mapping[str, Any]) -> Iterator[Piece]:
    who = audience(message)
    yield Piece(message, version, "content", who, str(state.get("content") or ""))
    yield Piece(message, version, "embeds", who, "\n".join(strings(state.get("embeds") or [])))
    yield Piece(message, version, "components", who, "\n".join(strings(state.get("components") or [])))


@dataclass
class LeakScan:
    """Scans what appeared since the previous call; keeps every finding."""

    emu: DiscordEmulator
    findings: list[Finding] = field(default_factory=list)
    pieces: int = 0  # pieces of text read so far, for a test to prove the scan saw something
    files: int = 0  # attached files read so far
    _versions: dict[int, int] = field(default_factory=dict)
    _files: set[int] = field(default_factory=set)

    def new_pieces(self) -> Iterator[Piece]:
        for message in list(self.emu.messages):
            states = [*message.history, message.snapshot()]
            for version in range(self._versions.get(message.id, 0), len(states)):
                yield from _version_pieces(message, version, states[version])
            self._versions[message.id] = len(states)
            for upload in message.uploads:
                if upload.id not in self._files:
                    self._files.add(upload.id)
                    self.files += 1
                    text = upload.data.decode("utf-8", errors="replace")
                    yield Piece(message, -1, f"file {upload.filename}", audience(message), text)

    def scan(self, secrets: Sequence[Secret], allowed: Mapping[int, Iterable[str]]) -> list[Finding]:
        """Judge the new pieces against `secrets`; `allowed[user]` (and `allowed[EVERYONE]`) are the
        names that reader may know, blanked out first."""
        found: list[Finding] = []
        blanks: dict[int, re.Pattern[str] | None] = {}
        for piece in self.new_pieces():
            self.pieces += 1
            if not piece.text:
                continue
            raw = normalise(piece.text)
            if piece.audience not in blanks:
                known = {*allowed.get(EVERYONE, ()), *allowed.get(piece.audience, ())}
                blanks[piece.audience] = re.compile(_alternatives(known), re.IGNORECASE) if known else None
            blank = blanks[piece.audience]
            blanked = raw if blank is None else blank.sub("·", raw)
            for secret in secrets:
                if piece.audience in secret.owners:
                    continue
                text = blanked if secret.blankable else raw
                if match := secret.pattern.search(text):
                    excerpt = text[max(0, match.start() - 80) : match.end() + 80]
                    found.append(Finding(piece, secret, excerpt))
        self.findings.extend(found)
        return found

    def report(self) -> str:
        return "\n".join(str(f) for f in self.findings)


Allowed = dict[int, set[str]]  # per reader (EVERYONE for all), the texts that reader may see
Moment = tuple[list[Secret], Allowed]


class Tracker(Protocol):
    """A game's secrets, read from the database at each step of a scanned game."""

    async def moment(self) -> Moment: ...


def seeds(what: str, *values: int) -> list[Secret]:
    return [seed_secret(f"{what} seed {v}", v) for v in values]


async def check(scan: LeakScan, tracker: Tracker) -> None:
    """Scans what appeared since the previous check against the game's secrets now."""
    scan.scan(*await tracker.moment())
