"""Shared set-up for the Chocobataille end-to-end tests: players with a Bronze deck, a game to the first
turn, and a simple policy that plays whole turns through `/choco play` in the text notation."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from core.clock import to_db
from emulator.world import Channel, User
from engine.choco.engine import ChocoEngine
from engine.choco.policy import greedy_steps
from engine.choco.state import ChocoState, Step
from sandbox.harness import BotHarness
from services.choco import ChocoServices
from services.choco.game_store import GameRow
from services.choco.notation import to_text
from services.infra import ledger
from services.infra.players import ensure_player
from tests.e2e.messages import public_answer

GRANT = ledger.Movement("test.grant")
ENGINE = ChocoEngine()


def choco(h: BotHarness) -> ChocoServices:
    assert h.bot is not None
    services: ChocoServices = h.bot.services.games["choco"]
    return services


async def with_bronze_deck(
    h: BotHarness, user: User, *, wizards_only: bool = True, offset: int = 0
) -> list[str]:
    """Two copies of 12 bronze cards, minted, saved as the Bronze deck; the player is known to the bot for
    60 days (the Bronze League asks for 30). By default the 12 strongest plain wizards; with
    `wizards_only=False`, 8 wizards with an effect where there are (strongest first, from `offset`) and
    4 pure effects (from `offset`)."""
    assert h.bot is not None
    services = h.bot.services
    catalog = choco(h).economy.decks.catalog
    bronze = [c for c in catalog.cards if c.rarity in ("bronze_1", "bronze_2")]
    bronze.sort(key=lambda c: (-(c.pa or 0) - (c.pv or 0), c.id))
    if wizards_only:
        chosen = [c for c in bronze if c.type == "normal"][:12]
    else:
        effects = [c for c in bronze if c.type not in ("normal", "pure")]
        plain = [c for c in bronze if c.type == "normal"]
        pure = [c for c in bronze if c.type == "pure"]
        wizards = (effects[offset:] + plain)[:8]
        chosen = wizards + pure[offset : offset + 4]
        assert len(chosen) == 12
        assert any(c.type == "pure" for c in chosen)
    deck = [c.id for c in chosen for _ in range(2)]
    now = services.clock.now()

    def unit(conn: sqlite3.Connection) -> None:
        ensure_player(conn, user.id, now)
        conn.execute(
            "UPDATE players SET created_at = ? WHERE id = ?", (to_db(now - timedelta(days=60)), user.id)
        )
        for card in deck:
            ledger.mint_card(conn, now, user.id, "choco", card, GRANT, {})

    await services.db.write(unit)
    await choco(h).economy.decks.save(user.id, "bronze", deck)
    return deck


async def challenge_accepted(
    h: BotHarness, alice: User, bob: User, *, channel: Channel | None = None
) -> GameRow:
    """Alice challenges Bob (in `channel`, else where Alice last acted) and Bob accepts: the new game."""
    made = await h.emu.run_command(
        alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=channel
    )
    await h.emu.click(bob, "Accepter", message=public_answer(made))
    await h.settle()
    games = await choco(h).games.live_games(alice.id)
    assert games
    return max(games, key=lambda g: g.id)


def greedy_turn(state: ChocoState, seat: int) -> list[Step]:
    """The engine's fixed test policy (engine/choco/policy.py `greedy_steps`)."""
    return list(greedy_steps(state, seat))


def notation(game: GameRow, steps: list[Step]) -> str:
    seat = game.state.active
    return to_text(steps, game.state, seat)
