"""The one-line text form of a Chocobataille turn, for `/choco play actions:"..."` (docs/choco/notation.md).

`parse_turn` turns "invoque M2 front; attaque F1 > AF1" into engine steps. Every card reference is resolved
once, against the state at the start of the turn, to an instance id, so later position changes within the
turn do not matter. Only the notation is checked here: whether a step is legal (phase order, protection,
free slots...) is the engine's business. A reference to a card the player does not hold raises
`UnownedCard`, distinct from syntax errors, because the rulebook punishes it (fault V.1).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache

from core.errors import BadInput
from engine.choco import (
    Attack,
    Card,
    ChocoCatalog,
    ChocoState,
    DeckAttack,
    Discard,
    Line,
    Move,
    PlayEffect,
    Prepare,
    Step,
    Summon,
    chosen_kinds,
)
from services.choco.text import enemy_labels, join, line_text, own_labels, public_uid_name, uid_name
from services.infra.messages import Text

REASON_KEYS: dict[str, str] = {
    "empty": "choco.notation.empty",
    "keyword": "choco.notation.keyword",
    "missing_card": "choco.notation.missing_card",
    "line": "choco.notation.line",
    "missing_target": "choco.notation.missing_target",
    "no_targets_here": "choco.notation.no_targets_here",
    "ambiguous": "choco.notation.ambiguous",
    "too_short": "choco.notation.too_short",
    "unknown_card": "choco.notation.unknown_card",
    "no_such_target": "choco.notation.no_such_target",
}
DESCRIBE_KEYS: dict[str, str] = {
    "summon": "choco.notation.step.summon",
    "summon_targets": "choco.notation.step.summon_targets",
    "play_effect": "choco.notation.step.play_effect",
    "play_effect_targets": "choco.notation.step.play_effect_targets",
    "move": "choco.notation.step.move",
    "attack": "choco.notation.step.attack",
    "deck_attack": "choco.notation.step.deck_attack",
    "discard": "choco.notation.step.discard",
}

KEYWORDS: dict[str, str] = {
    "invoque": "summon",
    "invoquer": "summon",
    "summon": "summon",
    "effet": "play_effect",
    "effect": "play_effect",
    "deplace": "move",
    "deplacer": "move",
    "move": "move",
    "attaque": "attack",
    "attaquer": "attack",
    "attack": "attack",
    "defausse": "discard",
    "defausser": "discard",
    "discard": "discard",
}
# Canonical keywords written by `to_text`, per language (accents are ignored when parsing).
WRITTEN: dict[str, dict[str, str]] = {
    "fr": {
        "summon": "invoque",
        "play_effect": "effet",
        "move": "déplace",
        "attack": "attaque",
        "discard": "défausse",
        "front": "front",
        "reserve": "réserve",
        "deck": "pioche",
    },
    "en": {
        "summon": "summon",
        "play_effect": "effect",
        "move": "move",
        "attack": "attack",
        "discard": "discard",
        "front": "front",
        "reserve": "reserve",
        "deck": "deck",
    },
}
LINE_WORDS: dict[str, Line] = {"front": "front", "reserve": "reserve"}
DECK_WORDS = frozenset({"pioche", "deck"})
ARROWS = ("->", "→")
LABEL = re.compile(r"^(m|f|r|af|ar|of|or)(\d{1,2})$")
MIN_PREFIX = 3


class NotationError(BadInput):
    """The text does not follow the notation; `step` is the 1-based step number, `token` what failed."""

    key = "choco.notation.keyword"

    def __init__(self, reason: str, step: int, token: str) -> None:
        super().__init__(REASON_KEYS[reason], step=step, token=token)
        self.reason = reason


class UnownedCard(BadInput):
    """A well-formed reference to a card the player does not hold: the rulebook's fault V.1 (the game
    service lets the opponent draw one more card and asks for a correction)."""

    key = "choco.notation.unowned"

    def __init__(self, step: int, token: str) -> None:
        super().__init__(self.key, step=step, token=token)


def fold(text: str) -> str:
    """Lower case, accents and typographic apostrophes removed, spaces collapsed: how words compare.

    Most of a declaration is ASCII (« attaque F1 > AF1 »): NFKD leaves ASCII as it is and finds no
    combining mark in it, so such a text is only lowered and its spaces collapsed (a turn folds some
    fifteen words, 2 µs each through the full path)."""
    if text.isascii():
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'"))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    return " ".join(bare.split())


@cache
def name_key(text: str) -> str:
    """A name as compared with a reference: folded, apostrophes dropped, hyphens as spaces."""
    return " ".join(fold(text).replace("'", "").replace("-", " ").split())


class _Resolver:
    """Resolves references against the state at the start of the turn."""

    def __init__(self, state: ChocoState, seat: int, catalog: ChocoCatalog) -> None:
        self.state, self.seat, self.catalog = state, seat, catalog
        self.mine, self.theirs = state.sides[seat], state.sides[1 - seat]
        self.used: set[str] = set()  # hand cards already played by an earlier step (copies of one card)

    def _label(self, ref: str) -> tuple[str, int] | None:
        match = LABEL.match(fold(ref).replace(" ", ""))
        if match is None:
            return None
        zone = {"of": "af", "or": "ar"}.get(match.group(1), match.group(1))
        return zone, int(match.group(2))

    def _zone(self, zone: str) -> tuple[Card, ...]:
        return {
            "m": self.mine.hand,
            "f": self.mine.front,
            "r": self.mine.reserve,
            "af": self.theirs.front,
            "ar": self.theirs.reserve,
        }[zone]

    def _by_name(self, ref: str, pools: Sequence[tuple[Card, ...]], step: int) -> Card | None:
        """The card a name designates among `pools` (searched in order): an exact name, else a unique
        prefix of at least three letters; None when no card of the pools has that name."""
        key = name_key(ref)
        letters = sum(ch.isalnum() for ch in key)
        if letters == 0:
            raise NotationError("missing_card", step, ref)
        if letters < MIN_PREFIX and not any(key in self._names(c.id) for c in self.catalog.cards):
            raise NotationError("too_short", step, ref)
        for pool in pools:
            exact = [c for c in pool if key in self._names(c.card_id)]
            prefixed = [c for c in pool if any(n.startswith(key) for n in self._names(c.card_id))]
            found = exact or (prefixed if letters >= MIN_PREFIX else [])
            if not found:
                continue
            if len({c.card_id for c in found}) > 1:
                raise NotationError("ambiguous", step, ref)
            return next((c for c in found if c.uid not in self.used), found[0])
        return None

    def _names(self, card_id: str) -> tuple[str, ...]:
        card = self.catalog.card(card_id)
        return (card_id,) if card is None else (name_key(card.name.fr), name_key(card.name.en))

    def _known(self, ref: str) -> bool:
        """Whether any catalog card has this name (else the reference is a typo, not a fault)."""
        key = name_key(ref)
        return any(any(n.startswith(key) for n in self._names(c.id)) for c in self.catalog.cards)

    def own(self, ref: str, step: int, hand_first: bool) -> str:
        """A card the player acts with: in their hand or on their board."""
        label = self._label(ref)
        if label is not None:
            zone, index = label
            cards = self._zone(zone)
            if zone in ("af", "ar") or not 1 <= index <= len(cards):
                raise UnownedCard(step, ref)
            return cards[index - 1].uid
        board = self.mine.front + self.mine.reserve
        pools = (self.mine.hand, board) if hand_first else (board, self.mine.hand)
        card = self._by_name(ref, pools, step)
        if card is None:
            if self._known(ref):
                raise UnownedCard(step, ref)
            raise NotationError("unknown_card", step, ref)
        return card.uid

    def target(self, ref: str, step: int, side: str | None) -> str:
        """A wizard aimed at: `side` "enemy" (the opponent's board), "ally" (own board, then hand for a
        card summoned this turn) or None (anywhere on either board)."""
        label = self._label(ref)
        if label is not None:
            zone, index = label
            cards = self._zone(zone)
            if not 1 <= index <= len(cards):
                raise NotationError("no_such_target", step, ref)
            return cards[index - 1].uid
        mine_board = self.mine.front + self.mine.reserve
        theirs = self.theirs.front + self.theirs.reserve
        pools = {
            "enemy": (theirs,),
            "ally": (mine_board, self.mine.hand),
        }.get(side or "", (mine_board, theirs, self.mine.hand))
        card = self._by_name(ref, pools, step)
        if card is None:
            if self._known(ref):
                raise NotationError("no_such_target", step, ref)
            raise NotationError("unknown_card", step, ref)
        return card.uid

    def targets(self, raw: str, card_uid: str, step: int) -> tuple[str, ...]:
        refs = [r.strip() for r in raw.split(",")]
        if not all(refs):
            raise NotationError("missing_target", step, raw.strip())
        card = next((c for c in self.mine.hand + self.mine.board() if c.uid == card_uid), None)
        effect = self.state.effects.get(card.card_id) if card is not None else None
        kinds = chosen_kinds(effect) if effect is not None else []
        return tuple(
            self.target(ref, step, kinds[i] if i < len(kinds) else None) for i, ref in enumerate(refs)
        )


def _split_arrow(text: str) -> tuple[str, str | None]:
    for arrow in ARROWS:
        if arrow in text:
            head, _, tail = text.partition(arrow)
            return head.strip(), tail
    return text.strip(), None


def _last_line(body: str) -> tuple[str, Line | None]:
    """Split a trailing line word off a card reference: "Merlin réserve" -> ("Merlin", "reserve")."""
    words = body.split()
    if len(words) >= 2 and fold(words[-1]) in LINE_WORDS:
        return " ".join(words[:-1]), LINE_WORDS[fold(words[-1])]
    return body, None


def _parse_step(raw: str, n: int, resolver: _Resolver) -> Step:
    head, _, rest = raw.strip().partition(" ")
    kind = KEYWORDS.get(fold(head))
    if kind is None:
        raise NotationError("keyword", n, head)
    rest = rest.strip()
    if kind == "attack":
        for mark in ARROWS:
            rest = rest.replace(mark, ">")
        attacker, sep, target = rest.partition(">")
        if not attacker.strip():
            raise NotationError("missing_card", n, raw.strip())
        if not sep or not target.strip():
            raise NotationError("missing_target", n, raw.strip())
        uid = resolver.own(attacker.strip(), n, hand_first=False)
        if fold(target) in DECK_WORDS:
            return DeckAttack(attacker=uid)
        return Attack(attacker=uid, target=resolver.target(target.strip(), n, "enemy"))
    body, arrow = _split_arrow(rest)
    if arrow is not None and kind not in ("summon", "play_effect"):
        raise NotationError("no_targets_here", n, raw.strip())
    line: Line | None = None
    if kind in ("summon", "move"):
        body, line = _last_line(body)
        if kind == "move" and line is None:
            raise NotationError("line", n, body.split()[-1] if body.split() else raw.strip())
    if not body:
        raise NotationError("missing_card", n, raw.strip())
    uid = resolver.own(body, n, hand_first=kind != "move")
    if kind == "move":
        assert line is not None
        return Move(card=uid, line=line)
    targets = resolver.targets(arrow, uid, n) if arrow is not None else ()
    if kind in ("summon", "play_effect", "discard"):
        resolver.used.add(uid)
    if kind == "summon":
        return Summon(card=uid, line=line or "front", targets=targets)
    if kind == "play_effect":
        return PlayEffect(card=uid, targets=targets)
    return Discard(card=uid)


def split_steps(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[;\n]+", text) if part.strip()]


END_WORDS = frozenset({"fin", "fin du tour", "passe", "end", "end turn", "pass"})


def parse_turn(text: str, state: ChocoState, seat: int, catalog: ChocoCatalog) -> tuple[Step, ...]:
    """The steps of `seat`'s turn written in the notation, references resolved against `state` (the
    state at the start of the turn). `fin` (or `passe`, `end`, `pass`) alone declares a turn without
    any action. Raises NotationError or UnownedCard (both BadInput)."""
    parts = split_steps(text)
    if not parts:
        raise NotationError("empty", 0, "")
    if len(parts) == 1 and fold(parts[0]) in END_WORDS:
        return ()
    resolver = _Resolver(state, seat, catalog)
    return tuple(_parse_step(part, n, resolver) for n, part in enumerate(parts, start=1))


def _labels(state: ChocoState, seat: int) -> dict[str, str]:
    return {**enemy_labels(state.sides[1 - seat]), **own_labels(state.sides[seat])}


def to_text(steps: Sequence[Step], state: ChocoState, seat: int, lang: str = "fr") -> str:
    """The canonical notation of `steps` (position labels of the start-of-turn `state`). Raises
    ValueError for a card the start of the turn does not show (one drawn during the turn)."""
    words = WRITTEN["en" if lang.startswith("en") else "fr"]
    labels = _labels(state, seat)

    def ref(uid: str) -> str:
        if uid not in labels:
            raise ValueError(f"card {uid} has no position at the start of the turn")
        return labels[uid]

    out: list[str] = []
    for step in steps:
        if isinstance(step, Summon | PlayEffect):
            text = f"{words[step.kind]} {ref(step.card)}"
            if isinstance(step, Summon):
                text += f" {words[step.line]}"
            if step.targets:
                text += " -> " + ", ".join(ref(t) for t in step.targets)
            out.append(text)
        elif isinstance(step, Move):
            out.append(f"{words['move']} {ref(step.card)} {words[step.line]}")
        elif isinstance(step, Attack):
            out.append(f"{words['attack']} {ref(step.attacker)} > {ref(step.target)}")
        elif isinstance(step, DeckAttack):
            out.append(f"{words['attack']} {ref(step.attacker)} > {words['deck']}")
        else:
            out.append(f"{words['discard']} {ref(step.card)}")
    return "; ".join(out)


def describe(
    steps: Sequence[Step | Prepare],
    state: ChocoState,
    seat: int,
    catalog: ChocoCatalog,
    *,
    public_after: ChocoState | None = None,
) -> list[Text]:
    """The steps in plain language, for the guided panel's preview and the confirmation. With
    `public_after` (the state once the turn is played) the text is for the thread: a card that neither
    `state` nor `public_after` shows face up (a card still in the hand, e.g. in a refused step) is not
    named, since a card never played is the player's secret."""
    if public_after is None:
        states: tuple[ChocoState, ...] = (state,)

        def name(uid: str) -> Text:
            return uid_name(states, catalog, uid)

    else:
        states = (state, public_after)

        def name(uid: str) -> Text:
            return public_uid_name(states, catalog, uid)

    texts: list[Text] = []
    for step in steps:
        if isinstance(step, Prepare):  # the preparatory placement (the guided panel offers it)
            texts.append(
                Text("choco.notation.step.prepare", {"card": name(step.card), "line": line_text(step.line)})
            )
        elif isinstance(step, Summon):
            params: dict[str, object] = {"card": name(step.card), "line": line_text(step.line)}
            if step.targets:
                params["targets"] = join([name(t) for t in step.targets])
                texts.append(Text(DESCRIBE_KEYS["summon_targets"], params))
            else:
                texts.append(Text(DESCRIBE_KEYS["summon"], params))
        elif isinstance(step, PlayEffect):
            if step.targets:
                targets = join([name(t) for t in step.targets])
                texts.append(
                    Text(DESCRIBE_KEYS["play_effect_targets"], {"card": name(step.card), "targets": targets})
                )
            else:
                texts.append(Text(DESCRIBE_KEYS["play_effect"], {"card": name(step.card)}))
        elif isinstance(step, Move):
            texts.append(Text(DESCRIBE_KEYS["move"], {"card": name(step.card), "line": line_text(step.line)}))
        elif isinstance(step, Attack):
            texts.append(
                Text(DESCRIBE_KEYS["attack"], {"attacker": name(step.attacker), "target": name(step.target)})
            )
        elif isinstance(step, DeckAttack):
            texts.append(Text(DESCRIBE_KEYS["deck_attack"], {"attacker": name(step.attacker)}))
        else:
            texts.append(Text(DESCRIBE_KEYS["discard"], {"card": name(step.card)}))
    return texts
