"""« Montrer » in every game (services/shared/showoff.py): a purchase that pulls a card of the game's top
rarities gets one button, which posts the card with its picture in the channel once; a second click says
it was shown already. A card no longer the player's is refused privately and posts nothing. Where copies
are interchangeable (Chocobataille, Pillz, Dinocard) another copy of the card makes it the player's again,
whichever row the pull minted; where each copy is its own (HOSS's rarity, Immortal's War's experience),
only the pulled copy counts.

Each game's pull is seeded (`Pull.seed`): the same purchase pulls the same card. HOSS's booster draws any
card, so its pull makes the first copy Or before flipping it (tests/e2e/hoss/test_show_off.py has what
only HOSS does: face-down cards, a Divin flipped later)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.immortals.economy import GOLD as IMMORTALS_GOLD
from services.infra import ledger
from tests.conftest import MigratedCopy
from tests.e2e.hoss.helpers import booster_with, hoss
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
from tests.support.registries import every_game


@dataclass(frozen=True)
class Pulled:
    reply: RecordedMessage  # the message with the « Montrer » button
    card: str  # the card's key
    name: str  # its French name, as the button and the post say it


@dataclass(frozen=True)
class Pull:
    game: str
    seed: int
    level: str  # the pulled card's rarity, as the post says it
    title: str  # the game's name, as the post says it
    any_copy: bool  # whether any copy of the card is the player's (interchangeable copies)
    buy: Callable[[BotHarness, User], Awaitable[Pulled]]


def command(
    line: str, options: dict[str, object], card: str, name: str
) -> Callable[[BotHarness, User], Awaitable[Pulled]]:
    async def buy(h: BotHarness, user: User) -> Pulled:
        bought = await h.emu.run_command(user, line, options)
        assert bought.message is not None
        return Pulled(bought.message, card, name)

    return buy


async def recruit(h: BotHarness, user: User) -> Pulled:
    """The sign-up gift, 50 more gold (a recruit costs 150, a player starts with 100), one recruit."""
    await h.emu.run_command(user, "immortals collection")
    assert h.bot is not None
    now = h.clock.now()
    await h.bot.services.db.write(lambda conn: ledger.credit(conn, now, user.id, IMMORTALS_GOLD, 50, GRANT))
    bought = await h.emu.run_command(user, "immortals recruit")
    assert bought.message is not None
    return Pulled(bought.message, "lich", "Liche")


async def flip_or(h: BotHarness, user: User) -> Pulled:
    """A booster whose first copy is Or (the others Basique), its first card flipped."""
    await booster_with(h, user, {0: "or"})
    flipped = await h.emu.click(user, "Retourner")
    assert flipped.message is not None
    (opening,) = await hoss(h).shop.unopened(user.id)
    first = (await hoss(h).shop.opening(user.id, opening.id)).cards[0]
    assert first.card is not None
    return Pulled(flipped.message, first.card.id, first.card.name.fr)


PULLS = [
    # ten frogs draw one Or card, Nostradamus (Or 1)
    Pull(
        "choco",
        1,
        "Or 1",
        "Chocobataille",
        True,
        command("choco frogs", {"count": 10}, "nostradamus", "Nostradamus"),
    ),
    # three boosters draw one rare card, Foudre divine
    Pull(
        "dinocard",
        2,
        "Rare",
        "Dinocard",
        True,
        command("dino buy", {"count": 3}, "foudre_divine", "Foudre divine"),
    ),
    Pull("hoss", 1, "Or", "HOSS TCG", False, flip_or),
    # after the sign-up gift's draw, the first recruit is a légendaire, Liche
    Pull("immortals", 4, "Légendaire", "Immortal's War", False, recruit),
    # one pack draws one character of 4★ or more, Le Patriarche voilé (5★)
    Pull(
        "pillz",
        5,
        "★★★★★",
        "Pillz duel",
        True,
        command("pillz packs", {"count": 1}, "moines-the-veiled-patriarch", "Le Patriarche voilé"),
    ),
]


@pytest.fixture(params=PULLS, ids=[p.game for p in PULLS])
def pull(request: pytest.FixtureRequest) -> Pull:
    found: Pull = request.param
    return found


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy, pull: Pull) -> AsyncIterator[BotHarness]:
    async for h in seeded(tmp_path, migrated_copy, pull.seed):
        yield h


def test_every_game_shows_off() -> None:

    assert sorted(p.game for p in PULLS) == sorted(
        spec.key for spec in every_game().all_games() if spec.show_off
    )


async def test_a_top_rarity_pull_is_shown_once(harness: BotHarness, pull: Pull) -> None:
    alice = harness.user("alice")
    pulled = await pull.buy(harness, alice)
    assert show_labels(pulled.reply) == [f"Montrer\u00a0: {pulled.name}"]  # the other cards are below it
    line = f"{{player}} montre sa carte **{pulled.name}** ({pull.level}, {pull.title})\u202f!"
    await shown_once(harness, alice, pulled.reply, pulled.name, line, f"{pull.game}-{pulled.card}.png")


async def test_a_card_no_longer_owned_is_refused(harness: BotHarness, pull: Pull) -> None:
    alice = harness.user("alice")
    pulled = await pull.buy(harness, alice)
    label = f"Montrer\u00a0: {pulled.name}"
    await destroy(harness, alice.id, await copies_of(harness, alice.id, pull.game, pulled.card))
    assert await click_show(harness, alice, label, pulled.reply) == NOT_ELIGIBLE
    assert public_posts(harness) == []

    # another copy of the card comes to her: the card is hers again, the pulled copy is not
    assert harness.bot is not None
    now = harness.clock.now()
    await harness.bot.services.db.write(
        lambda conn: ledger.mint_card(conn, now, alice.id, pull.game, pulled.card, GRANT)
    )
    assert await click_show(harness, alice, label, pulled.reply) == (DONE if pull.any_copy else NOT_ELIGIBLE)
    assert len(public_posts(harness)) == (1 if pull.any_copy else 0)
