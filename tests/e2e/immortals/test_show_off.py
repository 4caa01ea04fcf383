"""« Montrer » on an /immortals recruit reply: a légendaire unit gets a button, which posts the unit with its
picture in the channel once. Copies differ here (experience), so the copy itself must still be the
player's (services/immortals/showoff.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from emulator.records import RecordedMessage
from sandbox.harness import BotHarness
from services.immortals.economy import GOLD
from services.infra import ledger
from tests.conftest import MigratedCopy
from tests.e2e.show_off import (
    GRANT,
    NOT_ELIGIBLE,
    click_show,
    copies_of,
    destroy,
    public_posts,
    seeded,
    show_labels,
    shown_once,
)

SEED = 4  # after the sign-up gift's draw, the first recruit is a légendaire: Liche
LABEL = "Montrer\u00a0: Liche"


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    async for h in seeded(tmp_path, migrated_copy, SEED):
        yield h


async def recruited(h: BotHarness) -> RecordedMessage:
    """alice's sign-up gift, 50 more gold (a recruit costs 150, she starts with 100), one recruit."""
    alice = h.user("alice")
    await h.emu.run_command(alice, "immortals collection")
    assert h.bot is not None
    now = h.clock.now()
    await h.bot.services.db.write(lambda conn: ledger.credit(conn, now, alice.id, GOLD, 50, GRANT))
    bought = await h.emu.run_command(alice, "immortals recruit")
    assert bought.message is not None
    assert show_labels(bought.message) == [LABEL]
    return bought.message


async def test_a_legendary_recruit_is_shown_once(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await recruited(harness)
    line = "{player} montre sa carte **Liche** (Légendaire, Immortal's War)\u202f!"
    await shown_once(harness, alice, reply, "Liche", line, "immortals-lich.png")


async def test_a_copy_no_longer_hers_is_refused(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await recruited(harness)
    await destroy(harness, alice.id, await copies_of(harness, alice.id, "immortals", "lich"))
    assert await click_show(harness, alice, LABEL, reply) == NOT_ELIGIBLE
    assert public_posts(harness) == []
