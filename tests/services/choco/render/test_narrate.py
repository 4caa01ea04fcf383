"""Narration: every event kind the engine can emit is told or deliberately silent, private events are never
told, and the messages say what happened with the cards' names."""

from __future__ import annotations

import re

from engine.choco import penalties
from engine.choco.state import Attack, ChocoState, Summon
from engine.protocol import Event
from services.choco.narrate import EVENT_KEYS, SILENT, narrate
from tests.services.choco.render.games import ENGINE, NAMES, ROOT, catalog, new_game, play, render


def engine_event_kinds() -> set[str]:
    """The kinds written in engine/choco: `Event("kind"` literals, and "effect_" + the step kinds that
    build their event's name."""
    kinds: set[str] = set()
    for path in (ROOT / "engine" / "choco").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        kinds |= set(re.findall(r'Event\(\s*"([a-z_]+)"', source))
        if 'Event("effect_" + kind' in source:
            kinds.discard("effect_")
            kinds |= {"effect_discard", "effect_mill"}
    return kinds


def test_every_event_kind_is_told_or_deliberately_silent() -> None:
    kinds = engine_event_kinds()
    assert len(kinds) >= 29
    assert kinds == set(EVENT_KEYS) | SILENT
    assert not set(EVENT_KEYS) & SILENT


def test_private_events_are_never_told() -> None:
    state = new_game(1)
    private = [
        Event("drew", {"seat": 0, "cards": ["c1"]}, visible_to=frozenset({0})),
        Event(
            "summoned", {"seat": 0, "card": "c1", "card_id": "x", "line": "front"}, visible_to=frozenset({0})
        ),
    ]
    assert narrate(private, state, state, catalog(), NAMES) == []


def _reach_turn(seed: int, turn: int) -> ChocoState:
    state = new_game(seed, max_turns=50)
    for played in play(seed, max_turns=50):
        state = played.after
        if state.turn >= turn:
            return state
    raise AssertionError("game ended early")


def _texts(events: list[Event], before: ChocoState, after: ChocoState, lang: str = "fr") -> list[str]:
    return [render(t, lang) for t in narrate(events, before, after, catalog(), NAMES)]


def test_penalties_and_faults_are_told() -> None:
    state = _reach_turn(2, 3)
    seat = state.active
    after, events = penalties.inactivity_24h(state, seat)
    (told,) = _texts(events, state, after)
    assert told.startswith("Pénalité d'inactivité")
    assert NAMES[seat] in told
    card = catalog().card(events[0].data["card_id"])
    assert card is not None
    assert card.name.fr in told
    after, events = penalties.fault_unowned_card(state, seat)
    assert _texts(events, state, after, "en") == [
        f"Fault: {NAMES[seat]} declared a card they do not hold. {NAMES[1 - seat]} will draw one more card next turn."
    ]
    after, events = penalties.inactivity_72h(state, seat)
    told_all = _texts(events, state, after)
    assert told_all[0] == f"{NAMES[seat]} n'a pas joué depuis 72 heures\u00a0: son tour est passé."
    assert any(t.startswith("Fin du tour") for t in told_all)
    after, events = penalties.forfeit(state, seat)
    assert _texts(events, state, after) == [
        f"{NAMES[seat]} déclare forfait\u00a0: {NAMES[1 - seat]} remporte la partie."
    ]
    again, events2 = penalties.inactivity_72h(
        after.model_copy(update={"finished": False, "forfeit": None}), seat
    )
    assert again is not None
    assert events2


def test_disqualification_is_told() -> None:
    state = _reach_turn(4, 3)
    seat = state.active
    state = state.model_copy(update={"passes": (1, 1)})
    after, events = penalties.inactivity_72h(state, seat)
    told = _texts(events, state, after)
    assert f"{NAMES[seat]} est disqualifié(e) après deux tours passés pour inactivité." in told


def test_attack_and_summon_name_the_cards() -> None:
    for seed in range(30):
        for played in play(seed):
            for event in played.events:
                if event.kind == "attacked" and event.data["killed"]:
                    (line,) = _texts([event], played.before, played.after, "en")
                    attacker = next(
                        c for s in played.before.sides for c in s.board() if c.uid == event.data["attacker"]
                    )
                    target = next(
                        c for s in played.before.sides for c in s.board() if c.uid == event.data["target"]
                    )
                    a, t = catalog().card(attacker.card_id), catalog().card(target.card_id)
                    assert a is not None
                    assert t is not None
                    assert line == (
                        f"{a.name.en} ({NAMES[event.data['seat']]}) attacks {t.name.en}: {event.data['damage']} HP lost,"
                        f" {t.name.en} goes to the graveyard."
                    )
                    return
    raise AssertionError("no killing attack in 30 games")


def test_a_whole_turn_submission_is_told_step_by_step() -> None:
    state = _reach_turn(6, 2)
    seat = state.active
    legal = ENGINE.legal_actions(state, seat)
    summon = next(a for a in legal if isinstance(a, Summon) and a.line == "front")
    after, events = ENGINE.apply(state, seat, summon)
    told = _texts(events, state, after)
    card = next(c for c in state.sides[seat].hand if c.uid == summon.card)
    entry = catalog().card(card.card_id)
    assert entry is not None
    assert told[0] == f"{NAMES[seat]} invoque {entry.name.fr} en ligne de front."
    attacks = [a for a in ENGINE.legal_actions(after, seat) if isinstance(a, Attack)]
    if attacks:
        later, events = ENGINE.apply(after, seat, attacks[0])
        assert (
            _texts(events, after, later)[0].startswith(entry.name.fr)
            or "attaque" in _texts(events, after, later)[0]
        )


def test_every_public_kind_seen_in_play_is_told() -> None:
    seen: dict[str, int] = {}
    for seed in range(40):
        for played in play(seed, penalty_rate=0.05, max_turns=20):
            told = narrate(played.events, played.before, played.after, catalog(), NAMES)
            public = [e for e in played.events if e.visible_to is None]
            assert len(told) == len(public)
            for event in public:
                seen[event.kind] = seen.get(event.kind, 0) + 1
    assert len(seen) >= 20, sorted(seen)


def test_a_referee_cancelling_a_penalty_is_told() -> None:
    state = new_game(1)
    events = [
        Event("penalty_cancelled", {"seat": 1, "card_id": "aglae_pommeverte", "to": "hand"}),
        Event("penalty_cancelled", {"seat": 1, "card_id": "aglae_pommeverte", "to": "pioche"}),
        Event("pass_forgiven", {"seat": 0}),
    ]
    assert _texts(events, state, state, "en") == [
        "The referee cancels a penalty: Aglaé Greenapple goes back to Bob's hand.",
        "The referee cancels a penalty: Aglaé Greenapple goes back to Bob's deck.",
        "The referee cancels a penalty: Alice's passed turn no longer counts towards disqualification.",
    ]
