"""What every game's « Montrer » test shares (services/shared/showoff.py): the public posts it made, the
check of one pull shown once from a purchase's reply, and the authorization matrix's scene of a rare
copy owned by alice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from tests.conftest import MigratedCopy
from tests.e2e.authorization import Scene, Setup, World
from tests.e2e.conftest import run_harness

GRANT = ledger.Movement("test.grant")
DONE = "Votre carte est montrée dans ce salon."
ALREADY = "Cette carte a déjà été montrée."
NOT_ELIGIBLE = (
    "Seule une carte des raretés les plus hautes du jeu (HOSS\u00a0: Or ou mieux, retournée), encore à vous, "
    "peut être montrée."
)


async def seeded(tmp_path: Path, migrated_copy: MigratedCopy, seed: int) -> AsyncIterator[BotHarness]:
    """A bot whose games draw from `seed`: the same purchase pulls the same cards."""
    async for h in run_harness(BotHarness(migrated_copy(tmp_path / "bot.sqlite3"), seed=seed)):
        yield h


def text(result: Any) -> str:
    return str(result.message.render()).replace("\u202f", " ")


def public_posts(h: BotHarness) -> list[RecordedMessage]:
    return [
        m
        for m in h.emu.messages
        if m.ephemeral_to is None and not m.channel.is_dm and "montre sa carte" in m.render()
    ]


def show_labels(message: RecordedMessage | None) -> list[str]:
    assert message is not None
    return [label for label in message.button_labels if label.startswith("Montrer\u00a0: ")]


async def click_show(h: BotHarness, user: User, label: str, message: RecordedMessage) -> str:
    """The private answer to a « Montrer » click, the outbox delivered."""
    answer = await h.emu.click(user, label, message=message)
    assert answer.message is not None
    assert answer.message.ephemeral_to == user
    await h.settle()
    return text(answer)


async def shown_once(
    h: BotHarness, user: User, reply: RecordedMessage, name: str, line: str, picture: str
) -> None:
    """« Montrer : <name> » on a purchase's reply posts `line` with the card's picture once; a second click
    says it was shown already and posts nothing."""
    label = f"Montrer\u00a0: {name}"
    assert await click_show(h, user, label, reply) == DONE
    (post,) = public_posts(h)
    assert post.channel == reply.channel  # where the purchase was made
    assert line.format(player=f"<@{user.id}>") in post.render()
    (attached,) = post.attachments
    assert attached.filename == picture
    assert attached.data.startswith(b"\x89PNG")
    assert await click_show(h, user, label, reply) == ALREADY
    assert len(public_posts(h)) == 1


def copies_of(h: BotHarness, player_id: int, game: str, card: str) -> Any:
    assert h.bot is not None
    return h.bot.services.db.read(
        lambda conn: [
            int(r[0])
            for r in conn.execute(
                "SELECT id FROM cards WHERE owner_id = ? AND game = ? AND card_key = ? ORDER BY id",
                (player_id, game, card),
            )
        ]
    )


async def destroy(h: BotHarness, player_id: int, copies: list[int]) -> None:
    """The copies leave the player through the ledger, as a sale does."""
    assert h.bot is not None
    now = h.clock.now()

    def unit(conn: Connection) -> None:
        for copy in copies:
            ledger.destroy_card(conn, now, copy, player_id, GRANT)

    await h.bot.services.db.write(unit)


def rare_copy(game: str, card: str) -> Setup:
    """The matrix's scene: alice owns a copy of `card` (of the game's top rarity), which she could show."""

    async def scene(w: World) -> Scene:
        alice = w.user("alice")
        assert w.h.bot is not None
        services = w.h.bot.services
        now = services.clock.now()

        def unit(conn: Connection) -> int:
            ensure_player(conn, alice.id, now, services.registry)
            return ledger.mint_card(conn, now, alice.id, game, card, GRANT)

        return Scene({"copy": await services.db.write(unit)}, "alice")

    return scene
