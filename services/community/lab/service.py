"""The lab's use case: check the request (the game's own checks), claim the cooldown, wait for a turn in the
global queue, play the batch in the worker processes, and sum it up (docs/lab.md).

Rules it keeps:
- The lab is never the source of any reward: it writes no ledger row, mints nothing, stores no battle; its
  only row is the player's cooldown (`cooldown.py`).
- Seeds are fresh at every lab (the operating system's entropy; a seeded generator only when the whole
  process is seeded: the sandbox's `--seed`, tests), never stored, never a live battle's seed.
- One lab plays at a time (it takes every worker); the others wait in a first-come queue of at most
  `MAX_QUEUE`, each told its position when it has to wait; a full queue refuses at once (« try again »).
- At shutdown (`close`) the running batch and every waiting lab are cancelled: their players are told the
  bot is stopping (`lab.error.stopped`) and nothing was changed but the cooldown.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.clock import Clock
from core.errors import NotAllowed, NotFound
from services.community.lab import cooldown
from services.community.lab.pool import LabPool
from services.community.lab.spec import LabGame, LabJob, LabRequest, Opponent
from services.community.lab.stats import CardEffect, Outcome, Summary, card_effects, extremes, summarize
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database

BATTLES = 1_000  # per lab, shared evenly between its opponents
MAX_QUEUE = 20
SHOWN_CARDS = 3  # the cards that go most, and least, with winning
SEED_BITS = 62


@dataclass(frozen=True)
class Row:
    opponent: Opponent
    summary: Summary


@dataclass(frozen=True)
class LabReport:
    game: str
    job: LabJob
    rows: tuple[Row, ...]
    best: tuple[CardEffect, ...]
    worst: tuple[CardEffect, ...]
    battles: int
    seeds: tuple[tuple[int, ...], ...]  # each opponent's seeds, in order
    outcomes: tuple[tuple[Outcome, ...], ...]  # each opponent's battles, in the order of its seeds


@dataclass
class Ticket:
    """A lab admitted to the queue: `position` is how many labs were ahead of it when it was admitted."""

    game: str
    job: LabJob
    position: int
    turn: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: bool = False


def fresh_seeds(count: int, rng: random.Random | None = None) -> list[int]:
    """`count` seeds from `rng` (the container's `SystemRandom`: the operating system's entropy, as
    `secrets` draws it; a seeded generator only in the sandbox and tests), else from `secrets`."""
    if rng is None:
        return [secrets.randbits(SEED_BITS) for _ in range(count)]
    return [rng.getrandbits(SEED_BITS) for _ in range(count)]


def split(total: int, parts: int) -> list[int]:
    """`total` battles shared between `parts` opponents as evenly as possible."""
    size, extra = divmod(total, parts)
    return [size + (1 if i < extra else 0) for i in range(parts)]


class LabService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        registry: GameRegistry,
        games: Mapping[str, tuple[Any, LabGame]],
        pool: LabPool | None = None,
        *,
        battles: int = BATTLES,
        max_queue: int = MAX_QUEUE,
        rng: random.Random | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.registry = registry
        self._games = dict(games)
        self.pool = pool or LabPool()
        self.battles = battles
        self.max_queue = max_queue
        self.rng = rng
        self._running: Ticket | None = None
        self._waiting: deque[Ticket] = deque()
        self._closed = False

    def games(self) -> list[str]:
        return sorted(self._games)

    @property
    def queued(self) -> int:
        """Labs playing or waiting now."""
        return len(self._waiting) + (self._running is not None)

    async def start(self, game: str, request: LabRequest) -> Ticket:
        """Check the request, claim the player's cooldown, and take a place in the queue."""
        entry = self._games.get(game)
        if entry is None:
            raise NotFound("lab.error.game")
        if self._closed:
            raise NotAllowed("lab.error.stopped")
        services, lab = entry
        job = await lab.prepare(services, request)
        if self.queued >= self.max_queue:
            raise NotAllowed("lab.error.busy", waiting=self.queued)
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            cooldown.claim(conn, now, self.registry, request.player_id)

        await self.db.write(unit)
        if self._closed:
            raise NotAllowed("lab.error.stopped")
        ticket = Ticket(game, job, self.queued)
        if self._running is None:
            self._running = ticket
            ticket.turn.set()
        else:
            self._waiting.append(ticket)
        return ticket

    async def finish(self, ticket: Ticket) -> LabReport:
        """Wait for the ticket's turn, play its battles, and sum them up."""
        try:
            await ticket.turn.wait()
            if ticket.cancelled:
                raise NotAllowed("lab.error.stopped")
            job = ticket.job
            counts = split(self.battles, len(job.opponents))
            seeds = [fresh_seeds(n, self.rng) for n in counts]
            try:
                played = await self.pool.play(job, seeds)
            except (asyncio.CancelledError, RuntimeError):
                if self._closed:
                    raise NotAllowed("lab.error.stopped") from None
                raise
            return report(ticket.game, job, played, seeds)
        finally:
            self._release(ticket)

    async def run(self, game: str, request: LabRequest) -> LabReport:
        return await self.finish(await self.start(game, request))

    def _release(self, ticket: Ticket) -> None:
        if self._running is ticket:
            self._running = self._waiting.popleft() if self._waiting else None
            if self._running is not None:
                self._running.turn.set()
        elif ticket in self._waiting:
            self._waiting.remove(ticket)

    async def close(self) -> None:
        """Shutdown: refuse new labs, cancel the waiting ones and the running batch, stop the workers and
        wait until they have ended (`LabPool.aclose`)."""
        self._closed = True
        for ticket in self._waiting:
            ticket.cancelled = True
            ticket.turn.set()
        await self.pool.aclose()


def report(
    game: str, job: LabJob, played: Sequence[Sequence[Outcome]], seeds: Sequence[Sequence[int]]
) -> LabReport:
    rows = tuple(Row(o, summarize(p)) for o, p in zip(job.opponents, played, strict=True))
    best, worst = extremes(card_effects([o for p in played for o in p]), SHOWN_CARDS)
    return LabReport(
        game,
        job,
        rows,
        tuple(best),
        tuple(worst),
        sum(len(p) for p in played),
        tuple(tuple(s) for s in seeds),
        tuple(tuple(p) for p in played),
    )
