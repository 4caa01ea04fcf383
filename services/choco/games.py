"""Chocobataille games refereed by the bot: challenges, the preparatory turn, declared turns, forfeits,
absences and the deadline jobs (docs/choco/referee.md).

Every use case is one write unit: it reads the game row, asks the engine, and hands the new state to
`choco_flow.advance`, which saves it against the version it read, logs it, queues the referee's post and
the hands, and starts the next clock. A double click or a deadline that fired meanwhile finds a newer
version and changes nothing. A declaration is validated on a copy first: the rulebook's faults (V.1) are
applied as it says (an impossible action is ignored and reported; a card the player does not hold gives
the opponent an extra draw and asks for a correction); a declaration that cannot end the turn (no
summon, empty front line) changes nothing and says why.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from core.clock import Clock, from_db, to_db
from core.errors import BadInput, NotAllowed, NotFound
from core.message_guard import echo
from engine.choco import (
    ChocoCatalog,
    ChocoState,
    EndTurn,
    Prepare,
    Summon,
    fault_unowned_card,
    forfeit,
)
from engine.errors import DomainError, IllegalAction
from engine.protocol import CATALOG_OPTION, Event, PlayerSetup
from services.choco import posts
from services.choco.deadlines import declare_absence, start_clock
from services.choco.entry import check_can_play
from services.choco.flow import Flow, title
from services.choco.game_store import (
    ENGINE,
    FRIENDLY,
    LEAGUES,
    MATCHES,
    PRACTICE,
    RULES,
    GameRow,
    by_thread,
    game_here,
    live,
    live_games_of,
    live_here,
    load,
    load_here,
    load_live,
    log,
    row_of,
    save,
    start,
)
from services.choco.notation import UnownedCard, describe, parse_turn
from services.choco.render.board import hand
from services.choco.text import reason_text
from services.infra import guild_settings
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from services.shared.challenges import Challenges, ChallengeTexts
from services.shared.matches import Match, StaleMatch
from store.connection import Connection
from store.db import Database
from store.idempotency import once

T = TypeVar("T")
CHALLENGE_TTL = timedelta(hours=24)
THREAD_CLAIM_TTL = timedelta(minutes=1)
MAX_ABSENCE_HOURS = 24 * 90
REASON_MAX = 200


@dataclass(frozen=True)
class Challenge:
    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenged_id: int
    league: str
    status: str
    expires_at: datetime
    game_id: int | None
    friendly: bool = False


@dataclass(frozen=True)
class Absence:
    """An absence recorded in one game (`until`, hours `left` of its allowance), or why not (`problem`)."""

    game_id: int
    where: int
    until: datetime | None
    left: int
    problem: Text | None = None


@dataclass(frozen=True)
class Declared:
    """What a declaration did: `status` is 'played', 'fault' (a card not held: correct and resend) or
    'refused' (nothing changed); `ignored` lists the impossible steps left out (V.1)."""

    status: str
    game_id: int
    steps: tuple[Text, ...] = ()
    ignored: tuple[Text, ...] = ()
    problems: tuple[Text, ...] = ()


CHALLENGE_TEXTS = ChallengeTexts(
    self_challenge="choco.error.self_challenge",
    not_yours="choco.error.not_your_challenge",
    own="choco.error.own_challenge",
    own_button="choco.challenge.decline",
    not_found="choco.error.no_challenge",
)


def _challenge(match: Match[ChocoState]) -> Challenge:
    """A challenge as the cogs show it: once accepted, the match is the game (`game_id`, its number)."""
    challenger, challenged = match.seats
    assert challenger is not None
    assert challenged is not None
    assert match.expires_at is not None
    started = match.status in ("live", "over", "cancelled")
    return Challenge(
        id=match.id,
        guild_id=match.server,
        channel_id=match.channel,
        challenger_id=challenger,
        challenged_id=challenged,
        league=match.kind,
        status="accepted" if started else match.status,
        expires_at=match.expires_at,
        game_id=match.number,
        friendly=match.data.get("mode") == FRIENDLY,
    )


def challenge_match(conn: Connection, ref: int) -> int:
    """The match a challenge button names: a challenge made before the games moved to the matches
    carries its former id (the choco_matches migration maps it), any other its match id."""
    row = conn.execute(
        "SELECT match_id FROM choco_legacy_challenges WHERE challenge_id = ?", (ref,)
    ).fetchone()
    return ref if row is None else int(row[0])


class ChocoGames:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: ChocoCatalog,
        rng: random.Random,
        scheduler: Scheduler | None,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # seeds and reward draws: used only inside write units (the writer's thread)
        self.scheduler = scheduler
        self.flow = Flow(catalog, rng)
        # A second answer gets the challenge as it stands (the game the first one started), not a refusal.
        self.challenges = Challenges(
            MATCHES, scheduler, CHALLENGE_TTL, CHALLENGE_TEXTS, answered_returns=True
        )

    # --- challenges ---------------------------------------------------------------------------------

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: int,
        challenged: int,
        league: str,
        *,
        key: str | int,
        joined_at: datetime | None = None,
        friendly: bool = False,
    ) -> Challenge:
        """`joined_at`: when the challenger joined this server (the league's membership age, VI.1). A
        `friendly` challenge asks for no league entry and its game counts for nothing (no result, no
        ladder, no reward): only a valid deck of the league's cards (docs/choco/practice.md)."""
        if league not in LEAGUES:
            raise BadInput("choco.error.league", league=echo(league))
        now = self.clock.now()

        def unit(conn: Connection) -> Challenge:
            ensure_player(conn, challenger, now, self.registry)
            ensure_player(conn, challenged, now, self.registry)
            made = self.challenges.challenge(
                conn,
                now,
                request_key=f"choco:challenge:{key}",
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                challenged=challenged,
                kind=league,
                prepare=lambda: check_can_play(
                    conn,
                    self.catalog,
                    challenger,
                    guild_id,
                    league,
                    now,
                    joined_at=joined_at,
                    ranked=not friendly,
                ),
                data={"mode": FRIENDLY} if friendly else None,
            )
            return _challenge(made)

        return await self.db.write(unit)

    async def answer(
        self,
        challenge_id: int,
        player: int,
        accept: bool,
        guild_id: int | None = None,
        joined_at: datetime | None = None,
    ) -> Challenge:
        """The challenged player accepts (the game starts) or declines; the challenger may withdraw.
        Only the first answer counts (the challenges block, services/shared/challenges.py). `guild_id` is
        the server where the click happens (None in DMs), as for every use case that takes an id from a
        user; `joined_at` when the clicking player joined it."""
        now = self.clock.now()

        def unit(conn: Connection) -> Challenge:
            match, accepted = self.challenges.answer(
                conn,
                now,
                challenge_match(conn, challenge_id),
                guild=guild_id,
                player=player,
                accept=accept,
            )
            if accepted:
                match = self._start_game(conn, now, match, joined_at)
            return _challenge(match)

        return await self.db.write(unit)

    def _start_game(
        self, conn: Connection, now: datetime, match: Match[ChocoState], joined_at: datetime | None
    ) -> Match[ChocoState]:
        found = _challenge(match)
        ensure_player(conn, found.challenged_id, now, self.registry)
        league, guild, ranked = found.league, found.guild_id, not found.friendly
        decks = (
            check_can_play(
                conn,
                self.catalog,
                found.challenger_id,
                guild,
                league,
                now,
                own=False,
                member_checked=True,
                ranked=ranked,
            ),
            check_can_play(
                conn,
                self.catalog,
                found.challenged_id,
                guild,
                league,
                now,
                joined_at=joined_at,
                ranked=ranked,
            ),
        )
        seed = self.rng.getrandbits(62)
        seats = (found.challenger_id, found.challenged_id)
        players = [PlayerSetup(seat=s, player_id=seats[s], deck=tuple(decks[s])) for s in (0, 1)]
        state = ENGINE.new_game(players, seed, {CATALOG_OPTION: self.catalog})
        channel = guild_settings.read(conn, found.guild_id).games_channel_id or found.channel_id
        started = start(conn, now, match, seed=seed, decks=decks, state=state, channel_id=channel)
        log(
            conn,
            row_of(started),
            now,
            found.challenged_id,
            "created",
            {"challenge": found.id, "seed": seed, "decks": list(decks)},
        )
        return started

    async def claim_thread(self, game_id: int, key: str) -> bool:
        """Whether this click opens the game's thread: a double click on "Accepter" must not open two.
        A claim that never led to a thread (the bot stopped) may be taken over after a minute."""
        now = self.clock.now()

        def unit(conn: Connection) -> bool:
            stored, _ = once(conn, f"choco:thread:{game_id}", now, lambda: {"key": key, "at": to_db(now)})
            return bool(stored["key"] == key or now - from_db(stored["at"]) > THREAD_CLAIM_TTL)

        return await self.db.write(unit)

    async def open_thread(self, game_id: int, thread_id: int | None) -> GameRow:
        """The game's thread exists (or could not be made: `None` keeps the channel): deal the hands by DM,
        start the preparatory turn's clock and post the opening. A second call changes nothing."""
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            game = load_live(conn, game_id)
            if game.turn_started_at is not None:
                return game
            game = save(conn, game, now, thread_id=thread_id)
            game = start_clock(conn, now, game)
            log(conn, game, now, None, "opened", {"thread": thread_id})
            posts.resolution(
                conn,
                now,
                game,
                self.catalog,
                title=title(game),
                before=game.state,
                events=[],
                notes=[Text("choco.practice.opening" if game.mode == PRACTICE else "choco.play.opening")],
            )
            for seat in (0, 1):
                posts.send_hand(conn, now, game, seat, self.catalog)
            return game

        return await self.db.write(unit)

    # --- finding a game -----------------------------------------------------------------------------

    async def game_here(self, channel_id: int | None, player: int, guild_id: int | None = None) -> int:
        """The game of this thread, else the player's only live game on this server (in DMs: anywhere)."""

        return await self.db.read(lambda conn: game_here(conn, channel_id, player, guild_id).id)

    async def game_in_thread(self, channel_id: int | None) -> int | None:
        if channel_id is None:
            return None
        return await self.db.read(lambda conn: by_thread(conn, channel_id))

    async def get(self, game_id: int) -> GameRow:
        return await self.db.read(lambda conn: load(conn, game_id))

    async def live_games(self, player: int, guild_id: int | None = None) -> list[GameRow]:
        return await self.db.read(lambda conn: live_games_of(conn, player, guild_id))

    async def hand(self, game_id: int, player: int, guild_id: int | None = None) -> Text:
        def unit(conn: Connection) -> Text:
            game = load_here(conn, game_id, guild_id, player)
            return hand(game.state, game.seat_of(player), self.catalog)

        return await self.db.read(unit)

    async def hand_message(self, game_id: int, player: int, guild_id: int | None = None) -> MessageSpec:
        """The private `/choco hand` reply: the hand's text and its picture, as the DM shows them."""

        def unit(conn: Connection) -> MessageSpec:
            game = load_here(conn, game_id, guild_id, player)
            seat = game.seat_of(player)
            body = hand(game.state, seat, self.catalog)
            strips = posts.hand_strip(game, seat)
            return MessageSpec(
                embeds=(posts.hand_embed(game.id, body),),
                strips=strips,
                selects=posts.hand_viewers(strips, self.catalog),
            )

        return await self.db.read(unit)

    # --- playing ------------------------------------------------------------------------------------

    async def declare_text(
        self, game_id: int, player: int, text: str, guild_id: int | None = None
    ) -> Declared:
        """The one-line form (docs/choco/notation.md); in the preparatory turn, one `summon` is the placement."""
        now = self.clock.now()

        def unit(conn: Connection) -> Declared:
            return self._declared_text(conn, now, live_here(conn, game_id, guild_id, player), player, text)

        return await self.db.write(unit)

    async def declare_here(
        self, channel_id: int | None, player: int, text: str, guild_id: int | None = None
    ) -> Declared:
        """`declare_text` for the game where the player types it (`game_here`), found by the turn's own
        unit: the game it loads there is the one it plays, where looking it up first loaded it once more."""
        now = self.clock.now()

        def unit(conn: Connection) -> Declared:
            game = live(game_here(conn, channel_id, player, guild_id))
            return self._declared_text(conn, now, game, player, text)

        return await self.db.write(unit)

    def _declared_text(
        self, conn: Connection, now: datetime, game: GameRow, player: int, text: str
    ) -> Declared:
        seat = game.seat_of(player)
        if seat not in game.to_act():
            raise NotAllowed("choco.error.not_your_turn")
        try:
            steps = parse_turn(text, game.state, seat, self.catalog)
        except UnownedCard as error:
            return self._fault(conn, now, game, seat, error)
        return self._declare(conn, now, game, seat, list(steps))

    async def declare(
        self,
        game_id: int,
        player: int,
        steps: list[Any],
        version: int | None = None,
        guild_id: int | None = None,
    ) -> Declared:
        now = self.clock.now()

        def unit(conn: Connection) -> Declared:
            game = live_here(conn, game_id, guild_id, player)
            if version is not None and version != game.version:
                raise StaleMatch(RULES.texts.stale)
            seat = game.seat_of(player)
            if seat not in game.to_act():
                raise NotAllowed("choco.error.not_your_turn")
            return self._declare(conn, now, game, seat, steps)

        return await self.db.write(unit)

    def _fault(
        self, conn: Connection, now: datetime, game: GameRow, seat: int, error: UnownedCard
    ) -> Declared:
        """V.1: a card the player does not hold. The opponent draws one more card at their next draw (once
        per turn, never in the preparatory turn: docs/choco/rules-notes.md), and the player is asked to
        correct the declaration. When no card is granted, the reply is a plain refusal, so the bot never
        announces a draw that does not happen."""
        problem = Text(error.key, dict(error.params))
        if game.state.turn == 0 or game.faulted_turn == game.state.turn:
            return Declared("refused", game.id, problems=(problem,))
        state, events = fault_unowned_card(game.state, seat)
        game = save(conn, game, now, state=state, faulted_turn=state.turn)
        log(
            conn,
            game,
            now,
            game.seats[seat],
            "fault_unowned_card",
            {"events": [e.to_json() for e in events]},
        )
        who = posts.names(game)
        posts.notice(
            conn, now, game, Text("choco.play.fault_notice", {"player": who[seat], "opponent": who[1 - seat]})
        )
        return Declared("fault", game.id, problems=(problem,))

    def _declare(
        self, conn: Connection, now: datetime, game: GameRow, seat: int, steps: list[Any]
    ) -> Declared:
        if game.state.turn == 0:
            return self._prepare(conn, now, game, seat, steps)
        state: ChocoState = game.state
        events: list[Event] = []
        refused: list[tuple[int, Text]] = []
        applied: list[int] = []
        described = describe(steps, game.state, seat, self.catalog)
        for index, step in enumerate(steps):
            try:
                state, more = ENGINE.apply(state, seat, step)
            except IllegalAction as error:
                refused.append((index, reason_text(error)))
                continue
            applied.append(index)
            events += more
            if state.finished:
                break
        ignored = [Text("choco.play.ignored", {"step": described[i], "reason": r}) for i, r in refused]
        if not state.finished:
            try:
                state, more = ENGINE.apply(state, seat, EndTurn())
            except IllegalAction as error:
                return Declared("refused", game.id, tuple(described), tuple(ignored), (reason_text(error),))
            events += more
        # The thread hears of a refused step without the name of a card it has not seen (a hand card).
        public = describe(steps, game.state, seat, self.catalog, public_after=state) if refused else []
        self.flow.advance(
            conn,
            now,
            game,
            state,
            events,
            actor=game.seats[seat],
            kind="turn",
            data={"steps": [ENGINE.action_to_json(s) for s in steps]},
            refused=[Text("choco.play.ignored", {"step": public[i], "reason": r}) for i, r in refused],
        )
        played = tuple(described[i] for i in applied)  # the private reply keeps refused steps apart
        return Declared("played", game.id, played, tuple(ignored))

    def _prepare(
        self, conn: Connection, now: datetime, game: GameRow, seat: int, steps: list[Any]
    ) -> Declared:
        """The preparatory placement is one card: a `Prepare`, or a declared turn holding one summon."""
        if len(steps) == 1 and isinstance(steps[0], Prepare):
            steps = [Summon(card=steps[0].card, line=steps[0].line)]
        if len(steps) != 1 or not isinstance(steps[0], Summon):
            return Declared("refused", game.id, problems=(Text("choco.reason.cannot_prepare"),))
        placement = Prepare(card=steps[0].card, line=steps[0].line)
        shown = tuple(describe([placement], game.state, seat, self.catalog))
        try:
            state, events = ENGINE.apply(game.state, seat, placement)
        except IllegalAction as error:
            return Declared("refused", game.id, shown, problems=(reason_text(error),))
        self.flow.advance(
            conn,
            now,
            game,
            state,
            events,
            actor=game.seats[seat],
            kind="prepare",
            data={"step": ENGINE.action_to_json(placement)},
        )
        return Declared("played", game.id, shown)

    async def forfeit(self, game_id: int, player: int, guild_id: int | None = None) -> GameRow:
        """IV.4: a player gives up at any time; the opponent wins (not held against the player's ranking)."""
        now = self.clock.now()

        def unit(conn: Connection) -> GameRow:
            game = live_here(conn, game_id, guild_id, player)
            seat = game.seat_of(player)
            state, events = forfeit(game.state, seat)
            return self.flow.advance(conn, now, game, state, events, actor=player, kind="forfeit")

        return await self.db.write(unit)

    async def absence(
        self, channel_id: int | None, player: int, hours: int, reason: str, guild_id: int | None = None
    ) -> list[Absence]:
        """Declare an absence: in a game's thread for that game, elsewhere for each of the player's live
        games on this server (in DMs: on every server). It pauses the player's penalties (capped per
        game: a game whose allowance is spent says so and the others still record it)."""
        reason = " ".join(reason.split())[:REASON_MAX]
        if not reason:
            raise BadInput("choco.error.absence_reason")
        if not 1 <= hours <= MAX_ABSENCE_HOURS:
            raise BadInput("choco.error.absence_hours")
        now = self.clock.now()

        def unit(conn: Connection) -> list[Absence]:
            found = by_thread(conn, channel_id) if channel_id is not None else None
            if found is not None:
                games = [live_here(conn, found, guild_id, player)]
            else:
                games = live_games_of(conn, player, guild_id)
            if not games:
                raise NotFound("choco.error.no_live_game")
            return [self._absent(conn, now, game, player, hours, reason) for game in games]

        return await self.db.write(unit)

    def _absent(
        self, conn: Connection, now: datetime, game: GameRow, player: int, hours: int, reason: str
    ) -> Absence:
        seat = game.seat_of(player)
        try:
            game, until, left = declare_absence(conn, now, game, player, hours, reason)
        except DomainError as error:  # raised before anything was written for this game
            return Absence(game.id, game.where, None, 0, Text(error.key, dict(error.params)))
        log(conn, game, now, player, "absence", {"hours": hours, "reason": reason, "until": to_db(until)})
        notice = {
            "player": posts.names(game)[seat],
            "until": f"<t:{int(until.timestamp())}:F>",
            "reason": reason,
        }
        posts.notice(conn, now, game, Text("choco.play.absence_notice", notice))
        return Absence(game.id, game.where, until, left)
