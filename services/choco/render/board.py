"""The referee's posts for Chocobataille, as localizable Text: the board in the rulebook's layout (II), the
"Effets actifs" panel, a player's private hand message and the result. Pure functions of the state and the
catalog (no Discord, no database), so the game service can store them in the outbox and the Discord layer
renders them in each reader's language.

What is public follows the rules: the board (face down during the preparatory turn), the graveyards and
counts; never a hand card to anyone but its owner, never a pioche card. The narration of events lives in
services/choco/narrate.py and is re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.choco import Active, Card, ChocoCatalog, ChocoState, Side, Timed
from engine.protocol import Outcome
from services.choco.names import TYPE_KEYS
from services.choco.narrate import narrate
from services.choco.text import (
    ENEMY_FRONT,
    ENEMY_RESERVE,
    FRONT,
    HAND,
    RESERVE,
    bare,
    card_name,
    effect_of,
    line_cards,
    localized,
    player,
    signed,
    uid_name,
    verbatim,
)
from services.infra.messages import Text

__all__ = ["active_effects", "board", "hand", "narrate", "outcome"]

SEPARATOR = "_______________________"
HAND_MARK = "⎔"
TIMED_NAME_KEYS = {
    "protect": "choco.board.timed.protect",
    "stun": "choco.board.timed.stun",
    "modify": "choco.board.timed.modify",
}
TIMED_TEXT_KEYS = {
    "protect": "choco.board.timed_text.protect",
    "stun": "choco.board.timed_text.stun",
    "modify": "choco.board.timed_text.modify",
}
OUTCOME_KEYS = {
    "all_wizards_lost": "choco.outcome.all_wizards_lost",
    "both_out": "choco.outcome.both_out",
    "turn_limit": "choco.outcome.turn_limit",
    "forfeit_voluntary": "choco.outcome.forfeit_voluntary",
    "forfeit_absence": "choco.outcome.forfeit_absence",
}


def _counts(side: Side) -> tuple[Text, Text, Text]:
    """❑ pioche, 𓂬 one ⎔ per hand card, ☠ graveyard, each glyph with its word: counts only, never a card."""
    return (
        Text("choco.board.pioche", {"count": len(side.pioche)}),
        Text("choco.board.hand", {"cards": HAND_MARK * len(side.hand), "count": len(side.hand)}),
        Text("choco.board.graveyard", {"count": len(side.graveyard)}),
    )


def _line(catalog: ChocoCatalog, key: str, prefix: str, cards: tuple[Card, ...], hidden: bool) -> list[Text]:
    return [bare(key), *line_cards(catalog, prefix, cards, hidden)]


def board(state: ChocoState, catalog: ChocoCatalog, names: Sequence[str | Text]) -> Text:
    """The rules' layout (II): player 1 on top (title, ❑, 𓂬, ☠, reserve, front), the separator, then
    player 2 mirrored (front, reserve, ☠, 𓂬, ❑, title). During the preparatory turn placed cards are
    face down: the post is public and the secret placements are revealed together (IV.1)."""
    hidden = state.turn == 0
    top, bottom = state.sides
    pioche, hand_, grave = _counts(top)
    lines: list[Text] = [
        Text("choco.board.title", {"name": player(names, 0)}),
        pioche,
        hand_,
        grave,
        *_line(catalog, "choco.board.reserve", RESERVE, top.reserve, hidden),
        *_line(catalog, "choco.board.front", FRONT, top.front, hidden),
        verbatim(SEPARATOR),
    ]
    pioche, hand_, grave = _counts(bottom)
    lines += [
        *_line(catalog, "choco.board.front", FRONT, bottom.front, hidden),
        *_line(catalog, "choco.board.reserve", RESERVE, bottom.reserve, hidden),
        grave,
        hand_,
        pioche,
        Text("choco.board.title", {"name": player(names, 1)}),
    ]
    return Text.lines(lines)


def _active_entry(state: ChocoState, catalog: ChocoCatalog, active: Active) -> list[Text]:
    effect = effect_of(state, catalog, active.card_id)
    source = card_name(catalog, active.card_id)
    if effect is None:
        return [Text("choco.board.effect_entry", {"effect": source, "source": source})]
    head = Text("choco.board.effect_entry", {"effect": localized(effect.name), "source": source})
    if active.left is None:
        return [head, Text("choco.board.effect_text", {"text": localized(effect.text)})]
    return [head, Text("choco.board.effect_text_left", {"text": localized(effect.text), "left": active.left})]


def _timed_entry(state: ChocoState, catalog: ChocoCatalog, timed: Timed) -> list[Text]:
    """A protect / stun / modify still running, named by the effect that applied it (the rulebook's "Nom de
    l'effet (Nom du sorcier)"), on the wizard it affects, with the turns left. A step stored before its
    card was recorded falls back to the mechanic's name."""
    wizard = uid_name((state,), catalog, timed.uid)
    effect = effect_of(state, catalog, timed.card_id) if timed.card_id is not None else None
    name = localized(effect.name) if effect is not None else Text(TIMED_NAME_KEYS[timed.kind])
    head = Text("choco.board.effect_entry", {"effect": name, "source": wizard})
    params: dict[str, object] = {"left": timed.left}
    if timed.kind == "modify":
        params |= {"pa": signed(timed.pa), "pv": signed(timed.pv)}
    return [head, Text(TIMED_TEXT_KEYS[timed.kind], params)]


def active_effects(state: ChocoState, catalog: ChocoCatalog, names: Sequence[str | Text]) -> Text:
    """Per player, "Effets actifs": continuous effect wizards and staying pure effects ("Effect (source)"
    then "⇝ description"), and the timed protect / stun / modify they applied, with the turns left.
    A timed step is listed under the player who applied it, since its turns are counted in theirs."""
    lines: list[Text] = []
    for seat in (0, 1):
        lines += [
            Text("choco.board.player", {"name": player(names, seat)}),
            bare("choco.board.effects_title"),
        ]
        entries: list[Text] = []
        for active in state.actives:
            if active.owner == seat:
                entries += _active_entry(state, catalog, active)
        for timed in state.timed:
            if timed.owner == seat:
                entries += _timed_entry(state, catalog, timed)
        lines += entries or [bare("choco.board.none")]
    return Text.lines(lines)


def _hand_card(state: ChocoState, catalog: ChocoCatalog, label: str, card: Card) -> list[Text]:
    entry = catalog.card(card.card_id)
    type_key = TYPE_KEYS[entry.type] if entry is not None else TYPE_KEYS["pure" if card.pure else "normal"]
    params: dict[str, object] = {
        "label": label,
        "name": card_name(catalog, card.card_id),
        "type": bare(type_key),
    }
    if card.pure:
        lines = [Text("choco.hand.pure", params)]
    else:
        lines = [Text("choco.hand.wizard", {**params, "pa": card.pa, "pv": card.pv})]
    effect = effect_of(state, catalog, card.card_id)
    if effect is not None:
        lines.append(
            Text("choco.hand.effect", {"effect": localized(effect.name), "text": localized(effect.text)})
        )
    return lines


def hand(state: ChocoState, seat: int, catalog: ChocoCatalog) -> Text:
    """The private message to `seat`: their hand M1..M8 (name, type, PA/PV or pure effect, effect), their
    board F1../R1.., the opponent's board AF1../AR1.. (face down during the preparatory turn) and the
    counts. The labels are the references of the text notation (docs/choco/notation.md)."""
    mine, theirs = state.sides[seat], state.sides[1 - seat]
    lines: list[Text] = [Text("choco.hand.title", {"count": len(mine.hand)})]
    for i, card in enumerate(mine.hand, start=1):
        lines += _hand_card(state, catalog, f"{HAND}{i}", card)
    if not mine.hand:
        lines.append(bare("choco.hand.empty"))
    lines.append(bare("choco.hand.board_title"))
    lines += _line(catalog, "choco.board.front", FRONT, mine.front, False)
    lines += _line(catalog, "choco.board.reserve", RESERVE, mine.reserve, False)
    lines.append(Text("choco.hand.counts", {"pioche": len(mine.pioche), "graveyard": len(mine.graveyard)}))
    hidden = state.turn == 0
    lines.append(bare("choco.hand.opponent_title"))
    lines += _line(catalog, "choco.board.front", ENEMY_FRONT, theirs.front, hidden)
    lines += _line(catalog, "choco.board.reserve", ENEMY_RESERVE, theirs.reserve, hidden)
    lines.append(
        Text(
            "choco.hand.opponent_counts",
            {"hand": len(theirs.hand), "pioche": len(theirs.pioche), "graveyard": len(theirs.graveyard)},
        )
    )
    lines.append(bare("choco.hand.hint"))
    return Text.lines(lines)


def outcome(outcome: Outcome | None, names: Sequence[str | Text]) -> Text:
    """The result in words, from the engine's reason `choco.outcome.<why>` (scores: wizards left)."""
    result = outcome
    if result is None:
        return Text("choco.outcome.ongoing")
    why = result.reason.removeprefix("choco.outcome.")
    key = OUTCOME_KEYS.get(why, "choco.outcome.other")
    scores = (*result.scores, 0, 0)
    winner = result.winners[0] if result.winners else None
    params: dict[str, object] = {
        "name0": player(names, 0),
        "name1": player(names, 1),
        "score0": scores[0],
        "score1": scores[1],
        "winner": player(names, winner) if winner is not None else Text.raw(""),
        "loser": player(names, 1 - winner) if winner is not None else Text.raw(""),
    }
    return Text(key, params)
