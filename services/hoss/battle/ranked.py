"""Ranked battles against the AI: the ladder, starting a battle, answering its pauses, the 2-minute
deadline, skipping to the end, the live view, the log and the replay, rewards and milestone notices.

Each use case is one write unit. A battle is a match of the shared block (`services/hoss/battle/battles.py`
stores and drives it); the player sits in seat 0 and the AI (`strong_policy`) in seat 1. A decision not
taken within 2 minutes is taken by the AI for the player: a `hoss.decision_timeout` job (battle id, pause
number) is scheduled at every pause and does nothing once the battle has moved on. The end of a battle is
the transition 'live' -> 'won'/'lost'/'draw', guarded by the version-checked save of the unit that records
the result and credits the gold (ledger reason `hoss.ranked`, ref = the battle id), so it is paid exactly
once. A milestone (every 100 wins at a rank) becomes a notice whose gold is credited when the player
claims it. Rules: `engine/hoss/ranks.py`; decisions: docs/hoss/ranked.md."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar

from core.clock import Clock, to_db
from core.errors import BadInput, DomainError, NotAllowed, NotFound
from core.settings import SUPPORTED_LOCALES
from engine.hoss import (
    MAX_RANK,
    RANK_UNLOCK_WINS,
    RANKS,
    HossAction,
    HossCatalog,
    Pass,
    Record,
    highest_unlocked,
    moves_of,
    opponent_setup,
    playable_ranks,
)
from engine.protocol import PlayerSetup
from engine.rng import derive
from services.hoss.battle import battle_log, battles
from services.hoss.battle import edits as battle_edits
from services.hoss.battle import history as battle_history
from services.hoss.battle import replay as battle_replay
from services.hoss.battle.battles import (
    AI,
    NOTICES_TOPIC,
    PLAYER,
    ROUND_JOB,
    TIMEOUT_JOB,
    BattleResult,
    BattleRow,
    Decision,
)
from services.hoss.battle.choices import Choice, chosen
from services.hoss.battle.controls import BattleView as BattleView
from services.hoss.battle.controls import KeptControls, RoundView, read_view, view_of
from services.hoss.battle.dealer import Dealer
from services.hoss.battle.edits import ROUND_PACE, Shown
from services.hoss.battle.history import PastBattle
from services.hoss.battle.notices import NOTICES, Claim, Notice, notice_of, pending
from services.hoss.decks import DeckService
from services.hoss.gold import GOLD
from services.hoss.keys import RANK_NAME_KEYS as RANK_NAME_KEYS
from services.hoss.shop import rank_wins
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.messages import Target, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection, Unit
from store.db import Database
from store.idempotency import once

REASON_MILESTONE = "hoss.ranked.milestone"  # ledger reason of a claimed milestone (ref = the notice id)
# How long a start's message record may wait for another transaction to ride with (`attach_soon`).
ATTACH_WITHIN = timedelta(seconds=1)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RankStatus:
    rank: int
    name: Text
    wins: int
    losses: int
    unlocked: bool
    playable: bool
    win_gold: int
    loss_gold: int


@dataclass(frozen=True)
class Ladder:
    """What the ranked menu shows: every rank, which are playable, the live battle, unclaimed notices."""

    ranks: tuple[RankStatus, ...]
    highest: int
    playable: tuple[int, ...]
    live_battle: int | None
    notices: tuple[Notice, ...]


@dataclass(frozen=True)
class Started:
    battle_id: int
    rank: int
    replayed: bool  # a repeated click: the battle the first click started
    message: Shown  # the public battle message to show (then `attach` it)


@dataclass(frozen=True)
class Screen:
    """The public battle message now, whether the outbox still owes the message asked about an edit
    (then showing it directly would be overwritten by an older round), and whether the battle has a public
    message at all (a crash between the start and its `attach` leaves it without one)."""

    message: Shown
    edits_owed: bool
    attached: bool = True


@dataclass(frozen=True)
class Answered:
    battle_id: int
    answered_pause: int  # the pause the action was applied to
    pause: int  # the pause the battle waits at now
    over: bool
    replayed: bool


@dataclass(frozen=True)
class DefenderMoves:
    moves: tuple[tuple[str, str], ...]  # (Défenseur, new protégé), the engine's order
    cards: dict[str, str]  # the player's creatures in play: uid -> card id (to name them)


def _check_pause(row: BattleRow, pause: int | None) -> None:
    """Controls drawn for `pause` act only while the battle is live and still waits there."""
    if not row.live:
        raise NotAllowed("hoss.error.ranked.over")
    if pause is not None and pause != row.pause:
        raise NotAllowed("hoss.error.ranked.stale")


NO_NOTICE_CACHE = 100_000  # players remembered as having no notice; all forgotten beyond it


class RankedService:
    """Ranked battles against the AI. `scheduler` (when given) runs the 2-minute decision deadlines.
    `pace` spaces the rounds on the battle message, on the service's clock (tests set it to zero)."""

    pace: ClassVar[timedelta] = ROUND_PACE

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: HossCatalog,
        rng: random.Random,
        scheduler: Scheduler | None = None,
        decks: DeckService | None = None,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # battle seeds; used only inside write units, i.e. by the writer's thread
        self.scheduler = scheduler
        self.decks = decks or DeckService(db, clock, catalog, registry=registry)
        self.dealer = Dealer(catalog)  # the start's deal: the active deck validated once while it is kept
        self.kept = KeptControls(db)  # « Décider »'s controls, kept by the unit that saved the battle
        if scheduler is not None:
            scheduler.on(TIMEOUT_JOB, self.on_timeout)
            scheduler.on(ROUND_JOB, self.on_next_round)
        # Players known to have no unclaimed notice: every /hoss command asks, and almost always the answer
        # is none. Forgotten at once by the commit of any new notice (a milestone is rare); a read that
        # was in flight then is not remembered (`_generation` moved).
        self._no_notice: set[int] = set()
        self._generation = 0
        self._attaching: dict[int, asyncio.Future[None]] = {}  # battle -> its message's record, riding
        db.subscribe(NOTICES_TOPIC, self._notices_changed)

    def _notices_changed(self) -> None:
        self._generation += 1
        self._no_notice.clear()

    # --- the ladder and notices ---------------------------------------------------------------------

    async def ladder(self, player_id: int) -> Ladder:
        def unit(conn: Connection) -> Ladder:
            progress = conn.execute(
                "SELECT rank, wins, losses FROM hoss_rank_progress WHERE player_id = ?", (player_id,)
            ).fetchall()
            wins = {int(rank): int(won) for rank, won, _ in progress}
            losses = {int(rank): int(lost) for rank, _, lost in progress}
            top, playable = highest_unlocked(wins), playable_ranks(wins)
            ranks = tuple(
                RankStatus(
                    s.rank,
                    Text(RANK_NAME_KEYS[s.rank]),
                    wins.get(s.rank, 0),
                    int(losses.get(s.rank, 0)),
                    s.rank <= top,
                    s.rank in playable,
                    s.win_gold,
                    s.loss_gold,
                )
                for s in RANKS
            )
            live = battles.live_battle_id(conn, player_id)
            known_none = player_id in self._no_notice  # `pending_notices` found none since the last change
            return Ladder(ranks, top, playable, live, () if known_none else tuple(pending(conn, player_id)))

        return await self.db.read(unit)

    async def pending_notices(self, player_id: int) -> list[Notice]:
        """Unclaimed notices, oldest first: shown again at every command until the player clicks OK."""
        if player_id in self._no_notice:
            return []
        generation = self._generation
        notices = await self.db.read(lambda conn: pending(conn, player_id))
        if not notices and generation == self._generation:
            if len(self._no_notice) >= NO_NOTICE_CACHE:
                self._no_notice.clear()
            self._no_notice.add(player_id)
        return notices

    async def claim_notice(self, player_id: int, notice_id: int) -> Claim:
        """The player clicked OK: credit the notice's gold once (a second claim credits nothing)."""
        now = self.clock.now()

        def unit(conn: Connection) -> Claim:
            row = conn.execute(
                f"{NOTICES} WHERE n.id = ? AND n.player_id = ?", (notice_id, player_id)
            ).fetchone()
            if row is None:
                raise NotFound("hoss.error.ranked.notice_not_found")
            claimed = conn.execute(
                "UPDATE hoss_notices SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL",
                (to_db(now), notice_id),
            ).rowcount
            notice = notice_of(row)
            if claimed:
                why = ledger.Movement(REASON_MILESTONE, ref=str(notice_id))
                balance = ledger.credit(conn, now, player_id, GOLD, notice.gold, why)
            else:
                balance = ledger.balance(conn, player_id, GOLD)
            return Claim(notice, bool(claimed), balance)

        return await self.db.write(unit)

    # --- playing ------------------------------------------------------------------------------------

    async def current(self, player_id: int) -> int | None:
        """The player's live battle, if any (to resume it after a restart)."""
        return await self.db.read(lambda conn: battles.live_battle_id(conn, player_id))

    async def start(
        self,
        player_id: int,
        rank: int,
        *,
        key: str | int,
        guild: int | None = None,
        locales: Sequence[str] = SUPPORTED_LOCALES,
    ) -> Started:
        """Start a battle at `rank` with the active deck; a double click (same key) starts one battle.
        `guild` (the server the command runs in, None in direct messages) is where the battle belongs:
        every later use case passes the interaction's and is refused elsewhere. The message is written in
        `locales`: the response shows it in the channel's language only."""
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= MAX_RANK:
            raise BadInput("hoss.error.ranked.rank", maximum=MAX_RANK)
        setup: PlayerSetup | DomainError
        try:
            setup = await self.decks.deck_setup(player_id)
        except DomainError as exc:  # raised in the unit, after the idempotency key had its say
            setup = exc
        now = self.clock.now()
        start_key = str(key)

        controls: tuple[BattleRow, BattleView] | None = None  # of the battle this unit began, if it did

        def unit(conn: Connection) -> Started:
            nonlocal controls
            ensure_player(conn, player_id, now, self.registry)
            begun: tuple[BattleRow, list[Record]] | None = None  # as this unit stored it, and its rounds

            def work() -> dict[str, Any]:
                nonlocal begun
                begun = self._start(conn, now, player_id, rank, setup, start_key, guild)
                return {"player": player_id, "battle": begun[0].id, "rank": rank}

            stored, fresh = once(conn, f"hoss:ranked:start:{start_key}", now, work)
            if stored["player"] != player_id:
                raise NotAllowed()
            if begun is not None and begun[0].live:  # drawn from what the unit has: nothing read back
                message = battle_edits.shown_begun(*begun, self.catalog, locales)
                controls = (begun[0], view_of(begun[0], (), ()))  # no deadline passed yet
            else:
                row = begun[0] if begun is not None else battles.load(conn, stored["battle"])
                assert row is not None
                message = battle_edits.shown_now(conn, row, self.catalog, locales)
            return Started(stored["battle"], stored["rank"], not fresh, message)

        generation = self.kept.generation
        started = await self.db.write(unit)
        if controls is not None:  # `begin` created the battle: no save announced
            self.kept.keep(generation, 0, *controls)
        return started

    def _start(
        self,
        conn: Connection,
        now: datetime,
        player_id: int,
        rank: int,
        setup: PlayerSetup | DomainError,
        key: str,
        guild: int | None,
    ) -> tuple[BattleRow, list[Record]]:
        """The battle made, at its first pause, as stored, and the rounds played to it."""
        playable = playable_ranks(rank_wins(conn, player_id))
        if rank > playable[-1]:
            raise NotAllowed(
                "hoss.error.ranked.locked", rank=rank, previous=rank - 1, needed=RANK_UNLOCK_WINS
            )
        if rank < playable[0]:
            raise NotAllowed("hoss.error.ranked.closed", rank=rank, lowest=playable[0])
        live, number = battles.live_and_next(conn, player_id)
        if live is not None:
            raise NotAllowed("hoss.error.ranked.live", battle=live)
        if isinstance(setup, DomainError):
            raise setup
        seed = self.rng.getrandbits(62)
        opponent = opponent_setup(self.catalog, rank, random.Random(derive(seed, "hoss-ranked-opponent")))
        battle = self.dealer.deal(setup, opponent, seed)
        setups = (setup, opponent)
        return battles.begin(
            conn,
            now,
            player_id=player_id,
            rank=rank,
            key=key,
            seed=seed,
            setups=setups,
            battle=battle,
            guild=guild,
            number=number,
        )

    async def answer(
        self,
        player_id: int,
        battle_id: int,
        action: HossAction | Choice,
        *,
        key: str | int,
        pause: int | None = None,
        guild: int | None = None,
        shown_in: str | None = None,
    ) -> Answered:
        """Apply one decision of the player, then let the battle run to the player's next pause (the AI
        answering for the opponent). `pause` is the pause the buttons were drawn for: an answer meant for an
        earlier pause is refused (`hoss.error.ranked.stale`). A `Choice` (a select's value) names one of the
        legal actions the player was shown, checked against the legal actions now (`choices.py`). An illegal
        action changes nothing. `shown_in`: the battle message's language (`queue_edits`)."""
        now = self.clock.now()
        answer_key = str(key)

        controls: tuple[BattleRow, BattleView] | None = None  # the battle as this unit saved it, if it did

        def unit(conn: Connection) -> Answered:
            nonlocal controls
            row = battles.owned(conn, player_id, battle_id, guild)
            saved: BattleRow | None = None  # the battle as this unit saved it (not on a repeated click)

            def work() -> dict[str, Any]:
                nonlocal saved
                _check_pause(row, pause)
                battle = battles.restore(row)
                legal = battle.legal_actions(PLAYER)
                decided = chosen(legal, action) if isinstance(action, Choice) else action
                decisions: list[Decision] = []
                records: list[Record] = []
                battles.apply(battle, PLAYER, decided, "player", row.pause, decisions)
                after = battles.advance(battle, row.pause, decisions, records)
                saved = battles.step(conn, now, row, battle, decisions, records, after)
                # a live battle has no pause the AI took (docs/hoss/ranked.md): its moves read once over, for the log
                moves = () if saved.live else battle_log.decisions_of(conn, saved.match_id)
                battle_edits.queue_edits(conn, now, saved, records, self.catalog, self.pace, moves, shown_in)
                return {"player": player_id, "battle": battle_id, "pause": row.pause}

            stored, fresh = once(conn, f"hoss:ranked:answer:{answer_key}", now, work)
            if stored["player"] != player_id or stored["battle"] != battle_id:
                raise NotAllowed()
            now_row = saved if saved is not None else battles.load(conn, battle_id)
            assert now_row is not None
            if saved is not None:  # kept only while live: no pause taken by the AI then
                controls = (saved, view_of(saved, (), ()))
            return Answered(battle_id, stored["pause"], now_row.pause, not now_row.live, not fresh)

        generation = self.kept.generation
        answered = await self.db.write(unit)
        if controls is not None:  # its step saved the battle once
            self.kept.keep(generation, 1, *controls)
        return answered

    async def defender_moves(
        self, player_id: int, battle_id: int, *, pause: int | None = None, guild: int | None = None
    ) -> DefenderMoves:
        """The Défenseur moves (Défenseur, new protégé) the player may make now, for the « Défenseur »
        button. Checked at every click like an answer (the custom_id is untrusted): the player's own live
        battle, reached from where it started, still at the pause the controls were drawn for (`pause`),
        or wherever it stands (None: the button of the battle message, there all battle long)."""

        def unit(conn: Connection) -> DefenderMoves:
            row = battles.owned(conn, player_id, battle_id, guild)
            _check_pause(row, pause)
            seat = row.hoss_state.seats[PLAYER]
            moves = moves_of(seat.steps, seat.answers)
            if not moves and any(answer[0] == "move" for answer in seat.answers):
                raise NotAllowed("hoss.error.ranked.moved")  # once per round: each stop is one round
            if not moves:
                raise NotAllowed("hoss.error.ranked.no_move")
            cards = {f.uid: f.card for f in seat.fighters}
            return DefenderMoves(tuple((move.defender, move.protege) for move in moves), cards)

        return await self.db.read(unit)

    async def skip_to_end(self, player_id: int, battle_id: int, guild: int | None = None) -> BattleResult:
        """Resolve the rest of the battle at once, the AI taking the player's decisions too; the battle's
        message shows the final board and the result at once, not the rounds one by one. Calling it on a
        finished battle just returns its result."""
        now = self.clock.now()

        def unit(conn: Connection) -> BattleResult:
            row = battles.owned(conn, player_id, battle_id, guild)
            if row.live:
                battle = battles.restore(row)
                decisions: list[Decision] = []
                records: list[Record] = []
                pause = battles.advance(battle, row.pause, decisions, records, for_player=AI)
                row = battles.step(conn, now, row, battle, decisions, records, pause)  # as saved: not read
                battle_edits.show_at_once(conn, now, row, self.catalog)
            result = battles.result_of(row, row.hoss_state)
            assert result is not None
            return result

        return await self.db.write(unit)

    def on_next_round(self, conn: Connection, job: Job, now: datetime) -> None:
        """`hoss:next_round`: the battle waited between two rounds for a possible Défenseur move; if it
        still waits there, the player lets the round come (a pass, with any move already made) and the
        battle runs on to its next stop."""
        row = battles.load(conn, int(job.payload["battle"]))
        if row is None or not row.live or row.pause != int(job.payload["pause"]):
            return
        battle = battles.restore(row)
        if not battles.between_rounds(battle):
            return
        decisions: list[Decision] = []
        records: list[Record] = []
        battles.apply(battle, PLAYER, Pass(), "timeout", row.pause, decisions, between=True)
        pause = battles.advance(battle, row.pause, decisions, records)
        saved = battles.step(conn, now, row, battle, decisions, records, pause)
        battle_edits.queue_edits(conn, now, saved, records, self.catalog, self.pace)

    def on_timeout(self, conn: Connection, job: Job, now: datetime) -> None:
        """`hoss.decision_timeout`: if the battle still waits at that pause, the player stopped answering:
        the AI plays the rest of the battle for them (every decision recorded as 'timeout', so the message
        can say so), without a new 2-minute wait at each of their later pauses. The rounds are shown one by
        one, as they are played (docs/hoss/ranked.md, "A player who stops answering")."""
        row = battles.load(conn, int(job.payload["battle"]))
        if row is None or not row.live or row.pause != int(job.payload["pause"]):
            return
        battle = battles.restore(row)
        decisions: list[Decision] = []
        records: list[Record] = []
        pause = battles.advance(battle, row.pause, decisions, records, for_player=AI, by="timeout")
        saved = battles.step(conn, now, row, battle, decisions, records, pause)
        battle_edits.queue_edits(conn, now, saved, records, self.catalog, self.pace)

    # --- watching -----------------------------------------------------------------------------------

    async def view(self, player_id: int, battle_id: int, guild: int | None = None) -> BattleView:
        """The battle now (for the player) and the rounds played since the previous view."""

        def unit(conn: Connection) -> BattleView:
            row = battles.owned(conn, player_id, battle_id, guild)
            new = tuple(RoundView(r["round"], r) for r in battle_log.newly_viewed(conn, row))
            return read_view(conn, row, new)

        return await self.db.write(unit)

    async def controls(self, player_id: int, battle_id: int, guild: int | None = None) -> BattleView:
        """The battle now, for the player's decision controls: `view` without the rounds, so a read (the
        controls show the hand and the legal actions; the rounds are the battle message's), or nothing
        read at all when the unit that saved it last kept them (services/hoss/battle/controls.py)."""
        kept = self.kept.get(player_id, battle_id, guild)
        if kept is not None:
            return kept
        return await self.db.read(
            lambda conn: read_view(conn, battles.owned(conn, player_id, battle_id, guild), ())
        )

    async def screen(
        self, player_id: int, battle_id: int, guild: int | None = None, message_id: int = 0
    ) -> Screen:
        """The public battle message now (to show it again), and whether the outbox still owes
        `message_id` (the message a click came from) an edit."""

        def unit(conn: Connection) -> Screen:
            row = battles.owned(conn, player_id, battle_id, guild)
            owed = battle_edits.edits_owed(conn, row, message_id)
            return Screen(battle_edits.shown_now(conn, row, self.catalog), owed, row.message_item is not None)

        await self.message_recorded(battle_id)  # a read does not see a record still riding
        return await self.db.read(unit)

    async def attach(
        self,
        player_id: int,
        battle_id: int,
        channel: int,
        message_id: int,
        shown: Shown,
        guild: int | None = None,
    ) -> None:
        """The battle's message was just shown as `message_id` in `channel` (an interaction response
        showing `shown`): from now on the outbox edits that message, round by round, as the battle moves
        on, starting with any round played since `shown` was built."""
        await self.db.write(self._attach_unit(player_id, battle_id, channel, message_id, shown, guild))

    def attach_soon(
        self, player_id: int, battle_id: int, channel: int, message_id: int, shown: Shown, guild: int | None
    ) -> asyncio.Future[None]:
        """`attach`, riding with the next transaction the writer commits, or alone `ATTACH_WITHIN` from now
        (`Database.write_soon`): a start's response costs one commit, not two (decision in
        docs/hoss/ranked.md, "A click before the message is attached"). A rider goes first in its batch, so
        every later write of the battle finds its message; `screen`, a read, waits for it."""
        unit = self._attach_unit(player_id, battle_id, channel, message_id, shown, guild)
        future = self.db.write_soon(unit, within=ATTACH_WITHIN.total_seconds())
        self._attaching[battle_id] = future
        future.add_done_callback(lambda done: self._recorded(battle_id, done))
        return future

    def _recorded(self, battle_id: int, future: asyncio.Future[None]) -> None:
        if self._attaching.get(battle_id) is future:
            del self._attaching[battle_id]
        if not future.cancelled() and future.exception() is not None:
            log.error("battle %s: its message was not recorded", battle_id, exc_info=future.exception())

    async def message_recorded(self, battle_id: int) -> None:
        """The battle's message record, if still riding, committed (hurried: a player waits)."""
        future = self._attaching.get(battle_id)
        if future is not None and not future.done():
            self.db.hurry()
            with suppress(Exception):  # logged by `_recorded`; the read then finds no message
                await asyncio.shield(future)

    def _attach_unit(
        self, player_id: int, battle_id: int, channel: int, message_id: int, shown: Shown, guild: int | None
    ) -> Unit[None]:
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            target = Target("channel", channel, players=(player_id,), guild_id=guild)
            item = battle_edits.attach_unchanged(conn, now, target, message_id, shown)
            if item is not None:  # saved since the response was drawn: rounds or a change to show
                row = battles.owned(conn, player_id, battle_id, guild)
                battle_edits.attach(conn, now, row, target, message_id, shown, self.catalog, self.pace, item)

        return unit

    async def log(self, player_id: int, battle_id: int, guild: int | None = None) -> str:
        """The full log: seed, decks, decisions, rounds, outcome. While the battle is live it holds the
        seed and the AI's deck, so the cog only reads names from it; it is attached once the battle ends."""
        return await self.db.read(
            lambda conn: battle_replay.stored_log(conn, battles.owned(conn, player_id, battle_id, guild))
        )

    async def past_battles(self, player_id: int) -> list[PastBattle]:
        """The player's finished battles, the latest first (`/hoss revoir` without a number)."""
        return await self.db.read(lambda conn: battle_history.past_battles(conn, player_id))

    async def replay(self, viewer: int, battle_id: int, guild: int | None = None) -> str:
        """A finished battle played again from its seed and stored decisions (the same text as `log`), for
        its player or for the members of the server where it was played (`replay.replayable`)."""

        def unit(conn: Connection) -> str:
            return battle_replay.replay_log(conn, battle_replay.replayable(conn, viewer, battle_id, guild))

        return await self.db.read(unit, large=True)  # the battle played again
