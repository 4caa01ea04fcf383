"""A French and an English player through Discord (docs/trades.md and docs/pillz/duels.md, "Card names
across languages"): in a trade each reads the card in their language with the other's name beside it,
the English player in the DM window the bot sends him; in a Pillz duel the public message, in the
server's French, names each character with its English name beside it, and the English player's controls
name his character in English with its French name beside."""

from __future__ import annotations

import re

from emulator.records import RecordedMessage, walk_components
from emulator.world import User
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from tests.e2e.messages import only_public, public_answer, shown
from tests.e2e.trades.authorization import members_for_long

SCOUT = "ashigaru-rice-field-scout"
FRENCH_NAME, ENGLISH_NAME = "Éclaireur des rizières", "Rice-field Scout"


async def mint_scout(h: BotHarness, owner: User) -> int:
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()

    def unit(conn: Connection) -> int:
        ensure_player(conn, owner.id, now, services.registry)
        return ledger.mint_card(conn, now, owner.id, "pillz", SCOUT, ledger.Movement("test"))

    return await services.db.write(unit)


async def test_a_french_and_an_english_player_trade_and_duel_each_in_their_language(
    harness: BotHarness,
) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    copy = await mint_scout(h, alice)
    await h.emu.run_command(bob, "profile")  # the bot learns bob's language

    await h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": "pillz"})
    offered = await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{copy}"})
    await h.settle()
    assert offered.message is not None
    assert f"{FRENCH_NAME} ({ENGLISH_NAME})" in shown(offered.message)
    bobs_window = shown(h.emu.dm_messages(bob)[-1])
    assert "Trade #1" in bobs_window
    assert f"{ENGLISH_NAME} ({FRENCH_NAME})" in bobs_window
    await h.emu.run_command(alice, "échange annuler", {"échange": 1})

    made = await h.emu.run_command(alice, "pillz défi", {"joueur": bob})
    await h.emu.click(
        bob, "Accepter", message=public_answer(made)
    )  # the public message speaks the server's French
    await h.settle()
    assert h.bot is not None
    duels = h.bot.services.games["pillz"].duels
    (duel,) = await duels.live(alice.id)
    assert duel.state is not None
    names = [duels.catalog.card(f.card_id).name for hand in duel.state.hands for f in hand]
    public = shown(only_public(h, rf"Duel de Pillz n° {duel.id}\b"))
    assert [n for n in names if n.fr != n.en]  # the check below has something to find
    for name in names:
        assert (f"{name.fr} ({name.en})" in public) == (name.fr != name.en)

    seat = duel.seat_of(bob.id)
    hand = [duels.catalog.card(f.card_id).name for f in duel.state.hands[seat]]
    place = next((i for i, name in enumerate(hand) if name.fr != name.en), 0)
    led = None
    if seat not in duel.to_act():  # alice leads this round: she plays first, bob answers her character
        led = duels.catalog.card(duel.state.hands[1 - seat][0].card_id).name
        await play(h, alice, duel.id, 0)
    controls = await open_controls(h, bob, duel.id, place)
    assert "Your move" in controls  # bob's controls, in English
    for name in (hand[place], led):
        if name is not None:
            assert (f"{name.en} ({name.fr})" in controls) == (name.en != name.fr)


async def open_controls(h: BotHarness, user: User, duel_id: int, place: int) -> str:
    """The player's controls opened from the public message, a character chosen: their text."""
    controls = await h.emu.click(user, "Jouer", message=only_public(h, rf"Duel de Pillz n° {duel_id}\b"))
    assert controls.message is not None
    picked = await h.emu.select(
        user, values=["0"], custom_id=bet_select(controls.message, place), message=controls.message
    )
    assert picked.message is not None
    return shown(picked.message)


def bet_select(message: RecordedMessage, place: int) -> str:
    """The custom_id of the controls' select of the character at `place` (one select a character)."""
    (custom_id,) = (
        str(c["custom_id"])
        for c in walk_components(message.components)
        if re.fullmatch(rf"pillz:bet:\d+:\d+:{place}", str(c.get("custom_id")))
    )
    return custom_id


async def play(h: BotHarness, user: User, duel_id: int, place: int) -> None:
    """The French player plays the character at `place` with no pillz."""
    controls = await h.emu.click(user, "Jouer", message=only_public(h, rf"Duel de Pillz n° {duel_id}\b"))
    assert controls.message is not None
    picked = await h.emu.select(
        user, values=["0"], custom_id=bet_select(controls.message, place), message=controls.message
    )
    assert picked.message is not None
    await h.emu.click(user, "Jouer (0 pillz)", message=picked.message)
    await h.settle()
