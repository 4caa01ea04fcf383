"""Shared set-up for the Chocobataille end-to-end tests: players with a Bronze deck, a game to the first
turn, and a simple policy that plays whole turns through `/choco play` in the text notation."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

from core.clock import to_db
from emulator.payloads import role_payload
from emulator.records import RecordedMessage
from emulator.world import Channel, Role, User
from engine.choco.catalog import ChocoCatalog
from engine.choco.engine import ChocoEngine
from engine.choco.policy import greedy_steps
from engine.choco.state import ChocoState, EndTurn, Move, Step, Summon
from sandbox.harness import BotHarness
from services.choco import ChocoServices
from services.choco.game_store import GameRow
from services.choco.notation import to_text
from services.choco.text import zones
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from tests.e2e.messages import public_answer, shown

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

    def unit(conn: Connection) -> None:
        ensure_player(conn, user.id, now, services.registry)
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

    def unit(conn: Connection) -> set[str]:
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


async def db_read(h: BotHarness, sql: str, *args: object) -> list[tuple[Any, ...]]:
    assert h.bot is not None
    return await h.bot.services.db.read(lambda conn: [tuple(r) for r in conn.execute(sql, args)])


async def new_role(h: BotHarness, name: str, *members: User) -> Role:
    """A role made in the server, announced to the bot as Discord does (GUILD_ROLE_CREATE)."""
    assert h.guild is not None
    role = h.emu.add_role(h.guild, name, members=members)
    await h.emu.gateway.dispatch(
        "GUILD_ROLE_CREATE", {"guild_id": str(h.guild.id), "role": role_payload(role)}
    )
    await h.settle()
    return role


async def referee_role(h: BotHarness, *members: User) -> None:
    role = await new_role(h, "Arbitres", *members)
    olivia = h.user("olivia", admin=True)
    done = await h.emu.run_command(olivia, "setup rôle-arbitre", {"rôle": role})
    assert done.message is not None, done
    settings = await db_read(h, "SELECT referee_role_id FROM choco_guild_settings")
    assert settings == [(role.id,)]


async def game_on_turn_1(h: BotHarness, alice: User, bob: User, line: str = "front") -> GameRow:
    game = await challenge_accepted(h, alice, bob, channel=h.games_channel)
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    for user in (alice, bob):
        played = await h.emu.run_command(
            user, "choco jouer", {"actions": f"invoque M1 {line}"}, channel=thread
        )
        assert played.message is not None
        assert "Tour joué" in shown(played.message)
    await h.settle()
    game = await choco(h).games.get(game.id)
    assert game.state.turn == 1
    return game


async def players(h: BotHarness) -> tuple[User, User, User]:
    alice, bob, rita = h.user("alice"), h.user("bob"), h.user("rita")
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob)
    await referee_role(h, rita)
    return alice, bob, rita


MAX_TURNS = 200


async def thread_of(h: BotHarness, game_id: int) -> int:
    game = await choco(h).games.get(game_id)
    assert game.thread_id is not None
    return game.thread_id


async def play_to_the_end(h: BotHarness, users: dict[int, User], game_id: int) -> int:
    thread = h.emu.world.channels[await thread_of(h, game_id)]
    for _ in range(MAX_TURNS):
        game = await choco(h).games.get(game_id)
        if game.status != "live":
            return game.state.turn
        seat = game.state.active
        steps = greedy_turn(game.state, seat)
        text = notation(game, steps) or "fin"
        result = await h.emu.run_command(
            users[game.player(seat)], "choco jouer", {"actions": text}, channel=thread
        )
        assert result.message is not None
        assert "Tour joué" in shown(result.message), (text, shown(result.message))
        await h.settle()
    raise AssertionError("the game did not end")
