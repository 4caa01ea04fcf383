"""The daily loop as players see it through Discord: /quotidien twice, the streak the next day, /minuteurs
with relative times, and the morning reminder DM that only a player who turned reminders on receives."""

from __future__ import annotations

import re
from datetime import timedelta

from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import hoss, start_rank_1, with_deck


def text(result: object) -> str:
    return str(result.message.render()).replace("\u202f", " ")  # type: ignore[attr-defined]


async def test_daily_twice_then_the_streak_the_next_day(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "quotidien")
    assert reply.ephemeral
    shown = text(reply)
    assert (
        "**Chocobataille**\u00a0: vous recevez 50 gallions (série de 1 jour). Solde\u00a0: 1 550 gallions."
        in shown
    )
    assert "**HOSS TCG**\u00a0: vous recevez 50 or (série de 1 jour). Solde\u00a0: 350 or." in shown
    assert "**Pillz duel**\u00a0: vous recevez 40 pièces (série de 1 jour). Solde\u00a0: 340 pièces." in shown
    assert "**Dinocard**\u00a0: vous recevez 30 pièces (série de 1 jour). Solde\u00a0: 330 pièces." in shown
    assert (
        "**Immortal's War**\u00a0: vous recevez 30 pièces d'or (série de 1 jour). Solde\u00a0: 130 pièces d'or."
        in shown
    )

    shown = text(await harness.emu.run_command(alice, "quotidien"))
    assert shown.count("déjà reçu aujourd'hui") == 5  # every game that has a daily
    assert "Solde\u00a0: 350 or." in shown
    assert re.search(r"le prochain <t:\d+:R>", shown)

    # the choco command claims the same daily: already received
    assert "déjà reçu vos gallions" in text(await harness.emu.run_command(alice, "choco quotidien"))

    await harness.advance(timedelta(days=1))
    shown = text(await harness.emu.run_command(alice, "quotidien", {"jeu": "hoss"}))
    assert shown == "**HOSS TCG**\u00a0: vous recevez 55 or (série de 2 jours). Solde\u00a0: 405 or."

    bob = harness.user("bob", locale="en-US")
    shown = text(await harness.emu.run_command(bob, "daily", {"game": "pillz"}))
    assert shown == "**Pillz duel**: you receive 40 coins (1-day streak). Balance: 340 coins."


async def test_cooldowns_show_every_timer_privately(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "quotidien", {"jeu": "pillz"})
    reply = await harness.emu.run_command(alice, "minuteurs")
    assert reply.ephemeral
    shown = text(reply)
    assert "Vos minuteurs" in shown
    assert "Rappels en message privé\u00a0: désactivés" in shown
    assert (
        "**Récompense du jour**\u00a0: disponible\u00a0: 50 or (série de 1 jour)" in shown
    )  # HOSS, not claimed
    assert re.search(
        r"\*\*Récompense du jour\*\*\u00a0: reçue \(série de 1 jour\) ; la prochaine <t:\d+:R>", shown
    )
    assert re.search(r"\*\*Ticket de tombola\*\*\u00a0: disponible, ventes closes <t:\d+:R>", shown)
    english = text(await harness.emu.run_command(harness.user("bob", locale="en-US"), "cooldowns"))
    assert "Your timers" in english
    assert "**Daily reward**: ready: 40 coins (1-day streak)" in english


async def test_a_reminder_dm_arrives_only_when_turned_on(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    for player in (alice, bob):
        await harness.emu.run_command(player, "quotidien", {"jeu": "hoss"})
    reply = await harness.emu.run_command(alice, "paramètres rappels", {"état": "on"})
    assert "je vous enverrai des rappels" in text(reply)
    assert "Rappels en message privé\u00a0: activés" in text(
        await harness.emu.run_command(alice, "minuteurs")
    )

    await harness.advance(timedelta(hours=19, minutes=59))  # 08:59 in Paris the next day
    assert harness.emu.dm_messages(alice) == []
    await harness.advance(timedelta(minutes=1))  # 09:00
    dms = [m.render() for m in harness.emu.dm_messages(alice)]
    assert len(dms) == 1
    assert "Vos récompenses du jour sont prêtes, `/quotidien` pour les recevoir\u00a0:" in dms[0]
    assert "**HOSS TCG**\u00a0: 55 or (série de 2 jours)" in dms[0]
    assert "Chocobataille" not in dms[0]  # never claimed there: not called to it
    assert "/paramètres rappels" in dms[0]
    assert harness.emu.dm_messages(bob) == []

    await harness.emu.run_command(alice, "paramètres rappels", {"état": "off"})
    await harness.advance(timedelta(days=1))
    assert len(harness.emu.dm_messages(alice)) == 1


async def test_a_dinocard_pack_s_daily_challenges_are_timers(harness: BotHarness) -> None:
    alice = harness.user("alice")
    made = await harness.emu.run_command(alice, "dino pack créer", {"nom": "Braise", "élément": "feu"})
    assert made.message is not None
    shown = text(await harness.emu.run_command(alice, "minuteurs"))
    assert re.search(
        r"\*\*Pack «\u00a0Braise\u00a0»\*\*\u00a0: premiers défis <t:\d+:R>", shown
    )  # from tomorrow
    await harness.advance(timedelta(hours=12))  # 01:00 in Paris
    shown = text(await harness.emu.run_command(alice, "minuteurs"))
    assert re.search(
        r"\*\*Pack «\u00a0Braise\u00a0»\*\*\u00a0: \d+ défis restants sur \d+ aujourd'hui", shown
    )


async def test_an_immortals_war_choice_is_a_timer(harness: BotHarness) -> None:
    alice = harness.user("alice")
    started = text(await harness.emu.run_command(alice, "immortels entraînement"))
    number = re.search(r"Duel d'entraînement n° (\d+)", started)
    assert number is not None, started
    shown = text(await harness.emu.run_command(alice, "minuteurs"))
    assert re.search(rf"\*\*Duel n° {number.group(1)}\*\*\u00a0: à vous de choisir, <t:\d+:R>", shown)


async def test_a_hoss_battle_s_decision_is_a_timer(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)
    battle = await hoss(harness).ranked.current(alice.id)
    shown = text(await harness.emu.run_command(alice, "minuteurs"))
    assert re.search(
        rf"\*\*Combat n° {battle}\*\*\u00a0: décision attendue, l'IA joue la fin du combat pour vous <t:\d+:R>",
        shown,
    )
