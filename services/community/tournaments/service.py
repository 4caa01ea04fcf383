"""`/tournoi`: create (server managers), join, leave before the start, show, cancel (managers); and the
read the weekly recap uses. Each command is one write unit; the rounds themselves are the scheduler's
(flow.py). Rules and decisions: docs/tournaments.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from core.clock import Clock
from core.errors import BadInput, NotAllowed
from engine import fair_draw
from services.community.tournaments import posts, store
from services.community.tournaments.flow import FEE_REASON, REFUND_REASON, START_JOB, Flow, Player, fee_ref
from services.community.tournaments.results import Finished, finished_between
from services.community.tournaments.store import Tournament
from services.infra import ledger, scheduler
from services.infra.erased import mention
from services.infra.games import GameRegistry
from services.infra.messages import Embed, MessageSpec, Text
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database

FORMATS = ("elimination", "swiss")
SEEDINGS = ("random", "rating")
ROUND_HOURS = (1, 24, 72)
PLAYERS = (4, 64)
MAX_ROUNDS = 10
MAX_FEE = 1_000_000
LIVE_PER_SERVER = 5  # open or running at once: a server's announcements stay readable
EARLIEST = timedelta(minutes=5)  # registration lasts at least this long
LATEST = timedelta(days=30)
NAME_MAX = 32
STATUS = {"open": "tournaments.status.open", "running": "tournaments.status.running"}


@dataclass(frozen=True)
class Creation:
    """What a manager asked for in `/tournoi créer`, as typed (checked by `create`)."""

    game: str
    format: str
    max_players: int
    closes: str  # « 12/01/2026 20:00 », « 2026-01-12 20:00 », or a delay: « 2h », « 30m », « 1j »
    round_hours: int
    fee: int = 0
    seeding: str = "random"
    rounds: int | None = None


_DELAY = re.compile(r"^(\d{1,4})\s*(m|min|h|j|d)$")
_DATES = ("%d/%m/%Y %H:%M", "%d/%m/%Y %Hh%M", "%Y-%m-%d %H:%M", "%d/%m %H:%M", "%d/%m %Hh%M")


def parse_closing(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    """When registration closes, from a date and time in the server's zone (Paris) or a delay from now."""
    typed = " ".join(text.strip().lower().split())
    delay = _DELAY.match(typed)
    if delay:
        amount, unit = int(delay.group(1)), delay.group(2)
        return now + timedelta(minutes=amount) * {"m": 1, "min": 1, "h": 60, "j": 1440, "d": 1440}[unit]
    local = now.astimezone(zone)
    for pattern in _DATES:
        try:
            parsed = datetime.strptime(typed, pattern)
        except ValueError:
            continue
        if "%Y" not in pattern:
            parsed = parsed.replace(year=local.year)
        return parsed.replace(tzinfo=zone).astimezone(now.tzinfo)
    raise BadInput("tournaments.error.when", text=text[:40])


class TournamentService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        registry: GameRegistry,
        sched: scheduler.Scheduler | None,
        games_here: Mapping[str, Player],
        rng: random.Random,
        zone: ZoneInfo,
    ) -> None:
        self.db = db
        self.clock = clock
        self.registry = registry
        self.rng = rng  # secret seeds, drawn in write units only (the writer's thread)
        self.zone = zone
        self.flow = Flow(games_here, registry, sched)

    def games(self) -> list[str]:
        """The keys of the games whose tournaments can be created, in registry order."""
        return [g.key for g in self.registry.all_games() if g.key in self.flow.games]

    # --- managers -----------------------------------------------------------------------------------------

    def _checked(self, asked: Creation, now: datetime) -> datetime:
        if asked.game not in self.flow.games:
            names = [
                Text(spec.name_key) for key in self.games() if (spec := self.registry.get(key)) is not None
            ]
            raise BadInput("tournaments.error.game", games=names)
        if asked.format not in FORMATS or asked.seeding not in SEEDINGS:
            raise BadInput()
        if not PLAYERS[0] <= asked.max_players <= PLAYERS[1]:
            raise BadInput("tournaments.error.players", low=PLAYERS[0], high=PLAYERS[1])
        if asked.round_hours not in ROUND_HOURS:
            raise BadInput("tournaments.error.round_hours")
        if not 0 <= asked.fee <= MAX_FEE:
            raise BadInput("tournaments.error.fee", high=MAX_FEE)
        if asked.rounds is not None and (asked.format != "swiss" or not 1 <= asked.rounds <= MAX_ROUNDS):
            raise BadInput("tournaments.error.rounds", high=MAX_ROUNDS)
        closes = parse_closing(asked.closes, now, self.zone)
        if closes < now + EARLIEST:
            raise BadInput("tournaments.error.too_soon", minutes=int(EARLIEST.total_seconds() // 60))
        if closes > now + LATEST:
            raise BadInput("tournaments.error.too_late", days=LATEST.days)
        return closes

    async def create(
        self, guild: int | None, channel: int, manager: int, *, manages: bool, asked: Creation, key: str | int
    ) -> Tournament:
        """A tournament opens for registration until the time asked; its secret seed's commitment is
        announced at once. Made once per interaction (`key`)."""
        if guild is None:
            raise BadInput("tournaments.error.server_only")
        if not manages:
            raise NotAllowed("tournaments.error.manager")
        now = self.clock.now()
        closes = self._checked(asked, now)
        request = f"tournament:create:{key}"

        def unit(conn: Connection) -> Tournament:
            found = store.by_request(conn, request)
            if found is not None:
                return found
            if len(store.of_guild(conn, guild, store.LIVE)) >= LIVE_PER_SERVER:
                raise NotAllowed("tournaments.error.too_many", count=LIVE_PER_SERVER)
            ensure_player(conn, manager, now, self.registry)
            spec = self.registry.get(asked.game)
            currency = spec.currencies[0].code if spec is not None and spec.currencies and asked.fee else None
            seed = f"{self.rng.getrandbits(256):064x}"
            t = store.insert(
                conn,
                now,
                guild_id=guild,
                channel_id=channel,
                game=asked.game,
                format=asked.format,
                seeding=asked.seeding,
                max_players=asked.max_players,
                rounds=asked.rounds,
                round_hours=asked.round_hours,
                fee=asked.fee if currency is not None else 0,
                currency=currency,
                seed=seed,
                commitment=fair_draw.commitment(seed),
                created_by=manager,
                request_key=request,
                starts_at=closes,
                day=closes.astimezone(self.zone).date().isoformat(),
            )
            job = scheduler.schedule(conn, now, START_JOB, closes, {"tournament": t.id})
            t = store.save(conn, t, round_job=job)
            posts.announced(conn, now, t, self.registry)
            return t

        return await self.db.write(unit)

    async def cancel(
        self, guild: int | None, tournament_id: int, manager: int, *, manages: bool
    ) -> Tournament:
        if not manages:
            raise NotAllowed("tournaments.error.manager")
        now = self.clock.now()

        def unit(conn: Connection) -> Tournament:
            t = store.load(conn, tournament_id, guild=guild)
            if not t.live:
                raise NotAllowed("tournaments.error.over", number=t.id)
            return self.flow.cancel(conn, now, t)

        return await self.db.write(unit)

    # --- players ------------------------------------------------------------------------------------------

    async def join(self, guild: int | None, tournament_id: int, player: int, name: str) -> Tournament:
        """Registered, the fee debited (guarded) in the same unit; refused with the game's reasons when the
        player could not play a match (no playable deck)."""
        now = self.clock.now()

        def unit(conn: Connection) -> Tournament:
            t = store.load(conn, tournament_id, guild=guild)
            if t.status != "open":
                raise NotAllowed("tournaments.error.not_open", number=t.id)
            if store.entry(conn, t.id, player) is not None:
                raise NotAllowed("tournaments.error.already", number=t.id)
            if len(store.entries(conn, t.id)) >= t.max_players:
                raise NotAllowed("tournaments.error.full", number=t.id, count=t.max_players)
            ensure_player(conn, player, now, self.registry)
            self.flow.games[t.game].play.check_entry(conn, now, player)
            if t.fee and t.currency is not None:
                ledger.debit(
                    conn,
                    now,
                    player,
                    self.registry.currency(t.currency) or t.currency,
                    t.fee,
                    ledger.Movement(FEE_REASON, ref=fee_ref(t)),
                )
            store.add_entry(conn, now, t.id, player, name[:NAME_MAX], t.fee)
            return store.save(conn, t, pot=t.pot + t.fee)

        return await self.db.write(unit)

    async def leave(self, guild: int | None, tournament_id: int, player: int) -> Tournament:
        """Out before the start, the fee refunded; once started, a player no longer leaves (absent, they
        lose their matches)."""
        now = self.clock.now()

        def unit(conn: Connection) -> Tournament:
            t = store.load(conn, tournament_id, guild=guild)
            found = store.entry(conn, t.id, player)
            if found is None:
                raise NotAllowed("tournaments.error.not_registered", number=t.id)
            if t.status != "open":
                raise NotAllowed("tournaments.error.started", number=t.id)
            store.remove_entry(conn, t.id, player)
            if found.fee_paid and t.currency is not None:
                ledger.credit(
                    conn,
                    now,
                    player,
                    t.currency,
                    found.fee_paid,
                    ledger.Movement(REFUND_REASON, ref=fee_ref(t)),
                )
            return store.save(conn, t, pot=t.pot - found.fee_paid)

        return await self.db.write(unit)

    # --- reading ------------------------------------------------------------------------------------------

    async def show(self, guild: int | None, tournament_id: int | None) -> MessageSpec:
        """One tournament (its summary and its picture), or the server's live ones."""

        def unit(conn: Connection) -> MessageSpec:
            if tournament_id is None:
                if guild is None:
                    raise BadInput("tournaments.error.server_only")
                live = store.of_guild(conn, guild, store.LIVE)
                lines = [
                    Text(
                        "tournaments.list.line",
                        {
                            "number": t.id,
                            "title": posts.title(t, self.registry),
                            "status": Text(STATUS[t.status]),
                        },
                    )
                    for t in live
                ]
                return MessageSpec(content=Text.lines(lines) if lines else Text("tournaments.list.none"))
            t = store.load(conn, tournament_id, guild=guild)
            entries = store.entries(conn, t.id)
            lines = [posts.summary(t, len(entries))]
            heading = Text("tournaments.heading", {"title": posts.title(t, self.registry), "number": t.id})
            if t.status == "open" or not entries:
                names = [mention(e.player_id) for e in entries] or [Text("tournaments.show.nobody")]
                lines += [Text("tournaments.show.registered"), *names]
                return MessageSpec(embeds=(Embed(heading, Text.lines(lines), color=posts.COLOR),))
            shown = posts.picture(t, self.registry, entries, store.tables(conn, t.id))
            embed = Embed(heading, Text.lines(lines), color=posts.COLOR, image=shown.filename)
            return MessageSpec(embeds=(embed,), pictures=(shown,))

        return await self.db.read(unit)

    async def get(self, tournament_id: int) -> Tournament:
        """For the bot's own callers (tests, the sandbox); never with an id a user typed."""
        return await self.db.read(lambda conn: store.load_trusted(conn, tournament_id))

    async def results_between(self, guild: int, start: datetime, end: datetime) -> list[Finished]:
        """The server's tournaments finished in [start, end), with their podiums (the weekly recap)."""
        return await self.db.read(lambda conn: finished_between(conn, guild, start, end))
