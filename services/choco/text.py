"""Small building blocks shared by the Chocobataille renderers and the text notation: card names as
Text that resolves in the reader's language, position labels (M1, F1, R1, AF1, AR1), finding an instance
in a state, and joining names into a sentence.

Why a Text per card name rather than a string: posts are stored in the outbox and rendered later for each
reader, so the language is unknown when they are built. A name is a `Text.per_locale` of both languages:
rendering it picks the reader's, with no catalog text to look up and format (a turn's two posts hold about
thirty names; docs/performance.md, issue 39). `choco.board.name` ("{fr}{en:.0}" in French, "{en}{fr:.0}"
in English: `{x:.0}` prints nothing) renders a name written by a process that still builds names with it
(several processes on one database, docs/deployment.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import LocalizedText
from engine.choco import Card, ChocoCard, ChocoCatalog, ChocoState, Effect, Line, Side
from engine.errors import IllegalAction
from services.infra.messages import RAW, Text

LINE_KEYS: dict[str, str] = {"front": "choco.event.line.front", "reserve": "choco.event.line.reserve"}
# Position labels, the same in both languages; the notation also accepts OF/OR for the opponent's lines.
HAND, FRONT, RESERVE, ENEMY_FRONT, ENEMY_RESERVE = "M", "F", "R", "AF", "AR"


KEPT_TEXTS = 4096  # about every name and effect of the catalog in both languages; dropped whole beyond it

_kept: dict[tuple[str, str], Text] = {}


def localized(text: LocalizedText) -> Text:
    """A catalog text (both languages) as one Text that each reader sees in their own language.

    The same Text for the same two texts: a turn's posts hold about 35 of them (each card's name, a
    hand's effects), made again at every turn from the same catalog. A Text is never changed once made,
    so a post shares it safely; the writer's thread and the loop share the set (plain dict operations)."""
    key = (text.fr, text.en)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= KEPT_TEXTS:
            _kept.clear()
        found = _kept[key] = Text.per_locale({"fr": text.fr, "en": text.en})
    return found


NAME_KEY = "choco.board.name"  # a name as an older process writes it: still in the catalogs (see above)


def card_of(catalog: ChocoCatalog, card_id: str) -> ChocoCard | None:
    return catalog.card(card_id)


# The names of the catalog's cards by id, for the catalog whose cards they are (the bot has one; tests
# switch between several): a turn's posts name some thirty cards, each a catalog look-up and a kept-text
# look-up before.
_names: tuple[tuple[ChocoCard, ...], dict[str, Text]] = ((), {})


def card_name(catalog: ChocoCatalog, card_id: str) -> Text:
    """The card's name in the reader's language; its id verbatim if the catalog no longer has it."""
    global _names
    cards, names = _names
    if cards is not catalog.cards:
        cards, names = _names = (catalog.cards, {})
    found = names.get(card_id)
    if found is None:
        card = catalog.card(card_id)
        if card is None:
            return Text.raw(card_id)
        found = names[card_id] = localized(card.name)
    return found


def effect_of(state: ChocoState, catalog: ChocoCatalog, card_id: str) -> Effect | None:
    """The effect as copied into the game at its start (a catalog edit never changes a game), else the
    catalog's."""
    effect = state.effects.get(card_id)
    if effect is not None:
        return effect
    card = catalog.card(card_id)
    return card.effect if card is not None else None


def player(names: Sequence[str | Text], seat: int) -> Text:
    """A seat's name: a player's mention, or the bot's localized name in a practice game."""
    name = names[seat] if 0 <= seat < len(names) else "?"
    return name if isinstance(name, Text) else verbatim(name)


# The Texts without parameters and the verbatim ones a turn's posts hold at every turn: some twenty-five
# labels (a line's title, « vide », a card's type) and a dozen players' names, made again at every turn
# before. Shared as `localized` shares a name: a Text is never changed once made.
_made: dict[tuple[str, str], Text] = {}


def bare(key: str) -> Text:
    """The Text of the message `key`, which takes no parameter."""
    return _kept_text(key, "")


def verbatim(text: str) -> Text:
    """`Text.raw(text)`, made once."""
    return _kept_text(RAW, text)


def _kept_text(key: str, text: str) -> Text:
    found = _made.get((key, text))
    if found is None:
        if len(_made) >= KEPT_TEXTS:
            _made.clear()
        found = _made[(key, text)] = Text.raw(text) if key == RAW else Text(key)
    return found


def zones(side: Side) -> Iterable[tuple[str, tuple[Card, ...]]]:
    yield "hand", side.hand
    yield "front", side.front
    yield "reserve", side.reserve
    yield "graveyard", side.graveyard
    yield "pioche", side.pioche


def locate(states: Iterable[ChocoState], uid: str) -> Card | None:
    """The instance `uid` in any zone of either side of the first state that holds it (a card killed
    during the events is already in the graveyard of the later state), or in the active effects."""
    for state in states:
        card = _instances(state).get(uid)
        if card is not None:
            return card
    return None


KEPT_INDEXES = 8  # the states of the turns being told (before and after each); dropped whole beyond it

_indexes: dict[int, tuple[ChocoState, dict[str, Card]]] = {}


def _instances(state: ChocoState) -> dict[str, Card]:
    """The instances of `state` by id, the first met in `locate`'s order (each side's zones, then the
    active effects), made once per state: a turn names some fifteen instances in the states around it
    (the reply, the thread's account, the board), each a scan of up to eighty cards before. The entry
    holds its state, so an id is never taken for another state's; a state is never changed once made,
    so the index stays right; the writer's thread and the loop share the set (plain dict operations)."""
    found = _indexes.get(id(state))
    if found is not None and found[0] is state:
        return found[1]
    index: dict[str, Card] = {}
    for side in state.sides:
        for _, cards in zones(side):
            for card in cards:
                index.setdefault(card.uid, card)
    for active in state.actives:
        if active.card is not None:
            index.setdefault(active.card.uid, active.card)
    if len(_indexes) >= KEPT_INDEXES:
        _indexes.clear()
    _indexes[id(state)] = (state, index)
    return index


def uid_name(states: Sequence[ChocoState], catalog: ChocoCatalog, uid: str | None) -> Text:
    card = locate(states, uid) if uid is not None else None
    return card_name(catalog, card.card_id) if card is not None else Text("choco.board.unknown_card")


def is_public(states: Iterable[ChocoState], uid: str) -> bool:
    """Whether a spectator has seen the instance `uid` in one of `states`: face up on a board (after the
    preparatory turn), in a graveyard or as an active effect. A card only ever in a hand or a pioche has
    not been seen, and a post must not name it."""
    for state in states:
        for side in state.sides:
            lines = (*side.front, *side.reserve) if state.turn > 0 else ()
            if any(c.uid == uid for c in (*lines, *side.graveyard)):
                return True
        if any(a.card is not None and a.card.uid == uid for a in state.actives):
            return True
    return False


def public_uid_name(states: Sequence[ChocoState], catalog: ChocoCatalog, uid: str) -> Text:
    """`uid_name` for a public post: a card no spectator has seen is "a hidden card", never its name."""
    return uid_name(states, catalog, uid) if is_public(states, uid) else Text("choco.play.hidden_card")


def line_text(line: str) -> Text:
    return bare(LINE_KEYS["reserve" if line == "reserve" else "front"])


def join(items: Sequence[Text]) -> Text:
    """ "A", "A et B", "A, B et C" in the reader's language; "aucun sorcier" when empty."""
    if not items:
        return Text("choco.event.nobody")
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Text("choco.board.and", {"first": items[0], "last": items[1]})
    return Text("choco.board.comma", {"head": items[0], "tail": join(items[1:])})


def own_labels(side: Side) -> dict[str, str]:
    """uid -> label for a player's own cards: M1.. (hand), F1.. (front), R1.. (reserve), in tuple order."""
    labels: dict[str, str] = {}
    for prefix, cards in ((HAND, side.hand), (FRONT, side.front), (RESERVE, side.reserve)):
        for i, card in enumerate(cards, start=1):
            labels.setdefault(card.uid, f"{prefix}{i}")
    return labels


def enemy_labels(side: Side) -> dict[str, str]:
    """uid -> label for the opponent's board: AF1.. (front), AR1.. (reserve)."""
    labels: dict[str, str] = {}
    for prefix, cards in ((ENEMY_FRONT, side.front), (ENEMY_RESERVE, side.reserve)):
        for i, card in enumerate(cards, start=1):
            labels[card.uid] = f"{prefix}{i}"
    return labels


def stats(card: Card) -> dict[str, object]:
    return {"pa": card.pa, "pv": card.pv, "max_pv": card.max_pv}


def board_card(catalog: ChocoCatalog, label: str, card: Card, hidden: bool = False) -> Text:
    """One board slot: "F1 Merlin l'Ancien 4 PA / 7 PV" ("7/9 PV" when wounded), or face down."""
    if hidden:
        return Text("choco.board.face_down", {"label": label})
    key = "choco.board.card_hurt" if card.pv < card.max_pv else "choco.board.card"
    return Text(key, {"label": label, "name": card_name(catalog, card.card_id), **stats(card)})


def line_cards(catalog: ChocoCatalog, prefix: str, cards: tuple[Card, ...], hidden: bool) -> list[Text]:
    if not cards:
        return [bare("choco.board.empty")]
    return [board_card(catalog, f"{prefix}{i}", c, hidden) for i, c in enumerate(cards, start=1)]


def line_of(side: Side, uid: str) -> Line | None:
    if any(c.uid == uid for c in side.front):
        return "front"
    if any(c.uid == uid for c in side.reserve):
        return "reserve"
    return None


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


# Why the engine refused a declared step, as the referee says it.
REASON_TEXT = {
    "bad_effect_target": "choco.reason.bad_effect_target",
    "bad_target": "choco.reason.bad_target",
    "board_full": "choco.reason.board_full",
    "cannot_attack": "choco.reason.cannot_attack",
    "cannot_move": "choco.reason.cannot_move",
    "cannot_play_effect": "choco.reason.cannot_play_effect",
    "cannot_summon": "choco.reason.cannot_summon",
    "front_empty": "choco.reason.front_empty",
    "line_full": "choco.reason.line_full",
    "no_deck_attack": "choco.reason.no_deck_attack",
    "not_in_hand": "choco.reason.not_in_hand",
    "not_your_turn": "choco.reason.not_your_turn",
    "phase_order": "choco.reason.phase_order",
    "summon_required": "choco.reason.summon_required",
    "cannot_prepare": "choco.reason.cannot_prepare",
    "preparatory_turn": "choco.reason.preparatory_turn",
    "game_over": "choco.reason.game_over",
    "unknown_action": "choco.reason.unknown_action",
    "bad_action": "choco.reason.bad_action",
}


def reason_text(error: IllegalAction) -> Text:
    why = str(error.params.get("reason", ""))
    return Text(REASON_TEXT.get(why, "choco.reason.unknown_action"))
