"""Shared set-up for the Chocobataille end-to-end tests: players with a Bronze deck, a game to the first
turn, and a simple policy that plays whole turns through `/choco play` in the text notation."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from core.clock import to_db
from emulator.records import RecordedMessage
from emulator.world import User
from engine.choco.engine import ChocoEngine
from engine.choco.state import Attack, ChocoState, DeckAttack, Summon
from sandbox.harness import BotHarness
from services import ledger
from services.choco import ChocoServices
from services.choco_game_store import GameRow
from services.choco_notation import to_text
from services.players import ensure_player

GRANT = ledger.Movement("test.grant")
ENGINE = ChocoEngine()


def choco(h: BotHarness) -> ChocoServices:
    assert h.bot is not None
    services: ChocoServices = h.bot.services.games["choco"]
    return services


def shown(message: RecordedMessage) -> str:
    return str(message.render()).replace("\u202f", " ")


async def with_bronze_deck(h: BotHarness, user: User, *, wizards_only: bool = True) -> list[str]:
    """Two copies of the 12 strongest bronze wizards, minted, saved as the Bronze deck; the player is
    known to the bot for 60 days (the Bronze League asks for 30)."""
    assert h.bot is not None
    services = h.bot.services
    catalog = choco(h).economy.decks.catalog
    bronze = [
        c
        for c in catalog.cards
        if c.rarity in ("bronze_1", "bronze_2") and (c.type == "normal" or not wizards_only)
    ]
    bronze.sort(key=lambda c: (-(c.pa or 0) - (c.pv or 0), c.id))
    deck = [c.id for c in bronze[:12] for _ in range(2)]
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


async def challenge_accepted(h: BotHarness, alice: User, bob: User) -> GameRow:
    made = await h.emu.run_command(alice, "choco defi", {"joueur": bob, "ligue": "Ligue de Bronze"})
    assert made.message is not None and not made.message.ephemeral
    await h.emu.click(bob, "Accepter", message=made.message)
    await h.settle()
    games = await choco(h).games.live_games(alice.id)
    assert len(games) == 1
    return games[0]


def greedy_turn(state: ChocoState, seat: int) -> list[object]:
    """Summon the strongest wizard to the front, then every front wizard hits the weakest enemy front
    wizard (or the deck once the enemy board is empty)."""
    steps: list[object] = []
    legal = ENGINE.legal_actions(state, seat)
    summons = [a for a in legal if isinstance(a, Summon) and a.line == "front"]
    if summons:
        hand = {c.uid: c for c in state.sides[seat].hand}
        best = max(summons, key=lambda a: (hand[a.card].pa, hand[a.card].pv, a.card))
        steps.append(best)
        state, _ = ENGINE.apply(state, seat, best)
    for attacker in state.sides[seat].front:
        enemy = state.sides[1 - seat]
        if state.finished:
            break
        legal = ENGINE.legal_actions(state, seat)
        attacks = [a for a in legal if isinstance(a, Attack) and a.attacker == attacker.uid]
        decks = [a for a in legal if isinstance(a, DeckAttack) and a.attacker == attacker.uid]
        if attacks:
            pv = {c.uid: c.pv for c in enemy.front}
            choice: object = min(attacks, key=lambda a: (pv.get(a.target, 99), a.target))
        elif decks and state.progress.deck_attacks == 0:
            choice = decks[0]
        else:
            continue
        steps.append(choice)
        state, _ = ENGINE.apply(state, seat, choice)
    return steps


def notation(game: GameRow, steps: list[object]) -> str:
    seat = game.state.active
    return to_text(steps, game.state, seat)  # type: ignore[arg-type]
