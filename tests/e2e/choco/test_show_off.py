"""« Montrer » on a /choco frogs reply: a frog's card of level Or 1 or Or 2 gets a button, which posts the
card with its picture in the channel once. Copies are counted here, so the player "still owns" the card
when they own any copy of it, whichever row the pull minted (services/shared/showoff.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sandbox.harness import BotHarness
from services.infra import ledger
from tests.conftest import MigratedCopy
from tests.e2e.show_off import (
    DONE,
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

SEED = 1  # ten frogs draw one Or card, Nostradamus (Or 1)
CARD = "nostradamus"
LABEL = "Montrer\u00a0: Nostradamus"


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    async for h in seeded(tmp_path, migrated_copy, SEED):
        yield h


async def test_an_or_frog_is_shown_once(harness: BotHarness) -> None:
    alice = harness.user("alice")
    bought = await harness.emu.run_command(alice, "choco frogs", {"count": 10})
    assert bought.message is not None
    assert show_labels(bought.message) == [LABEL]  # one button: the nine other frogs are below Or
    line = "{player} montre sa carte **Nostradamus** (Or 1, Chocobataille)\u202f!"
    await shown_once(harness, alice, bought.message, "Nostradamus", line, f"choco-{CARD}.png")


async def test_the_card_must_still_be_owned_whichever_copy_it_is(harness: BotHarness) -> None:
    alice = harness.user("alice")
    bought = await harness.emu.run_command(alice, "choco frogs", {"count": 10})
    assert bought.message is not None
    pulled = await copies_of(harness, alice.id, "choco", CARD)
    assert len(pulled) == 1
    await destroy(harness, alice.id, pulled)
    assert await click_show(harness, alice, LABEL, bought.message) == NOT_ELIGIBLE
    assert public_posts(harness) == []

    # another copy of the card comes back to her: the pulled row is gone, the card is hers again
    assert harness.bot is not None
    now = harness.clock.now()
    await harness.bot.services.db.write(
        lambda conn: ledger.mint_card(conn, now, alice.id, "choco", CARD, GRANT)
    )
    assert await click_show(harness, alice, LABEL, bought.message) == DONE
    assert len(public_posts(harness)) == 1
