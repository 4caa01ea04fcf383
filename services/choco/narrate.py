"""The referee's account of what happened, in plain language: one Text per public engine event.

Only public events are told (`visible_to is None`); the private ones (`drew`, `redrew`, `effect_recall`)
name hidden cards and are deliberately silent, their public twins (`drew_count`, `redrew_count`,
`effect_recall_count`) give the counts. Instance ids are resolved to names with the states before and
after the events: every id a public event carries is a card on the board or in a graveyard, or one the
rules make public (a card destroyed by a penalty or by a deck attack, taken back from the graveyard); a
pioche card a deck attack wounds without destroying it stays unnamed (docs/choco/referee.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from engine.choco import ChocoCatalog, ChocoState, EffectStep
from engine.protocol import Event
from services.choco.text import card_name, effect_of, join, line_text, localized, player, signed, uid_name
from services.infra.messages import Text

# One message per public event kind; the keys are literal so the i18n test sees them.
EVENT_KEYS: dict[str, str] = {
    "prepared": "choco.event.prepared",
    "revealed": "choco.event.revealed",
    "first_player": "choco.event.first_player",
    "drew_count": "choco.event.drew_count",
    "summoned": "choco.event.summoned",
    "moved": "choco.event.moved",
    "attacked": "choco.event.attacked",
    "deck_attacked": "choco.event.deck_attacked",
    "discarded": "choco.event.discarded",
    "turn_ended": "choco.event.turn_ended",
    "penalty_destroyed": "choco.event.penalty_destroyed",
    "turn_passed": "choco.event.turn_passed",
    "penalty_placed": "choco.event.penalty_placed",
    "prepare_forced": "choco.event.prepare_forced",
    "penalty_moved": "choco.event.penalty_moved",
    "disqualified": "choco.event.disqualified",
    "penalty_cancelled": "choco.event.penalty_cancelled",
    "pass_forgiven": "choco.event.pass_forgiven",
    "forfeit": "choco.event.forfeit",
    "fault_unowned_card": "choco.event.fault_unowned_card",
    "played_effect": "choco.event.played_effect",
    "effect": "choco.event.effect",
    "effect_step": "choco.event.effect_step",
    "effect_discard": "choco.event.effect_discard",
    "effect_mill": "choco.event.effect_mill",
    "effect_recall_count": "choco.event.effect_recall_count",
    "effect_expired": "choco.event.effect_expired",
    "effect_ended": "choco.event.effect_ended",
    "magic_excess": "choco.event.magic_excess",
    "redrew_count": "choco.event.redrew_count",
}
# Private events: their public counterparts above tell the table what it may know.
SILENT: frozenset[str] = frozenset({"drew", "redrew", "effect_recall"})
# Variants chosen by the event's data.
VARIANT_KEYS: dict[str, str] = {
    "drew_none": "choco.event.drew_none",
    "attacked_killed": "choco.event.attacked_killed",
    "deck_killed": "choco.event.deck_attacked_killed",
    "deck_sacrificed": "choco.event.deck_attacked_sacrificed",
    "deck_killed_sacrificed": "choco.event.deck_attacked_killed_sacrificed",
    "turn_ended_last": "choco.event.turn_ended_last",
    "penalty_destroyed_hand": "choco.event.penalty_destroyed_hand",
    "penalty_cancelled_hand": "choco.event.penalty_cancelled_hand",
    "forfeit_absence": "choco.event.forfeit_absence",
    "effect_pure": "choco.event.effect_pure",
}
STEP_KEYS: dict[str, str] = {
    "damage": "choco.event.step.damage",
    "heal": "choco.event.step.heal",
    "modify": "choco.event.step.modify",
    "modify_timed": "choco.event.step.modify_timed",
    "protect": "choco.event.step.protect",
    "stun": "choco.event.step.stun",
    "destroy": "choco.event.step.destroy",
    "move": "choco.event.step.move",
    "extra_summon": "choco.event.step.extra_summon",
    "other": "choco.event.step.other",
}
TIMED_KEYS: dict[str, str] = {
    "protect": "choco.board.timed.protect",
    "stun": "choco.board.timed.stun",
    "modify": "choco.board.timed.modify",
}


class _Teller:
    """Narrates one batch of events; remembers the effect being resolved so each `effect_step` can say
    its amount (the event names the step kind and targets, the effect's definition the numbers)."""

    def __init__(
        self, before: ChocoState, after: ChocoState, catalog: ChocoCatalog, names: Sequence[str | Text]
    ):
        self.states = (before, after)
        self.after = after
        self.catalog = catalog
        self.names = names
        self.steps: tuple[EffectStep, ...] = ()
        self.next_step = 0

    def who(self, seat: int) -> Text:
        return player(self.names, seat)

    def uid(self, uid: str | None) -> Text:
        return uid_name(self.states, self.catalog, uid)

    def card(self, card_id: str) -> Text:
        return card_name(self.catalog, card_id)

    def cards(self, items: Sequence[Any]) -> Text:
        return join([self.card(str(i["card_id"] if isinstance(i, dict) else i)) for i in items])

    def tell(self, event: Event) -> Text | None:
        if event.visible_to is not None or event.kind in SILENT:
            return None
        handler = self.HANDLERS.get(event.kind)
        data = dict(event.data)
        if handler is not None:
            return handler(self, data)
        key = EVENT_KEYS.get(event.kind)
        if key is None:
            return None
        return Text(key, {"player": self.who(int(data.get("seat", 0)))})

    # --- handlers ------------------------------------------------------------------------------------

    def _revealed(self, d: dict[str, Any]) -> Text:
        params = {"player": self.who(d["seat"]), "card": self.uid(d["card"]), "line": line_text(d["line"])}
        return Text(EVENT_KEYS["revealed"], params)

    def _drew_count(self, d: dict[str, Any]) -> Text:
        if not d["count"]:
            return Text(VARIANT_KEYS["drew_none"], {"player": self.who(d["seat"])})
        return Text(EVENT_KEYS["drew_count"], {"player": self.who(d["seat"]), "count": d["count"]})

    def _redrew_count(self, d: dict[str, Any]) -> Text:
        return Text(EVENT_KEYS["redrew_count"], {"player": self.who(d["seat"]), "count": d["count"]})

    def _summoned(self, d: dict[str, Any]) -> Text:
        params = {
            "player": self.who(d["seat"]),
            "card": self.card(d["card_id"]),
            "line": line_text(d["line"]),
        }
        return Text(EVENT_KEYS["summoned"], params)

    def _moved(self, d: dict[str, Any]) -> Text:
        params = {"player": self.who(d["seat"]), "card": self.uid(d["card"]), "line": line_text(d["line"])}
        return Text(EVENT_KEYS["moved"], params)

    def _attacked(self, d: dict[str, Any]) -> Text:
        key = VARIANT_KEYS["attacked_killed"] if d["killed"] else EVENT_KEYS["attacked"]
        params = {
            "player": self.who(d["seat"]),
            "attacker": self.uid(d["attacker"]),
            "target": self.uid(d["target"]),
            "damage": d["damage"],
        }
        return Text(key, params)

    def _deck_attacked(self, d: dict[str, Any]) -> Text:
        killed, sacrificed = bool(d["killed"]), bool(d["sacrificed"])
        if killed and sacrificed:
            key = VARIANT_KEYS["deck_killed_sacrificed"]
        elif killed:
            key = VARIANT_KEYS["deck_killed"]
        elif sacrificed:
            key = VARIANT_KEYS["deck_sacrificed"]
        else:
            key = EVENT_KEYS["deck_attacked"]
        params = {
            "player": self.who(d["seat"]),
            "opponent": self.who(1 - d["seat"]),
            "attacker": self.uid(d["attacker"]),
            # A destroyed card goes face up to the graveyard; one that survives stays hidden in the pioche.
            "card": self.card(d["card_id"]) if killed else Text("choco.event.pioche_card"),
            "damage": d["damage"],
        }
        return Text(key, params)

    def _discarded(self, d: dict[str, Any]) -> Text:
        return Text(EVENT_KEYS["discarded"], {"player": self.who(d["seat"]), "card": self.card(d["card_id"])})

    def _turn_ended(self, d: dict[str, Any]) -> Text:
        params: dict[str, object] = {"player": self.who(d["seat"]), "turn": d["turn"]}
        bot_next = isinstance(self.names[1 - d["seat"]], Text)  # a practice game's bot: nobody to call
        if self.after.finished or bot_next:
            return Text(VARIANT_KEYS["turn_ended_last"], params)
        return Text(EVENT_KEYS["turn_ended"], {**params, "next": self.who(1 - d["seat"])})

    def _penalty_destroyed(self, d: dict[str, Any]) -> Text:
        key = (
            VARIANT_KEYS["penalty_destroyed_hand"] if d["from"] == "hand" else EVENT_KEYS["penalty_destroyed"]
        )
        return Text(key, {"player": self.who(d["seat"]), "card": self.card(d["card_id"])})

    def _penalty_cancelled(self, d: dict[str, Any]) -> Text:
        """A referee gave back a card a 24 h penalty destroyed (it was named then, so it may be named now)."""
        key = (
            VARIANT_KEYS["penalty_cancelled_hand"]
            if d.get("to") == "hand"
            else EVENT_KEYS["penalty_cancelled"]
        )
        return Text(key, {"player": self.who(d["seat"]), "card": self.card(d["card_id"])})

    def _penalty_placed(self, d: dict[str, Any]) -> Text:
        return Text(
            EVENT_KEYS["penalty_placed"], {"player": self.who(d["seat"]), "card": self.card(d["card_id"])}
        )

    def _penalty_moved(self, d: dict[str, Any]) -> Text:
        return Text(EVENT_KEYS["penalty_moved"], {"player": self.who(d["seat"]), "card": self.uid(d["card"])})

    def _forfeit(self, d: dict[str, Any]) -> Text:
        key = VARIANT_KEYS["forfeit_absence"] if d.get("reason") == "absence" else EVENT_KEYS["forfeit"]
        return Text(key, {"player": self.who(d["seat"]), "opponent": self.who(1 - d["seat"])})

    def _fault(self, d: dict[str, Any]) -> Text:
        params = {"player": self.who(d["seat"]), "opponent": self.who(d["bonus_to"])}
        return Text(EVENT_KEYS["fault_unowned_card"], params)

    def _played_effect(self, d: dict[str, Any]) -> Text:
        return Text(
            EVENT_KEYS["played_effect"], {"player": self.who(d["seat"]), "card": self.card(d["card_id"])}
        )

    def _effect(self, d: dict[str, Any]) -> Text:
        effect = effect_of(self.after, self.catalog, d["card_id"])
        self.steps, self.next_step = (effect.steps if effect is not None else ()), 0
        name = localized(effect.name) if effect is not None else self.card(d["card_id"])
        text = localized(effect.text) if effect is not None else Text.raw("")
        params = {"player": self.who(d["seat"]), "effect": name, "text": text}
        if d.get("card") is None:
            return Text(VARIANT_KEYS["effect_pure"], params)
        return Text(EVENT_KEYS["effect"], {**params, "source": self.uid(d["card"])})

    def _step_def(self, kind: str) -> EffectStep | None:
        """The next step of the effect being resolved with this kind (steps resolve in order)."""
        for i in range(self.next_step, len(self.steps)):
            if self.steps[i].kind == kind:
                self.next_step = i + 1
                return self.steps[i]
        return None

    def _effect_step(self, d: dict[str, Any]) -> Text:
        kind = str(d["step"])
        step = self._step_def(kind)
        if kind == "extra_summon":
            return Text(
                STEP_KEYS["extra_summon"], {"player": self.who(d["seat"]), "count": d.get("count", 1)}
            )
        targets = join([self.uid(u) for u in d.get("targets", [])])
        params: dict[str, object] = {"targets": targets}
        if step is None:
            return Text(STEP_KEYS["other"], params)
        if step.kind in ("damage", "heal"):
            return Text(STEP_KEYS[step.kind], {**params, "amount": step.amount})
        if step.kind == "modify":
            params |= {"pa": signed(step.pa), "pv": signed(step.pv)}
            if step.turns is None:
                return Text(STEP_KEYS["modify"], params)
            return Text(STEP_KEYS["modify_timed"], {**params, "turns": step.turns})
        if step.kind in ("protect", "stun"):
            return Text(STEP_KEYS[step.kind], {**params, "turns": step.turns})
        if step.kind == "move":
            return Text(STEP_KEYS["move"], {**params, "line": line_text(step.to)})
        if step.kind == "destroy":
            return Text(STEP_KEYS["destroy"], params)
        return Text(STEP_KEYS["other"], params)

    def _effect_cards(self, d: dict[str, Any], kind: str) -> Text:
        params = {"player": self.who(d["seat"]), "cards": self.cards(d["cards"]), "count": len(d["cards"])}
        return Text(EVENT_KEYS[kind], params)

    def _effect_recall_count(self, d: dict[str, Any]) -> Text:
        params = {"player": self.who(d["seat"]), "cards": self.cards(d["card_ids"])}
        return Text(EVENT_KEYS["effect_recall_count"], params)

    def _effect_expired(self, d: dict[str, Any]) -> Text:
        params = {"effect": Text(TIMED_KEYS[str(d["step"])]), "card": self.uid(d["card"])}
        return Text(EVENT_KEYS["effect_expired"], params)

    def _effect_ended(self, d: dict[str, Any]) -> Text:
        # A staying pure effect is found in the active effects (before) or the graveyard (after).
        return Text(EVENT_KEYS["effect_ended"], {"player": self.who(d["seat"]), "card": self.uid(d["card"])})

    HANDLERS: ClassVar[dict[str, Callable[[_Teller, dict[str, Any]], Text]]] = {
        "revealed": _revealed,
        "drew_count": _drew_count,
        "redrew_count": _redrew_count,
        "summoned": _summoned,
        "moved": _moved,
        "attacked": _attacked,
        "deck_attacked": _deck_attacked,
        "discarded": _discarded,
        "turn_ended": _turn_ended,
        "penalty_destroyed": _penalty_destroyed,
        "penalty_placed": _penalty_placed,
        "penalty_cancelled": _penalty_cancelled,
        "penalty_moved": _penalty_moved,
        "forfeit": _forfeit,
        "fault_unowned_card": _fault,
        "played_effect": _played_effect,
        "effect": _effect,
        "effect_step": _effect_step,
        "effect_discard": lambda self, d: self._effect_cards(d, "effect_discard"),
        "effect_mill": lambda self, d: self._effect_cards(d, "effect_mill"),
        "effect_recall_count": _effect_recall_count,
        "effect_expired": _effect_expired,
        "effect_ended": _effect_ended,
    }


def narrate(
    events: Sequence[Event],
    before: ChocoState,
    after: ChocoState,
    catalog: ChocoCatalog,
    names: Sequence[str | Text],
) -> list[Text]:
    """The public events in words, in order; `before`/`after` are the states around them (to name cards
    by instance id, wherever they went). Events without a message (private ones) are skipped."""
    teller = _Teller(before, after, catalog, names)
    told = (teller.tell(event) for event in events)
    return [text for text in told if text is not None]
