"""The private decision controls (cogs/hoss/battle.py `controls_reply`): each option of the select names
its action whole, however long the action's ids, because its value is a place in the legal actions shown
and a digest (services/hoss/battle/choices.py), never the action's JSON that Discord would cut at 100 characters.
The controls and the ladder's buttons are written as Discord's rows, the very rows discord.py's items
wrote (issue 39), and a start or a decision builds no discord.py item but the clicked one's handler."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from cogs.hoss.battle import (
    MAX_OPTIONS,
    ActionSelect,
    DecideButton,
    DefenderButton,
    PassButton,
    StartButton,
    controls_reply,
    ladder_reply,
)
from cogs.shared.components import button
from discord_app.render import text
from engine.hoss import HossView, SeatView
from engine.hoss.actions import MAX_ID, ChoosePath, Move, Pass, Place, Play
from engine.hoss.catalog import HossCatalog
from sandbox.harness import BotHarness
from services.hoss.battle.choices import choice_value, chosen, parse_choice
from services.hoss.battle.ranked import BattleView, Ladder, RankStatus
from services.hoss.keys import RANK_NAME_KEYS
from services.hoss.render.battle import action_label, name_of
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.messages import Text
from tests.e2e.hoss.helpers import count_items, decide_once, start_rank_1, with_deck

CATALOG = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
LONG = (("c" * MAX_ID), ("p" * MAX_ID), ("r" * MAX_ID))  # the longest ids an action may carry


def seat(number: int) -> SeatView:
    return SeatView(
        seat=number, player_id=number + 1, hand=0, pile=0, synergy=(), creatures=(), buffs=(), waiting=True
    )


def battle_view(legal: tuple[Any, ...]) -> BattleView:
    snapshot = HossView(you=0, round=0, max_rounds=60, finished=False, seats=(seat(0), seat(1)))
    return BattleView(
        battle_id=7,
        rank=1,
        status="live",
        pause=1,
        round=0,
        deadline=None,
        snapshot=snapshot,
        legal=legal,
        new_rounds=(),
        ai_decided=(),
        result=None,
    )


async def test_an_action_longer_than_a_select_value_is_offered_whole() -> None:
    legal = (Play(LONG[0], LONG[1]), ChoosePath("a1", LONG[2]), Pass())
    hoss = SimpleNamespace(decks=SimpleNamespace(catalog=CATALOG))
    interaction = SimpleNamespace(client=SimpleNamespace(services=SimpleNamespace(games={"hoss": hoss})))
    interaction.user = SimpleNamespace(id=1)
    kwargs = controls_reply(cast(Any, interaction), battle_view(legal), 99, "fr")
    selects = [c for row in kwargs["view"].to_components() for c in row["components"] if c["type"] == 3]
    values = [option["value"] for select in selects for option in select["options"]]
    assert all(len(value) <= 100 for value in values)
    assert [chosen(legal, parse_choice(value)) for value in values] == list(legal[:2])  # Pass is a button


def controls_interaction() -> Any:
    hoss = SimpleNamespace(decks=SimpleNamespace(catalog=CATALOG))
    interaction = SimpleNamespace(client=SimpleNamespace(services=SimpleNamespace(games={"hoss": hoss})))
    interaction.user = SimpleNamespace(id=1)
    return cast(Any, interaction)


def old_controls_rows(view: BattleView, locale: str) -> list[dict[str, Any]]:
    """The controls' rows as discord.py's items wrote them (the persistent items, a View) before."""
    names = {uid: name_of(CATALOG, card, locale) for uid, card in view.cards.items()}
    tail = f"1:{view.battle_id}:{view.pause}:99"
    items = discord.ui.View(timeout=None)
    choices = [(i, a) for i, a in enumerate(view.legal) if not isinstance(a, Pass | Move)]
    for start in range(0, min(len(choices), MAX_OPTIONS * 4), MAX_OPTIONS):
        options = [
            discord.SelectOption(label=text(action_label(a, names), locale)[:100], value=choice_value(i, a))
            for i, a in choices[start : start + MAX_OPTIONS]
        ]
        select = ActionSelect(f"hoss:ract:{tail}:{start // MAX_OPTIONS}", {}, options)
        select.item.placeholder = text(Text("hoss.battle.choose"), locale)[:150]
        items.add_item(select)
    if any(isinstance(a, Move) for a in view.legal):
        label = Text("hoss.battle.defender")
        items.add_item(button(DefenderButton, f"hoss:rdef:{tail}", label, locale, "secondary"))
    if any(isinstance(a, Pass) for a in view.legal):
        items.add_item(
            button(PassButton, f"hoss:rpass:{tail}", Text("hoss.battle.pass"), locale, "secondary")
        )
    return items.to_components()


PLAYS = tuple(Play(f"card{i}", "a1" if i % 2 else None) for i in range(30))
LEGAL_SETS = {
    "plays and pass": (*PLAYS[:3], Pass()),
    "more than a select holds": (*PLAYS, Pass()),
    "a path, a move, pass": (ChoosePath("a1", "r2"), Move("a2", "a3"), Pass()),
    "a move only": (Move("a2", "a3"),),
    "places": (Place("a1", "a2"), Place("a1", "a3")),
}


@pytest.mark.parametrize("name", sorted(LEGAL_SETS))
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_the_controls_rows_are_discord_pys(name: str, locale: str) -> None:
    view = battle_view(LEGAL_SETS[name])
    kwargs = controls_reply(controls_interaction(), view, 99, locale)
    assert json.dumps(kwargs["view"].to_components()) == json.dumps(old_controls_rows(view, locale))


@pytest.mark.parametrize("playable", [(1,), (2, 3, 4)])
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_the_ladders_rows_are_discord_pys(playable: tuple[int, ...], locale: str) -> None:
    ranks = tuple(
        RankStatus(r, Text(RANK_NAME_KEYS[r]), 10, 2, r <= max(playable), r in playable, 45 * r, 5 * r)
        for r in range(1, 10)
    )
    ladder = Ladder(ranks, max(playable), playable, None, ())
    old = discord.ui.View(timeout=None)
    for status in ranks:
        if status.playable:
            label = Text("hoss.ladder.start", {"rank": status.name})
            old.add_item(button(StartButton, f"hoss:rstart:7:{status.rank}", label, locale, "primary"))
    kwargs = ladder_reply(ladder, 7, locale)
    assert json.dumps(kwargs["view"].to_components()) == json.dumps(old.to_components())


@pytest.mark.usefixtures("no_pacing")
async def test_a_start_and_a_decision_build_no_discord_py_item_but_the_clicked_ones(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ladder's buttons and the controls are written as Discord's rows; the only items built are
    the handlers discord.py makes from the clicked component's custom_id."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    built = count_items(monkeypatch)
    await start_rank_1(harness, alice)
    await harness.settle()
    assert built == [discord.ui.Button, StartButton]
    built.clear()
    await decide_once(harness, alice)
    assert built[:2] == [discord.ui.Button, DecideButton]
    assert set(built[2:]) <= {discord.ui.Select, ActionSelect, discord.ui.Button, PassButton}
    assert len(built) == 4
