"""Hidden information through Discord: whole games played by the bot's referee, and every public message
(not ephemeral, not a DM) scanned against the game as it stood when the message was posted. A card name
may appear only if that card is, or has been, public (board face up, graveyard, active effect, the
reward); any copy being public is enough. A negative control proves the scan can fail."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from emulator.records import RecordedMessage
from emulator.world import User
from engine.choco.catalog import ChocoCatalog
from engine.choco.state import ChocoState, EndTurn, Move, Step, Summon
from sandbox.harness import BotHarness
from services.choco.text import zones
from tests.e2e.choco.helpers import (
    ENGINE,
    challenge_accepted,
    choco,
    greedy_turn,
    notation,
    with_bronze_deck,
)
from tests.e2e.messages import shown

pytestmark = pytest.mark.sweep

MAX_TURNS = 200


def names(catalog: ChocoCatalog, card_id: str) -> set[str]:
    card = catalog.card(card_id)
    assert card is not None
    return {card.name.fr, card.name.en}


def public_ids(state: ChocoState) -> set[str]:
    """Card ids a spectator sees now: the board once face up, graveyards, the cards of active effects."""
    seen: set[str] = set()
    for side in state.sides:
        if state.turn > 0:
            seen |= {c.card_id for c in (*side.front, *side.reserve)}
        seen |= {c.card_id for c in side.graveyard}
    seen |= {a.card.card_id for a in state.actives if a.card is not None}
    return seen


def hidden_ids(state: ChocoState) -> set[str]:
    hidden: set[str] = set()
    for side in state.sides:
        hidden |= {c.card_id for c in (*side.hand, *side.pioche)}
        if state.turn == 0:
            hidden |= {c.card_id for c in (*side.front, *side.reserve)}
    return hidden


def leaks(text: str, secret: set[str], allowed: set[str]) -> list[str]:
    """Secret names found in `text`, once the allowed names (which may contain a secret one) are blanked."""
    for name in sorted(allowed, key=len, reverse=True):
        text = re.sub(re.escape(name), "·", text, flags=re.IGNORECASE)
    return sorted(n for n in secret if re.search(re.escape(n), text, flags=re.IGNORECASE))


class Watch:
    """Checks each public message against the state at the time it appeared."""

    def __init__(self, h: BotHarness, thread: int | None = None) -> None:
        self.h = h
        self.thread = thread  # only this game's thread (several games at once), else every channel
        self.catalog = choco(h).economy.decks.catalog
        self.seen = 0
        self.revealed: set[str] = set()  # card ids public now or before
        self.found: list[tuple[RecordedMessage, list[str]]] = []
        self.checked = 0

    async def named(self, game_id: int, state: ChocoState) -> set[str]:
        """Card ids named by the public events of the game's log (a card hit in the pioche, destroyed by a
        penalty, taken back from the graveyard...): the rules make them public."""
        assert self.h.bot is not None
        rows = await self.h.bot.services.db.read(
            lambda conn: conn.execute(
                "SELECT data FROM choco_game_log WHERE match_id ="
                " (SELECT id FROM matches WHERE game = 'choco' AND number = ?)",
                (game_id,),
            ).fetchall()
        )
        uids = {c.uid: c.card_id for side in state.sides for _, cards in zones(side) for c in cards}
        found: set[str] = set()

        def walk(value: object) -> None:
            if isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)
            elif isinstance(value, str):
                if self.catalog.card(value) is not None:
                    found.add(value)
                elif value in uids:
                    found.add(uids[value])

        for (data,) in rows:
            for event in json.loads(data).get("events", []):
                if event.get("visible_to") is None:
                    walk(event.get("data"))
        return found

    async def check(self, game_id: int, extra: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        state = (await choco(self.h).games.get(game_id)).state
        self.revealed |= public_ids(state) | extra | await self.named(game_id, state)
        allowed = {n for c in self.revealed for n in names(self.catalog, c)}
        secret = {n for c in hidden_ids(state) - self.revealed for n in names(self.catalog, c)}
        new = self.h.emu.messages[self.seen :]
        self.seen = len(self.h.emu.messages)
        for message in new:
            if message.ephemeral or message.channel.is_dm:
                continue
            if self.thread is not None and message.channel.id != self.thread:
                continue
            texts = [shown(message), *(str(v) for v in message.history)]
            found = sorted({n for t in texts for n in leaks(t, secret, allowed)})
            self.checked += 1
            if found:
                self.found.append((message, found))


async def reward_of(h: BotHarness, game_id: int) -> set[str]:
    """The catalog id of the game's reward card: the last post names it in public."""
    assert h.bot is not None

    def unit(conn: sqlite3.Connection) -> set[str]:
        results = conn.execute(
            "SELECT result FROM matches WHERE game = 'choco' AND number = ?", (game_id,)
        ).fetchall()
        cards = [json.loads(r[0]).get("reward_card") for r in results if r[0]]
        rows = [conn.execute("SELECT card_key FROM cards WHERE id = ?", (c,)).fetchone() for c in cards]
        return {str(r[0]) for r in rows if r is not None}

    return await h.bot.services.db.read(unit)


def policy(state: ChocoState, seat: int) -> list[Step]:
    """The greedy turn, completed with a summon or a move to the front when the turn could not end."""
    steps = greedy_turn(state, seat)
    after = state
    for step in steps:
        after, _ = ENGINE.apply(after, seat, step)
    for _ in range(3):
        legal = ENGINE.legal_actions(after, seat)
        if after.finished or any(isinstance(a, EndTurn) for a in legal):
            break
        extra = next((a for a in legal if isinstance(a, Summon)), None) or next(
            (a for a in legal if isinstance(a, Move) and a.line == "front"), None
        )
        assert extra is not None, legal
        steps.append(extra)
        after, _ = ENGINE.apply(after, seat, extra)
    return steps


async def play_game(h: BotHarness, watch: Watch, alice: User, bob: User, *, with_fault: bool) -> int:
    game = await challenge_accepted(h, alice, bob, channel=h.games_channel)
    users = {alice.id: alice, bob.id: bob}
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    await watch.check(game.id)
    for user in (alice, bob):
        hand = game.state.sides[game.seat_of(user.id)].hand
        wizard = next(i for i, c in enumerate(hand, 1) if not c.pure)
        placed = await h.emu.run_command(
            user, "choco jouer", {"actions": f"invoque M{wizard} front"}, channel=thread
        )
        assert placed.message is not None
        assert "Tour joué" in shown(placed.message), shown(placed.message)
        await h.settle()
        await watch.check(game.id)
    for turn in range(MAX_TURNS):
        game = await choco(h).games.get(game.id)
        if game.status != "live":
            break
        seat = game.state.active
        user = users[game.player(seat)]
        if with_fault and turn == 2:  # a public fault notice must not name the card either
            await h.emu.run_command(user, "choco jouer", {"actions": "invoque M9 front"}, channel=thread)
            await h.settle()
            game = await choco(h).games.get(game.id)
            await watch.check(game.id)
        text = notation(game, policy(game.state, seat)) or "fin"
        played = await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
        assert played.message is not None
        assert "Tour joué" in shown(played.message), shown(played.message)
        await h.settle()
        after = await choco(h).games.get(game.id)
        reward = await reward_of(h, game.id) if after.status == "over" else set()
        await watch.check(game.id, reward)
    game = await choco(h).games.get(game.id)
    assert game.status == "over", game.state.turn
    return game.state.turn


async def test_no_public_message_names_a_hidden_card(harness: BotHarness) -> None:
    h = harness
    watch = Watch(h)
    decks = (
        ("alice", "bob", {"wizards_only": True}, {"wizards_only": True}),
        ("carl", "dora", {"wizards_only": False}, {"wizards_only": False, "offset": 1}),
        ("emma", "fred", {"wizards_only": False, "offset": 2}, {"wizards_only": True}),
    )
    turns = []
    for first, second, one, two in decks:
        a, b = h.user(first), h.user(second)
        await with_bronze_deck(h, a, **one)
        await with_bronze_deck(h, b, **two)
        watch.revealed = set()
        turns.append(await play_game(h, watch, a, b, with_fault=True))
    assert all(t > 1 for t in turns)
    assert watch.checked > 3 * 5
    assert watch.found == [], "\n\n".join(f"{n}: {shown(m)}" for m, n in watch.found)

    # Negative control: a public message naming a card then only in a hand is caught.
    game = max(await choco(h).games.live_games(h.user("alice").id) or [], key=lambda g: g.id, default=None)
    assert game is None
    last = await choco(h).games.get(3)
    assert last.thread_id is not None
    hidden = sorted(hidden_ids(last.state) - watch.revealed)
    assert hidden, "every card of the last game was revealed"
    name = watch.catalog.card(hidden[0]).name.fr  # type: ignore[union-attr]
    await h.emu.post_message(
        h.user("zoe"), f"Psst, il a {name} en main", channel=h.emu.world.channels[last.thread_id]
    )
    await watch.check(last.id)
    assert [n for _, n in watch.found] == [[name]]
