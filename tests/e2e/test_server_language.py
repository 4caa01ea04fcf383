"""One language per server: public posts speak the server's language (/setup language, else its Discord
language remembered when first seen), private replies the player's own, and a private reply that quotes
a public button names it as the channel shows it."""

from __future__ import annotations

import re

from emulator.records import RecordedMessage
from sandbox.harness import BotHarness
from services.pillz import PillzServices
from tests.e2e.messages import after_welcome, public_answer, shown
from tests.e2e.pillz.helpers import bet_select


def pillz(h: BotHarness) -> PillzServices:
    assert h.bot is not None
    services: PillzServices = h.bot.services.games["pillz"]
    return services


def board(h: BotHarness, duel_id: int) -> RecordedMessage:
    title = rf"(Entraînement n° {duel_id}|Practice #{duel_id})\b"
    (found,) = [m for m in h.emu.messages if not m.ephemeral and re.search(title, shown(m))]
    return found


async def test_an_english_player_in_a_french_server_until_it_switches_to_english(harness: BotHarness) -> None:
    ann = harness.user("ann", locale="en-US")
    started = await harness.emu.run_command(ann, "pillz practice")
    assert started.message is not None
    assert started.message.ephemeral
    reply = after_welcome(shown(started.message))  # her first Pillz command: the welcome on top
    assert reply.startswith("Practice duel #"), reply  # her own language, privately
    assert "click “Jouer” in the channel" in reply  # the public button, as the channel shows it
    await harness.settle()
    (duel,) = await pillz(harness).duels.live(ann.id)
    public = board(harness, duel.id)
    assert "Entraînement n°" in shown(public)  # the server's language, publicly
    controls = await harness.emu.click(ann, "Jouer", message=public)
    assert controls.message is not None
    assert controls.message.ephemeral
    assert "pillz → ATK" in str(controls.message.components)  # her controls, in her language

    odile = harness.user("odile", admin=True)
    saved = await harness.emu.run_command(odile, "configuration langue", {"langue": "English (anglais)"})
    assert saved.message is not None
    assert saved.message.ephemeral
    assert "Langue des messages publics\u00a0: English (anglais)" in shown(saved.message)

    first = bet_select(controls.message, 0)
    picked = await harness.emu.select(ann, values=["0"], custom_id=first, message=controls.message)
    assert picked.message is not None
    played = await harness.emu.click(ann, "Play (0 pillz)", message=picked.message)
    assert played.message is not None
    await harness.settle()
    after = board(harness, duel.id)  # the same message, edited after the move: now in English
    assert after.id == public.id
    assert "Practice #" in shown(after)
    assert "Entraînement" not in shown(after)
    again = await harness.emu.run_command(ann, "pillz practice")
    assert again.message is not None
    assert "click “Play” in the channel" in shown(again.message)


async def test_a_challenge_and_its_answer_are_in_the_servers_language(harness: BotHarness) -> None:
    ann, bob = harness.user("ann", locale="en-US"), harness.user("bob", locale="en-US")
    made = public_answer(await harness.emu.run_command(ann, "pillz challenge", {"player": bob}))
    assert "défie" in shown(made), shown(made)
    own = await harness.emu.click(ann, "Accepter", message=made)
    assert own.message is not None
    assert own.message.ephemeral
    assert "“Refuser” withdraws it" in shown(own.message)  # English, quoting the French button
    answered = await harness.emu.click(bob, "Refuser", message=made)
    assert answered.message is not None
    assert not answered.message.ephemeral
    assert "Refuser" not in str(answered.message.components)
    assert "refus" in shown(answered.message).lower(), shown(answered.message)


async def test_a_server_seen_first_in_english_posts_in_english(harness: BotHarness) -> None:
    guild = harness.emu.add_guild("English club", locale="en-US")
    channel = harness.emu.add_channel(guild, "general")
    assert harness.bot is not None
    await harness.bot.tree.sync()  # the commands published everywhere, as /admin sync does
    ann = harness.user("ann", locale="fr")
    started = await harness.emu.run_command(ann, "pillz entraînement", channel=channel)
    assert started.message is not None
    assert after_welcome(shown(started.message)).startswith("Duel d'entraînement n°")  # hers: French
    assert "«\u00a0Play\u00a0»" in shown(started.message)
    await harness.settle()
    (duel,) = await pillz(harness).duels.live(ann.id)
    assert "Practice #" in shown(board(harness, duel.id))
    assert (await harness.bot.services.guilds.get(guild.id)).locale == "en"
