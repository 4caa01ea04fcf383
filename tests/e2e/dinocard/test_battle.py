"""A Dinocard challenge through Discord: packs built by command, the preparation, « Lancer le Défi »
clicked twice (one battle), the battle watched step by step on its public message to the end, the owner
of the attacked pack told by DM, the log attached, and refused clicks."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from services.dinocard.results import MATCHES
from tests.e2e.dinocard.helpers import battle_message, dino, launched, packs_ready, prepared
from tests.e2e.messages import shown


async def test_a_challenge_watched_step_by_step_to_its_end(harness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    _, theirs = await packs_ready(h)
    prep = await prepared(h, theirs)
    assert "Pack adverse\u00a0: 20 cartes" in shown(prep)
    answers = await asyncio.gather(*(h.emu.click(alice, "Lancer le Défi", message=prep) for _ in range(2)))
    assert all(a.message is not None for a in answers)  # a double click: both answered
    await h.settle()
    matches = await dino(h).battles.db.read(lambda conn: MATCHES.live_of(conn, alice.id))
    assert len(matches) == 1
    match = matches[0]
    assert match.state is not None
    steps = len(match.state.log)
    assert match.number is not None
    message = battle_message(h, match.number)
    refused = await h.emu.click(bob, "Suivant", message=message)  # the defender does not drive it
    assert refused.message is not None
    assert refused.message.ephemeral
    assert "Seul le joueur qui a lancé ce combat" in shown(refused.message)
    clicks = 0
    while "[file: dinocard-" not in shown(message):
        result = await h.emu.click(alice, "Suivant", message=message)
        assert result.message is None or not result.message.ephemeral, shown(result.message)
        await h.settle()
        message = battle_message(h, match.number)
        clicks += 1
        assert clicks <= steps
    assert clicks == steps
    assert "Résultat" in shown(message)
    assert "Suivant" not in shown(message)
    # The last click was answered before its unit queued the owner's DM: the edit showing the end proves
    # that unit committed, so one more flush of the outbox delivers the DM.
    await h.settle()
    told = [
        m
        for m in h.emu.messages
        if m.where[0] == "dm" and "votre pack «\u00a0marée\u00a0»" in shown(m).lower()
    ]
    assert len(told) == 1
    over = await dino(h).battles.db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    late = await h.emu.forge_component(alice, f"dino:next:{match.id}:{over.version}")
    assert late.message is not None
    assert late.message.ephemeral
    assert "Ce combat est terminé" in shown(late.message)


async def test_the_dojo_and_a_launch_all_at_once(harness) -> None:
    h = harness
    alice = h.user("alice")
    _, theirs = await packs_ready(h)
    started = await h.emu.run_command(alice, "dino dojo", {"pack": "Braise", "maître": "maitre_moueffe"})
    assert started.message is not None
    assert "contre le maître lancé" in shown(started.message)
    await h.settle()
    match = await launched(h, theirs)
    assert match.number is not None
    message = battle_message(h, match.number)
    await h.emu.click(alice, "Tout voir", message=message)
    await h.advance(timedelta(minutes=10))
    assert "[file: dinocard-" in shown(battle_message(h, match.number))
    replay = await h.emu.run_command(alice, "dino revoir", {"numéro": match.number})
    assert replay.message is not None
    assert replay.message.ephemeral
    assert replay.message.attachments


async def test_an_owner_with_closed_dms_gets_a_show_button_where_the_battle_was_launched(harness) -> None:
    h = harness
    bob = h.user("bob", dms_closed=True)  # the attacked pack's owner
    _, theirs = await packs_ready(h)
    match = await launched(h, theirs)
    assert match.number is not None
    await h.emu.click(h.user("alice"), "Tout voir", message=battle_message(h, match.number))
    await h.advance(timedelta(minutes=10))
    await h.settle()
    assert not [m for m in h.emu.messages if m.where == ("dm", bob.name)]
    shows = [m for m in h.emu.messages if "Voir le résultat" in m.button_labels]
    assert len(shows) == 1
    revealed = await h.emu.click(bob, "Voir le résultat", message=shows[0])
    assert revealed.message is not None
    assert revealed.message.ephemeral
    # Won, lost or drawn, the owner reads the result of their own pack (the outcome depends on the battle's
    # draw, which on PostgreSQL may come from the bot's random stream in another order).
    assert "votre pack «\u00a0marée\u00a0»" in shown(revealed.message).lower()
