"""The real bot, unmodified, connected to the in-repo Discord emulator, with a clock we can move.

The sandbox and the end-to-end tests both run on this: only the Discord endpoint and the clock
differ from production.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta
from pathlib import Path

from core.clock import ManualClock
from core.settings import Settings
from discord_app.bot import CardBot
from discord_app.component_router import CLICK_TASK
from emulator import DiscordEmulator
from emulator.world import Channel, Guild, User
from engine.rng import derive
from services.infra.catalogs import DATA_DIR
from services.infra.games import GameRegistry
from store.connection import Connection

GUILD_NAME = "Club des cartes"
GAMES_CHANNEL = "parties"


def _done_jobs(conn: Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM jobs WHERE state = 'done'").fetchone()[0])


# The names of the tasks that run one event, one interaction, one click (the bot's router, then discord.py's
# view, dynamic item and modal dispatch); a view's timeout task sleeps for as long as the view lives and is
# not one of them.
_HANDLER_TASKS = (
    CLICK_TASK,
    "discord.py: ",
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)


def _event_handlers() -> set[asyncio.Task[object]]:
    current = asyncio.current_task()
    return {
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(_HANDLER_TASKS)
    }


class BotHarness:
    def __init__(
        self,
        db_path: Path,
        *,
        clock: ManualClock | None = None,
        owners: tuple[str, ...] = (),
        data_dir: Path = DATA_DIR,
        extra_extensions: tuple[str, ...] = (),
        seed: int | None = None,
        freeze_gc: bool = False,
        database_url: str | None = None,
        registry: GameRegistry | None = None,
    ) -> None:
        self.db_path = db_path
        self.database_url = database_url  # wins over `db_path` (a PostgreSQL database: benchmarks)
        self.freeze_gc = freeze_gc  # as the real process does (benchmarks); see CardBot
        self.data_dir = data_dir
        self.extra_extensions = extra_extensions
        self.registry = registry  # the games served; None: every game package's
        self.clock = clock or ManualClock()
        self.owners = owners
        self.seed = seed  # a seeded random stream for the games: the same steps give the same run
        self.emu = DiscordEmulator(app_name="Cartes & Duels", clock=lambda: self.clock.now().timestamp())
        self.bot: CardBot | None = None
        self.guild: Guild | None = None
        self.games_channel: Channel | None = None
        self._task: asyncio.Task[None] | None = None
        self.owner_ids: frozenset[int] = frozenset()
        self.starts = 0  # bot processes started so far: each restart draws from its own seeded stream

    async def start(self) -> None:
        emu = self.emu
        emu.enforce_default_permissions = True  # hide admin commands from members, as the Discord client does
        emu.bare_deferred_updates = False  # every deferred click of the bot ends with an edit or a follow-up
        await emu.start()
        emu.install()
        self.guild = emu.add_guild(GUILD_NAME, locale="fr")
        self.games_channel = emu.add_channel(self.guild, GAMES_CHANNEL)
        self.owner_ids = frozenset(emu.add_user(name, locale="fr", admin=True).id for name in self.owners)
        await self._start_bot()

    def _new_bot(self) -> CardBot:
        """The bot of the next start: its settings point at the emulator, its random stream is the next."""
        emu = self.emu
        assert self.guild is not None
        settings = Settings(
            _env_file=None,
            discord_token=emu.bot_token,
            database_path=self.db_path,
            dev_guild_id=self.guild.id,
            owner_ids=self.owner_ids,
            shard_count=None,  # one connection whatever the environment says: the sandbox is one process
            shard_ids=None,
        )
        if self.database_url:  # only when given: otherwise DATABASE_URL from the environment wins (e2e tests)
            settings = settings.model_copy(update={"database_url": self.database_url})
        bot = CardBot(
            settings,
            self.clock,
            # discord.py fires `ready` this long after the last GUILD_CREATE: idle time at every start.
            # The emulator's `wait_ready` below already proves the guild was processed.
            guild_ready_timeout=0.01,
            data_dir=self.data_dir,
            extra_extensions=self.extra_extensions,
            registry=self.registry,
            rng_seed=self.seed
            if self.seed is None or not self.starts
            else derive(self.seed, "start", self.starts),
            freeze_gc=self.freeze_gc,
        )
        self.starts += 1
        return bot

    async def _start_bot(self) -> None:
        emu = self.emu
        self.bot = self._new_bot()
        emu.gateway.ready.clear()  # after a restart: wait for this process's identify, not the last one's
        self._task = asyncio.create_task(self.bot.start(emu.bot_token), name="bot")
        ready = asyncio.create_task(emu.wait_ready(timeout=20))
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            ready.cancel()
            self._task.result()  # re-raise why the bot stopped (e.g. a broken catalog)
            raise RuntimeError("the bot stopped during start-up")
        ready.result()
        await asyncio.wait_for(self.bot.wait_until_ready(), timeout=20)  # 'ready' dispatched, not just sent

    async def _stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._task
        self.bot, self._task = None, None

    async def restart(self, down: timedelta) -> int:
        """Stop the bot, let `down` pass with no bot running, start a new one on the same database; returns
        how many jobs the new process ran at start-up (the deadlines that passed while it was down).

        Discord (the emulator) keeps running, as it does: the messages, users and channels stay. The new
        process draws from a stream of its own, derived from the script's seed (a process reseeded with the
        same seed would draw the same raffle seeds again), so a seeded script stays repeatable."""
        assert self.bot is not None
        before = await self.bot.services.db.read(_done_jobs)  # nothing runs while down: counted now
        await self._stop_bot()
        self.clock.advance(down)
        await self._start_bot()
        assert self.bot is not None
        await self.bot.services.scheduler.run_due()
        await self.settle()
        return await self.bot.services.db.read(_done_jobs) - before

    async def stop(self) -> None:
        await self._stop_bot()
        self.emu.uninstall()
        await self.emu.stop()

    def user(self, name: str, *, locale: str = "fr", admin: bool = False, dms_closed: bool = False) -> User:
        existing = self.emu.world.user_named(name)
        if existing is not None:
            return existing
        return self.emu.add_user(
            name, locale=locale, admin=admin or name in self.owners, dms_closed=dms_closed
        )

    async def settle(self, *, deliver: bool = True) -> None:
        """Let the bot deliver what its services queued (outbox), then wait until Discord traffic stops and
        no event handler of the bot is still running. `deliver=False` leaves the outbox to the bot's own
        deliverer, as in production, whose record of the posts it sent may still be riding with the next
        commit (discord_app/delivery.py): what a command costs the database, measured.

        Traffic alone is not enough: a handler waiting on the database (a command's completion hook that
        checks for a notice, on PostgreSQL a round trip to the server) makes no request for a while, and a
        loaded machine makes that while longer than the emulator's idle time."""
        assert self.bot is not None
        assert self.bot.deliverer is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.emu.action_timeout
        while True:
            if deliver:
                await self.bot.deliverer.flush()
            await self.emu.settle()
            running = _event_handlers()
            if not running:
                return
            if loop.time() > deadline:
                names = sorted(task.get_name() for task in running)
                raise RuntimeError(f"the bot's handlers were still running after settling: {names}")
            await asyncio.wait(running, timeout=max(deadline - loop.time(), 0))

    async def advance(self, delta: timedelta) -> int:
        """Move the bot's clock and run whatever fell due; returns how many jobs fired.

        Moving the clock also wakes the bot's own dispatcher, which fires some of those jobs while
        `run_due` fires the others: the count is read from the jobs table, whoever fired them, so that a
        transcript does not depend on which of the two claimed a job first. When `run_due` returns, no job
        due is left unclaimed (each claim commits with its job's effects). What the users' last commands
        still do after their replies (a follow-up, a welcome) ends first, at the time they were made."""
        assert self.bot is not None
        db = self.bot.services.db
        await self.settle()
        before = await db.read(_done_jobs)
        self.clock.advance(delta)
        await self.bot.services.scheduler.run_due()
        await self.settle()
        return await db.read(_done_jobs) - before

    @property
    def unexpected_errors(self) -> list[BaseException]:
        return [] if self.bot is None else list(self.bot.game_tree.unexpected_errors)
