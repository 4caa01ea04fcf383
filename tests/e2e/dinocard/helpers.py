"""Dinocard through Discord: packs built by command, a challenge prepared and launched, the battle's
public message."""

from __future__ import annotations

import re
from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import Channel, User
from sandbox.harness import BotHarness
from services.dinocard import DinocardServices
from services.dinocard.results import MATCHES
from services.shared.matches import Match
from tests.e2e.messages import shown


def dino(h: BotHarness) -> DinocardServices:
    assert h.bot is not None
    services: DinocardServices = h.bot.services.games["dinocard"]
    return services


async def build_pack(
    h: BotHarness, user: User, name: str, element: str, channel: Channel | None = None
) -> int:
    made = await h.emu.run_command(
        user, "dino pack créer", {"nom": name, "élément": element}, channel=channel
    )
    assert made.message is not None
    found = re.search(r"\(n° (\d+)\)", shown(made.message))
    assert found is not None, shown(made.message)
    return int(found.group(1))


async def packs_ready(h: BotHarness, channel: Channel | None = None) -> tuple[int, int]:
    """alice's fire pack and bob's water pack, a day later (their daily challenges open)."""
    alice, bob = h.user("alice"), h.user("bob")
    mine = await build_pack(h, alice, "Braise", "feu", channel)
    theirs = await build_pack(h, bob, "Marée", "eau", channel)
    await h.advance(timedelta(days=1))
    return mine, theirs


async def prepared(h: BotHarness, opponent: int, channel: Channel | None = None) -> RecordedMessage:
    alice = h.user("alice")
    prep = await h.emu.run_command(
        alice, "dino défi", {"pack": "Braise", "adversaire": f"#{opponent}"}, channel=channel
    )
    assert prep.message is not None
    assert prep.message.ephemeral
    return prep.message


async def launched(h: BotHarness, opponent: int, channel: Channel | None = None) -> Match:
    prep = await prepared(h, opponent, channel)
    click = await h.emu.click(h.user("alice"), "Lancer le Défi", message=prep)
    assert click.message is not None
    await h.settle()
    live = await dino(h).battles.db.read(lambda conn: MATCHES.live_of(conn, h.user("alice").id))
    (match,) = [m for m in live if m.kind == "defi"]
    return match


def battle_message(h: BotHarness, number: int) -> RecordedMessage:
    found = [m for m in h.emu.messages if not m.ephemeral and f"Combat n° {number}\u00a0:" in shown(m)]
    assert len(found) == 1, [shown(m) for m in found]
    return found[0]
