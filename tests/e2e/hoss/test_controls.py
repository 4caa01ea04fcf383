"""The private decision controls (cogs/hoss/battle.py `controls_reply`): each option of the select names
its action whole, however long the action's ids, because its value is a place in the legal actions shown
and a digest (services/hoss/battle/choices.py), never the action's JSON that Discord would cut at 100 characters."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from cogs.hoss.battle import controls_reply
from engine.hoss import HossView, SeatView
from engine.hoss.actions import MAX_ID, ChoosePath, Pass, Play
from engine.hoss.catalog import HossCatalog
from services.hoss.battle.choices import chosen, parse_choice
from services.hoss.battle.ranked import BattleView
from services.infra.catalogs import DATA_DIR, load_catalog

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
    selects = [
        c.item for c in kwargs["view"].children if isinstance(getattr(c, "item", None), discord.ui.Select)
    ]
    values = [option.value for select in selects for option in select.options]
    assert all(len(value) <= 100 for value in values)
    assert [chosen(legal, parse_choice(value)) for value in values] == list(legal[:2])  # Pass is a button
