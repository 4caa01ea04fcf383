"""The leader's pillz are secret until the round resolves: no view, public event or pillz count betrays
them; the card it leads is public at once."""

from __future__ import annotations

import json
import random

from engine.pillz.state import Play
from engine.protocol import SPECTATOR
from tests.engine.pillz.helpers import ENGINE, round_, state


def test_the_bet_is_private_and_the_card_public() -> None:
    s = state()
    after, events = ENGINE.apply(s, 0, Play(card="a2", pillz=7))
    led, bet = events
    assert led.kind == "led"
    assert led.visible_to is None
    assert led.data["card"] == "a2"
    assert "pillz" not in led.data
    assert bet.kind == "bet"
    assert bet.visible_to == frozenset({0})
    assert bet.data["pillz"] == 7
    assert ENGINE.view(after, 0).bet == 7
    assert ENGINE.view(after, 0).pillz_available == 5
    for viewer in (1, SPECTATOR):
        view = ENGINE.view(after, viewer)
        assert view.pending_card == "a2"
        assert view.pillz == (12, 12)  # the leader's count as at the start of the round
        assert view.bet is None
        assert view.bet_token is None


def test_views_of_others_do_not_depend_on_the_bet() -> None:
    """Whatever the leader bets, what the answerer and spectators see is exactly the same."""
    for seed in range(20):
        rng = random.Random(seed)
        s = state(seed=seed, first=rng.randrange(2))
        for _ in range(rng.randrange(4)):  # a few rounds first, so the counts differ
            leader = ENGINE.lead(s)
            s = round_(
                s,
                (
                    next(f.card_id for f in s.hands[leader] if not f.used),
                    rng.randint(0, s.pillz[leader] // 2),
                ),
                (next(f.card_id for f in s.hands[1 - leader] if not f.used), 0),
            )
        leader = ENGINE.lead(s)
        card = next(f.card_id for f in s.hands[leader] if not f.used)
        seen: dict[int, set[str]] = {1 - leader: set(), SPECTATOR: set()}
        for bet in range(s.pillz[leader] + 1):
            after, events = ENGINE.apply(s, leader, Play(card=card, pillz=bet))
            for viewer in seen:
                public = [e.to_json() for e in events if e.visible(viewer)]
                seen[viewer].add(json.dumps([ENGINE.view(after, viewer).to_json(), public], sort_keys=True))
                assert ENGINE.hidden_cards(after, leader) == {f"pillz-bet-r{s.round}-{bet}"}
        assert all(len(blobs) == 1 for blobs in seen.values())


def test_the_bet_is_public_once_the_round_resolves() -> None:
    s = round_(state(), ("a0", 7), ("b0", 2))
    view = ENGINE.view(s, SPECTATOR)
    assert view.history[0].pillz == (7, 2)
    assert view.pillz == (5, 10)
    assert ENGINE.hidden_cards(s, 0) == ENGINE.hidden_cards(s, 1) == set()
