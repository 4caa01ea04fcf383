"""Each round is played in turn, as the rulebook says: « Il a ensuite le choix de lancer un sort puis de
choisir alors une première carte qu'il envoie attaquer son ennemi. Le deuxième joueur choisit à son tour
un sort si il le souhaite, puis une carte pour contrer l'attaque. » The engaging seat's unit and spell
are shown publicly as soon as they are chosen; the counter chooses knowing them, under a deadline of its
own; the AI plays either role, for its own seat or for a late player."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow
from services.immortals.names import spell_name, unit_name
from services.immortals.render import duel as render
from services.infra.messages import Text, render_text
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.immortals.conftest import deadline

GUILD, CHANNEL = 500, 600
ALICE, BOB = 11, 12


def board(services: ImmortalsServices, duel: DuelRow) -> str:
    """The public message's text, in French."""
    (embed,) = services.duels.public(duel).embeds
    return render_text(embed.description, "fr")


async def test_the_engaging_player_chooses_first_and_the_counter_sees_the_attack(
    services: ImmortalsServices, db: Database, clock: ManualClock, scheduler: Scheduler
) -> None:
    challenge = await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c1")
    duel = await services.duels.answer(challenge.id, BOB, True, guild=GUILD)
    assert duel.state is not None
    engager = duel.state.engager
    first, second = duel.seats[engager], duel.seats[1 - engager]
    assert first is not None
    assert second is not None
    assert duel.to_act() == [engager]
    assert f"à <@{first}> d'engager" in board(services, duel)

    # The counter may not choose first; it is told who engages.
    for attempt in (
        services.duels.controls(duel.id, second, guild=GUILD),
        services.duels.choose(duel.id, second, 1, 0, None, guild=GUILD),
    ):
        with pytest.raises(NotAllowed) as refused:
            await attempt
        assert refused.value.key == "immortals.error.wait_engage"
        assert refused.value.params["player"] == Text.raw(f"<@{first}>")

    # The attack is public at once: unit and spell.
    clock.advance(timedelta(seconds=30))
    controls = await services.duels.controls(duel.id, first, guild=GUILD)
    assert controls.view.engaged is None
    duel = await services.duels.choose(duel.id, first, 1, 1, 0, guild=GUILD)
    assert duel.state is not None
    sent = duel.state.spells[engager][0].spell_id
    unit = duel.state.units[engager][1].card_id
    shown = board(services, duel)
    catalog = services.duels.catalog
    assert f"<@{first}> engage {render_text(unit_name(catalog, unit), 'fr')}" in shown
    assert render_text(spell_name(catalog, sent), "fr") in shown
    assert f"À <@{second}> de contrer" in shown

    # The counter's controls name the attack; its own deadline starts now.
    countering = await services.duels.controls(duel.id, second, guild=GUILD)
    assert countering.view.engaged is not None
    assert countering.view.engaged.unit == duel.state.units[engager][1].uid
    (embed,) = render.controls(countering, catalog, None, None).embeds
    assert "À vous de contrer" in render_text(embed.description, "fr")
    assert await deadline(db, duel.id) == timedelta(minutes=2)
    assert duel.deadline_at == clock.now() + timedelta(minutes=2)
    with pytest.raises(NotAllowed) as again:
        await services.duels.controls(duel.id, first, guild=GUILD)
    assert again.value.key == "immortals.error.already_chosen"

    # The counter lets its time run out: the AI counters for it, and the round is fought.
    clock.advance(timedelta(minutes=2, seconds=1))
    await scheduler.run_due()
    after = await services.duels.get(duel.id)
    assert after.state is not None
    assert len(after.state.history) == 1
    assert after.state.history[0].fighters[engager].spell == sent
    assert after.notes == ({"round": 1, "seat": 1 - engager},)
    assert after.to_act() == [engager]


async def practice_where(services: ImmortalsServices, ai_engages: bool) -> DuelRow:
    """A practice duel where the AI engages, or where the player does (the deal decides)."""
    for n in range(40):
        duel = await services.duels.practice(GUILD, CHANNEL, 100 + n, key=f"p{n}")
        assert duel.state is not None
        if (duel.state.engager == 1) == ai_engages:
            return duel
    raise AssertionError("no such deal in 40 practice duels")


async def test_the_ai_engages_at_once_and_counters_at_once(services: ImmortalsServices) -> None:
    """The AI plays both roles in the unit that hands it the turn: as the engaging seat its attack waits
    for the player from the round's start, as the counter it answers the player's attack at once."""
    engaging = await practice_where(services, ai_engages=True)
    assert engaging.state is not None
    assert engaging.state.pending[1] is not None
    assert engaging.to_act() == [0]
    assert "l'IA engage" in board(services, engaging)
    player = engaging.seats[0]
    assert player is not None
    after = await services.duels.choose(engaging.id, player, 1, 0, None, guild=GUILD)
    assert after.state is not None
    assert len(after.state.history) == 1
    assert after.state.pending[1] is not None  # round 2's attack, engaged already
    assert after.to_act() == [0]

    countering = await practice_where(services, ai_engages=False)
    assert countering.state is not None
    assert countering.state.pending == (None, None)
    player = countering.seats[0]
    assert player is not None
    after = await services.duels.choose(countering.id, player, 1, 2, None, guild=GUILD)
    assert after.state is not None
    assert len(after.state.history) == 1
    assert after.state.history[0].fighters[0].uid == countering.state.units[0][2].uid
    assert after.to_act() == [0]
