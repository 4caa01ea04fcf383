"""A practice game against the bot, for newcomers (issue 17, docs/choco/practice.md).

The player brings their saved deck of a league, without the league's entry conditions; the bot plays seat
1 with a deck drawn from the league's cards, decides from its seat's view only (engine/choco/ai.py), and
answers in the unit of the player's declaration (services/choco/flow.py). Nothing is counted: no result,
no ladder, no reward. The game is played in its own thread like any other, with the same commands and
buttons; instead of penalties, a game left idle for a week is cancelled (services/choco/clock.py).
"""

from __future__ import annotations

import random

from core.clock import Clock
from core.errors import BadInput, NotAllowed
from core.message_guard import echo
from engine.choco import DECK_SIZE, MAX_COPIES, ChocoCatalog, ai_turn
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.choco.economy import ALLOWED_RARITIES, league_of
from services.choco.entry import check_can_play
from services.choco.game_store import (
    ENGINE,
    LEAGUES,
    PRACTICE,
    GameRow,
    by_request,
    create_practice,
    live_games_of,
    log,
)
from services.infra import guild_settings
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database

BOT_WIZARDS = 10  # distinct wizards in the bot's deck, two copies each; the rest are pure effects
BOT_PLAYER_ID = 0  # the bot's seat in the engine's setup; the match's seat holds no player


def practice_deck(catalog: ChocoCatalog, league: str, rng: random.Random) -> list[str]:
    """The bot's deck: 24 cards the league allows, drawn at random, two copies of ten wizards and pure
    effects for the rest (wizards again if the league has too few effects), sorted by id."""
    allowed = ALLOWED_RARITIES[league_of(league)]
    usable = sorted((c for c in catalog.cards if c.rarity in allowed), key=lambda c: c.id)
    wizards = [c.id for c in usable if c.type != "pure"]
    pures = [c.id for c in usable if c.type == "pure"]
    chosen = rng.sample(wizards, min(BOT_WIZARDS, len(wizards)))
    rest = [c for c in wizards if c not in chosen]
    rng.shuffle(pures)
    deck = [card for card in chosen for _ in range(MAX_COPIES)]
    for card in (*pures, *rest):
        deck += [card] * min(MAX_COPIES, DECK_SIZE - len(deck))
        if len(deck) == DECK_SIZE:
            break
    return sorted(deck)


class ChocoPractice:
    def __init__(
        self, db: Database, clock: Clock, catalog: ChocoCatalog, rng: random.Random, *, registry: GameRegistry
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # the bot's deck and the seed: used only inside write units (the writer's thread)

    async def start(
        self, guild_id: int, channel_id: int, player: int, league: str, *, key: str | int
    ) -> GameRow:
        """A practice game (its number, its channel), the bot's first card already placed face down; the
        caller opens the thread (`ChocoGames.claim_thread`, `open_thread`) as for an accepted challenge.
        One live practice game per player; a replay of `key` (a double click) returns the same game."""
        if league not in LEAGUES:
            raise BadInput("choco.error.league", league=echo(league))
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            request = f"choco:practice:{key}"
            found = by_request(conn, request)
            if found is not None and found.seats[0] == player:
                return found
            ensure_player(conn, player, now, self.registry)
            running = [g for g in live_games_of(conn, player) if g.mode == PRACTICE]
            if running:
                raise NotAllowed("choco.error.practice_running", where=f"<#{running[0].where}>")
            deck = check_can_play(conn, self.catalog, player, guild_id, league, now, ranked=False)
            bot_deck = practice_deck(self.catalog, league, self.rng)
            seed = self.rng.getrandbits(62)
            players = [
                PlayerSetup(seat=0, player_id=player, deck=tuple(deck)),
                PlayerSetup(seat=1, player_id=BOT_PLAYER_ID, deck=tuple(bot_deck)),
            ]
            state = ENGINE.new_game(players, seed, {CATALOG_OPTION: self.catalog})
            placement = ai_turn(state, 1)
            state, events = ENGINE.apply(state, 1, placement)
            channel = guild_settings.read(conn, guild_id).games_channel_id or channel_id
            game = create_practice(
                conn,
                now,
                guild_id=guild_id,
                channel_id=channel,
                league=league,
                player=player,
                seed=seed,
                decks=(deck, bot_deck),
                state=state,
                request_key=request,
            )
            log(
                conn,
                game,
                now,
                player,
                "created",
                {"practice": True, "seed": seed, "decks": [deck, bot_deck]},
            )
            log(
                conn,
                game,
                now,
                None,
                "bot_prepare",
                {"step": ENGINE.action_to_json(placement), "events": [e.to_json() for e in events]},
            )
            return game

        return await self.db.write(unit)
