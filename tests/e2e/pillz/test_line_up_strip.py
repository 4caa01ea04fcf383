"""The Pillz line-up as a picture: the private controls a player opens carry one PNG of their four drawn
characters' figures, at their stars, and a « Voir une carte » button whose select shows any of them whole
(the controls' rows hold the characters' selects); their later edits (the pillz chosen, the move) keep the
picture. The public duel message carries no picture (it is
edited after every move)."""

from __future__ import annotations

import io

from PIL import Image

from sandbox.harness import BotHarness
from tests.e2e.pillz.helpers import bet_select, duel_message, friend_duel, move, pillz


async def test_the_controls_show_the_players_line_up_as_one_picture(harness: BotHarness) -> None:
    alice, bob, duel_id = await friend_duel(harness)
    duel = await pillz(harness).duels.get(duel_id)
    assert duel.state is not None
    catalog = pillz(harness).duels.catalog
    for user in (alice, bob):
        seat = duel.seat_of(user.id)
        if seat not in duel.to_act():
            continue
        controls = await harness.emu.click(user, "Jouer", message=duel_message(harness, duel_id))
        assert controls.message is not None
        assert controls.message.ephemeral_to == user
        (picture,) = controls.message.attachments
        assert picture.filename == f"pillz-line-up-{duel_id}.png"
        image = Image.open(io.BytesIO(picture.data))
        image.load()
        fighters = duel.state.hands[seat]
        assert len(fighters) == 4
        names = []
        for fighter in fighters:
            card = catalog.card(fighter.card_id)
            assert card is not None
            names.append(card.name.get("fr"))
        assert image.info["Description"] == " · ".join(names)
        viewer = (await harness.emu.click(user, "Voir une carte…", message=controls.message)).message
        assert viewer is not None
        assert viewer.ephemeral_to == user
        assert set(names) <= set(viewer.select_options)
        whole = await harness.emu.select(user, names[0], custom_id="cardview:pillz", message=viewer)
        assert whole.message is not None
        assert whole.message.ephemeral_to == user
        assert [a.filename for a in whole.message.attachments] == [f"pillz-{fighters[0].card_id}.png"]
        picked = await harness.emu.select(
            user, values=["1"], custom_id=bet_select(controls.message, 0), message=controls.message
        )
        assert picked.message is not None
        assert [a.filename for a in picked.message.attachments] == [picture.filename]  # kept by the edit
        played = await move(harness, user, duel_id, 0, 1)
        assert [a.filename for a in played.attachments] == [picture.filename]
        break
    else:
        raise AssertionError("nobody to act")
    public = [m for m in harness.emu.messages if m.ephemeral_to is None and not m.channel.is_dm]
    assert public
    assert [a.filename for m in public for a in m.uploads] == []
