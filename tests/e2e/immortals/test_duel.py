"""Immortal's War as players see it through Discord: a newcomer's 8 units, a practice duel played to
the recap through the private controls, a friend duel where the engaging player's attack is shown to the
counter before it chooses and whose late player gets the AI's choice, and a seeded whole duel scanned for
hidden information (drawn spells not cast, live seeds)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow
from tests.e2e.conftest import run_harness
from tests.e2e.leak_scan import EVERYONE, LeakScan, Secret, names_secret, seed_secret
from tests.e2e.messages import only_public, public_answer, shown


def immortals(h: BotHarness) -> ImmortalsServices:
    assert h.bot is not None
    services: ImmortalsServices = h.bot.services.games["immortals"]
    return services


def duel_message(h: BotHarness, duel_id: int) -> RecordedMessage:
    return only_public(h, rf"Immortal's War — (duel|entraînement) n° {duel_id}\b")


async def choose(h: BotHarness, user: User, duel_id: int, spell: bool = True) -> RecordedMessage:
    """Open the controls from the public message, pick the first unit left (and the first spell left),
    validate."""
    duel = await immortals(h).duels.get(duel_id)
    assert duel.state is not None
    round_ = duel.state.round
    controls = await h.emu.click(user, "Jouer", message=duel_message(h, duel_id))
    assert controls.message is not None, controls
    assert controls.message.ephemeral
    seat = duel.seat_of(user.id)
    fought = {r.fighters[seat].uid for r in duel.state.history}
    place = next(i for i, u in enumerate(duel.state.units[seat]) if u.uid not in fought)
    picked = await h.emu.select(
        user, values=[str(place)], custom_id=f"immortals:unit:{duel_id}:{round_}:-", message=controls.message
    )
    assert picked.message is not None
    panel = picked.message
    cast = {r.fighters[seat].spell_sid for r in duel.state.history}
    left = [i for i, s in enumerate(duel.state.spells[seat]) if s.sid not in cast]
    if spell and left:
        chosen = await h.emu.select(
            user,
            values=[str(left[0])],
            custom_id=f"immortals:spell:{duel_id}:{round_}:{place}",
            message=panel,
        )
        assert chosen.message is not None
        panel = chosen.message
    done = await h.emu.click(user, "Valider", message=panel)
    assert done.message is not None
    assert re.search(rf"(Attaque|Contre) du combat {round_} (engagée|enregistré)", shown(done.message))
    await h.settle()
    return done.message


async def friend_duel(h: BotHarness) -> tuple[User, User, int]:
    alice, bob = h.user("alice"), h.user("bob")
    made = await h.emu.run_command(alice, "immortels défi", {"joueur": bob})
    await h.emu.click(bob, "Accepter", message=public_answer(made))
    await h.settle()
    (duel,) = await immortals(h).duels.live(alice.id)
    return alice, bob, duel.id


async def test_a_newcomer_receives_eight_units_of_eight_families(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "immortels collection")
    assert reply.message is not None
    assert reply.message.ephemeral
    text = shown(reply.message)
    assert "Vous recevez 8 unités de familles différentes" in text
    assert text.count("dans le deck") == 8
    deck = await immortals(harness).decks.show(alice.id)
    assert len({c.card.family for c in deck.copies}) == 8
    assert deck.valid
    again = await harness.emu.run_command(alice, "immortels collection")
    assert again.message is not None
    assert "Vous recevez" not in shown(again.message)  # once


async def test_a_practice_duel_to_the_recap(harness: BotHarness) -> None:
    alice = harness.user("alice")
    started = await harness.emu.run_command(alice, "immortels entraînement")
    assert started.message is not None
    assert started.message.ephemeral
    await harness.settle()
    (duel,) = await immortals(harness).duels.live(alice.id)
    assert duel.kind == "practice"
    assert duel.state is not None
    role = "l'IA engage" if duel.state.engager == 1 else f"à <@{alice.id}> d'engager"
    assert role in shown(duel_message(harness, duel.id))
    for _ in range(4):
        current = await immortals(harness).duels.get(duel.id)
        if current.status != "live":
            break
        await choose(harness, alice, duel.id)
        fought = (await immortals(harness).duels.get(duel.id)).state
        assert fought is not None
        assert f"**Combat {len(fought.history)}** — <@{alice.id}>\u00a0:" in shown(
            duel_message(harness, duel.id)
        )
    final = await immortals(harness).duels.get(duel.id)
    assert final.status == "over"
    assert final.result is not None
    text = shown(duel_message(harness, duel.id))
    assert "XP de joueur" in text
    assert "pas de points de combat" in text
    assert duel_message(harness, duel.id).button_labels == []
    (gains,) = final.result["gains"]
    assert gains["combat_points"] == 0
    assert sum(c["xp"] for c in gains["cards"]) > 0


async def test_a_friend_duel_shows_the_attack_to_the_counter_and_the_ai_plays_for_the_late(
    harness: BotHarness,
) -> None:
    """« Le deuxième joueur choisit à son tour un sort si il le souhaite, puis une carte pour contrer
    l'attaque. »: the engaging player's unit and spell are on the public message before the counter
    chooses; the counter who lets its time run out gets the AI's counter."""
    alice, bob, duel_id = await friend_duel(harness)
    start = await immortals(harness).duels.get(duel_id)
    assert start.state is not None
    engager = start.state.engager
    first, second = (alice, bob) if engager == 0 else (bob, alice)
    early = await harness.emu.click(second, "Jouer", message=duel_message(harness, duel_id))
    assert early.message is not None
    assert f"C'est à <@{first.id}> d'engager le combat 1" in shown(early.message)
    await choose(harness, first, duel_id)
    duel = await immortals(harness).duels.get(duel_id)
    assert duel.state is not None
    attack = duel.state.pending[engager]
    assert attack is not None
    assert attack.spell is not None
    spell = next(s for s in duel.state.spells[engager] if s.sid == attack.spell)
    named = immortals(harness).duels.catalog.spell(spell.spell_id)
    assert named is not None
    public = shown(duel_message(harness, duel_id))
    assert f"<@{first.id}> engage " in public
    assert f" avec **{named.name.fr}**\u00a0:" in public
    assert f"À <@{second.id}> de contrer" in public
    controls = await harness.emu.click(second, "Jouer", message=duel_message(harness, duel_id))
    assert controls.message is not None
    assert f"À vous de contrer\u00a0: <@{first.id}> engage" in shown(controls.message)
    again = await harness.emu.click(first, "Jouer", message=duel_message(harness, duel_id))
    assert again.message is not None
    assert "déjà fait" in shown(again.message)
    assert await harness.advance(timedelta(seconds=121)) >= 1
    after = await immortals(harness).duels.get(duel_id)
    assert after.state is not None
    assert len(after.state.history) == 1
    assert after.notes == ({"round": 1, "seat": 1 - engager},)
    text = shown(duel_message(harness, duel_id))
    assert f"⏱ Combat 1\u00a0: <@{second.id}> n'a pas choisi à temps, l'IA a choisi à sa place." in text
    while (current := await immortals(harness).duels.get(duel_id)).status == "live":
        (seat,) = current.to_act()
        await choose(harness, alice if current.seats[seat] == alice.id else bob, duel_id, spell=False)
    final = await immortals(harness).duels.get(duel_id)
    assert final.result is not None
    players = {g["player_id"] for g in final.result["gains"]}
    assert players == {alice.id, bob.id}
    assert "points de combat" in shown(duel_message(harness, duel_id))


# --- the hidden information scan ------------------------------------------------------------------------


class DuelSecrets:
    """A duel's secrets now: every drawn spell nobody has cast or engaged with yet (the seats that drew it
    may see it, in their own controls; a public post may name none: hands are private), a pending choice
    that is secret (its token; the engaging seat's attack is public), and the seeds while live."""

    def __init__(self, h: BotHarness, duel_id: int) -> None:
        self.h = h
        self.duel_id = duel_id
        self.spells_checked = 0

    def words(self, spell_id: str) -> set[str]:
        spell = immortals(self.h).duels.catalog.spell(spell_id)
        assert spell is not None
        return {spell.name.fr, spell.name.en}

    async def moment(self) -> tuple[list[Secret], dict[int, set[str]]]:
        duel: DuelRow = await immortals(self.h).duels.get(self.duel_id)
        state = duel.state
        assert state is not None
        cast = {f.spell for r in state.history for f in r.fighters if f.spell is not None}
        attack = state.pending[state.engager]
        if attack is not None and attack.spell is not None and not state.finished:
            cast.add(next(s.spell_id for s in state.spells[state.engager] if s.sid == attack.spell))
        allowed: dict[int, set[str]] = {EVERYONE: {w for s in cast for w in self.words(s)}}
        holders: dict[str, set[int]] = {}
        for seat in (0, 1):
            user = duel.seats[seat]
            drawn = {s.spell_id for s in state.spells[seat]}
            if user is not None:
                allowed[user] = {w for s in drawn for w in self.words(s)}
            for spell in drawn:
                holders.setdefault(spell, set()).update([] if user is None else [user])
        secrets: list[Secret] = []
        for spell in sorted(set(holders) - cast):
            self.spells_checked += 1
            secrets.append(names_secret(f"drawn spell {spell}", self.words(spell), [spell], holders[spell]))
        for seat in (0, 1):
            user = duel.seats[seat]
            owners = [] if user is None else [user]
            token = f"immortals-choice-r{state.round}-s{seat}"
            secrets.append(
                Secret(f"seat {seat}'s pending choice", re.compile(re.escape(token)), frozenset(owners))
            )
        if duel.status == "live":
            secrets += [seed_secret("duel seed", duel.seed or 0), seed_secret("rng seed", state.rng.seed)]
        return secrets, allowed


@pytest.fixture
async def seeded(tmp_path: Path) -> AsyncIterator[BotHarness]:
    async for h in run_harness(BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",), seed=29)):
        yield h


async def test_a_whole_duel_shows_no_pending_choice_spell_or_seed(seeded: BotHarness) -> None:
    h = seeded
    scan = LeakScan(h.emu)
    alice, bob, duel_id = await friend_duel(h)
    zoe = h.user("zoe")
    tracker = DuelSecrets(h, duel_id)
    scan.scan(*await tracker.moment())
    refused = await h.emu.click(zoe, "Jouer", message=duel_message(h, duel_id))
    assert refused.message is not None
    assert refused.message.ephemeral
    scan.scan(*await tracker.moment())
    timeouts = 0
    while (duel := await immortals(h).duels.get(duel_id)).status == "live":
        assert duel.state is not None
        (seat,) = duel.to_act()
        user = alice if duel.seats[seat] == alice.id else bob
        await choose(h, user, duel_id)
        if duel.state.round == 2 and not timeouts:
            scan.scan(*await tracker.moment())
            timeouts += await h.advance(timedelta(minutes=2, seconds=1))
        scan.scan(*await tracker.moment())
    assert timeouts >= 1
    assert tracker.spells_checked >= 8
    assert scan.findings == [], "\n" + scan.report()


async def test_a_round_left_unchosen_while_the_bot_is_down_is_chosen_at_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    db = tmp_path / "bot.sqlite3"
    async for h in run_harness(BotHarness(db, clock=clock, seed=5)):
        alice = h.user("alice")
        await h.emu.run_command(alice, "immortels entraînement")
        await h.settle()
        (duel,) = await immortals(h).duels.live(alice.id)
        await choose(h, alice, duel.id)
        before = await immortals(h).duels.get(duel.id)
    clock.advance(timedelta(minutes=5))  # the bot is down when the round's time passes
    async for h in run_harness(BotHarness(db, clock=clock, seed=5)):
        await h.settle()
        after = await immortals(h).duels.get(duel.id)
        assert after.version > before.version
        assert after.state is not None
        assert len(after.state.history) == 2
        assert after.notes == ({"round": 2, "seat": 0},)
