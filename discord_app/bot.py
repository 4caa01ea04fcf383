"""The Discord client: wires services to discord.py at start-up and delivers what services queued."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import logging
import pkgutil
import sys
from collections import OrderedDict
from contextvars import copy_context
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands
from discord.webhook.async_ import async_context

from core.clock import Clock
from core.settings import Settings
from discord_app import welcome
from discord_app.after_command import hooks_of
from discord_app.callbacks import CallbackAdapter
from discord_app.component_router import Clicks, ComponentRouter, Route, click_of
from discord_app.delivery import Deliverer, ShowPrivateButton
from discord_app.errors import GameTree
from discord_app.rate_limit import FleetRateLimit
from discord_app.rest_http import install as install_rest
from discord_app.translator import CatalogTranslator
from services.infra.catalogs import DATA_DIR
from services.infra.container import Services, build_services
from services.infra.games import GameRegistry
from services.infra.heartbeat import PERIOD
from services.infra.rate_limits import Limiter, SharedPause, fleet_size
from store.db import DatabaseClosed

log = logging.getLogger("bot")

GC_THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds once the real process is ready (Python's default: 700, 10, 10). The youngest
generation would be collected every 700 net allocations, several times per command, each time walking
the commands in flight; at 10,000 it is collected a few times a second under load (docs/performance.md has
the measurement). Cyclic garbage waits at most 10,000 allocations longer."""


def settle_collector() -> tuple[int, int, int]:
    """Once start-up built what a process keeps: collect start-up's garbage, freeze what is left
    (`gc.freeze()`: the catalogs, commands and services are never garbage, and no collection walks them
    again) and raise the thresholds (`GC_THRESHOLDS`). Returns the former thresholds.

    The full collection walks every object start-up made (about 115,000 in bot.py: 66 to 81 ms here), so
    it runs before the gateway connects, when no interaction can be waiting for the loop."""
    gc.collect()
    gc.freeze()
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    return before


def freeze_young() -> None:
    """Once ready: freeze what the gateway's first events built (the servers and their channels), after a
    collection of the young generations only, which walks those objects and not start-up's, already frozen.
    A full collection here would pause commands already arriving."""
    gc.collect(1)
    gc.freeze()


MAX_RATELIMIT_WAIT = 30.0  # seconds; a longer Discord rate limit fails fast instead of freezing a command
RECENT_INTERACTIONS = 10_000  # ids remembered to recognise a re-delivered interaction


class RecentIds:
    """The last `capacity` ids seen, oldest forgotten first.

    Discord may deliver the same INTERACTION_CREATE again after a gateway resume; running it twice answers
    an interaction already answered (Discord refuses, every step logs an error) and repeats its work.
    Memory is enough here, unlike a deadline: a re-delivery comes within seconds of the first, in the same
    process (a restarted bot identifies afresh and Discord replays nothing to it), and what a command
    changes is already protected by its idempotency key; this only keeps the second copy quiet.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._ids: OrderedDict[str, None] = OrderedDict()

    def seen(self, value: object) -> bool:
        """True if `value` was seen before; remembers it either way."""
        key = str(value)
        if key in self._ids:
            return True
        self._ids[key] = None
        if len(self._ids) > self.capacity:
            self._ids.popitem(last=False)
        return False


COGS = "cogs"
# Packages of cogs/ that are not a game: the platform's cogs (each module an extension) and shared pieces.
PLATFORM_COGS = "platform"
SHARED_COGS = "shared"
# The module of a game's package that is its extension: the group cog and `setup()`. Not the package
# itself: unloading an extension drops its submodules from sys.modules, and a game's views and mixins
# must stay the modules everything else imported (as when the group cog was one module of `cogs/`).
GAME_COG = "cog"


def _modules(name: str) -> list[pkgutil.ModuleInfo]:
    spec = importlib.util.find_spec(name)
    assert spec is not None, name
    assert spec.submodule_search_locations is not None, name
    return list(pkgutil.iter_modules(spec.submodule_search_locations))


def cog_modules() -> list[str]:
    """Every extension: each game's `cogs/<game>/cog.py`, each module of `cogs/platform/`, and the `cog.py`
    of each platform feature that is a package of its own there (`cogs/platform/drops/cog.py`), for the
    same reason as a game's.

    Found by name, as discord.py loads extensions, so the client layer never imports the cogs above it.
    Loaded in the order of the game's or module's name, as when every cog was one module of `cogs/`.
    """
    games = {
        m.name: f"{COGS}.{m.name}.{GAME_COG}"
        for m in _modules(COGS)
        if m.ispkg and m.name not in (PLATFORM_COGS, SHARED_COGS)
    }
    platform = {
        m.name: f"{COGS}.{PLATFORM_COGS}.{m.name}" + (f".{GAME_COG}" if m.ispkg else "")
        for m in _modules(f"{COGS}.{PLATFORM_COGS}")
    }
    return [name for _, name in sorted({**games, **platform}.items())]


class CardBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        *,
        guild_ready_timeout: float = 2.0,
        data_dir: Path = DATA_DIR,
        extra_extensions: tuple[str, ...] = (),
        services: Services | None = None,
        rng_seed: int | None = None,
        freeze_gc: bool = False,
        registry: GameRegistry | None = None,
    ) -> None:
        """`freeze_gc` (the real process: bot.py) moves what start-up built into the collector's permanent
        generation at the end of `setup_hook` (`gc.freeze()`): the catalogs, the commands, the services are
        never garbage, so no full collection walks them (each walk is a pause of tens of milliseconds, the p99
        of a busy loop: docs/performance.md), and raises the collector's thresholds
        (`settle_collector`); once ready, what the gateway's first events built is frozen too
        (`freeze_young`). Off by default: a test process starts hundreds of bots, and a bot's objects
        stay frozen until it closes (`close` unfreezes them and puts the thresholds back)."""
        intents = discord.Intents.none()
        intents.guilds = True
        sharded = isinstance(self, discord.AutoShardedClient)
        if (settings.shards is not None) != sharded:
            raise TypeError("build the bot with make_bot(): SHARD_COUNT chooses CardBot or ShardedCardBot")
        shards: dict[str, Any] = {}
        if settings.shards is not None:
            shards = {"shard_count": settings.shard_count, "shard_ids": list(settings.shards)}
        # Every REST request waits for this process's share of the global rate limit (discord_app/rate_limit.py)
        self.rate_limit = FleetRateLimit(Limiter(fleet_size(settings.shard_count, settings.shards)))
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
            http_trace=self.rate_limit.trace,
            guild_ready_timeout=guild_ready_timeout,
            **shards,
        )
        self.settings = settings
        self.clock = clock
        self.data_dir = data_dir
        self.extra_extensions = extra_extensions
        self.rng_seed = rng_seed  # None in production: the games draw from random.SystemRandom()
        self.registry = registry  # None in production: every game package's (GameRegistry.discover())
        self.freeze_gc = freeze_gc
        self.gc_frozen = False
        self._young_frozen = False
        self._gc_thresholds = gc.get_threshold()
        self._services: Services | None = services
        self.deliverer: Deliverer | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._shared_pause: SharedPause | None = None
        self.recent_interactions = RecentIds(RECENT_INTERACTIONS)
        parsers = self._connection.parsers  # the gateway reads this same dict, now and after reconnecting
        parse_interaction = parsers["INTERACTION_CREATE"]
        self.callbacks = adapter = CallbackAdapter()

        def parse_once(data: dict[str, Any]) -> None:
            """Parse a new interaction with `CallbackAdapter` in its context, which the tasks started for
            it inherit; a click one of the bot's components claims goes to it directly."""
            if self.recent_interactions.seen(data.get("id")):
                log.info("ignored a re-delivered interaction %s", data.get("id"))
                return
            context = copy_context()
            context.run(async_context.set, adapter)
            click = click_of(data)
            routes = self.components.find(*click) if click is not None else None
            if click is None or routes is None:
                context.run(parse_interaction, data)
                return
            context.run(self._route_click, data, routes, *click)

        self.components = ComponentRouter()
        self.clicks = Clicks()
        parsers["INTERACTION_CREATE"] = parse_once
        self._connection.store_view = self._keep_only_modals  # type: ignore[method-assign]

    def _route_click(self, data: dict[str, Any], routes: list[Route], custom_id: str, kind: int) -> None:
        """discord.py's parsing of a click, with the router in place of its dispatch of DynamicItems."""
        interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self._connection)  # type: ignore[arg-type]
        for route in routes:
            self.clicks.start(route, interaction, custom_id, kind)
        self.dispatch("interaction", interaction)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.components.add(*items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self.components.remove(*items)

    def _keep_only_modals(self, view: discord.ui.view.BaseView, message_id: int | None = None) -> None:
        """Every component of this bot answers through a DynamicItem registered at start-up (matched by its
        custom_id, on any message, after any restart), so the views it sends need no keeping.

        discord.py keeps each sent view by default: an ephemeral one with a 15-minute timer (300 replies
        a second hold 270,000 timers in the loop's heap), a public one with plain buttons in a map that
        never forgets it. Only a modal would need it, and none is sent today; it is kept if one ever is."""
        if view.__discord_ui_modal__:
            self._connection._view_store.add_view(view, message_id)

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("services are not ready before setup_hook")
        return self._services

    @property
    def game_tree(self) -> GameTree:
        assert isinstance(self.tree, GameTree)
        return self.tree

    async def setup_hook(self) -> None:
        # 0. discord.py's REST requests over the bot's own keep-alive connections (discord_app/rest_http.py)
        install_rest(self.http, self.rate_limit)
        # 1. database (opened and migrated) and services
        if self._services is None:
            self._services = await build_services(
                self.settings,
                self.clock,
                data_dir=self.data_dir,
                rng_seed=self.rng_seed,
                registry=self.registry,
            )
        self._shared_pause = SharedPause(self._services.db, self.rate_limit.limiter)
        await self._shared_pause.start()
        self.rate_limit.share(self._shared_pause.publish)
        # 2. cogs; each registers its own persistent components (DynamicItems) in its setup()
        await self.tree.set_translator(CatalogTranslator())
        for name in (*cog_modules(), *self.extra_extensions):
            await self.load_extension(name)
        self.add_dynamic_items(ShowPrivateButton)
        # 3. games catch up with the time the bot was down, before any deadline fires
        last_seen = await self._services.heartbeat.beat()
        self._count_fleet()
        for game in self._services.games.values():
            hook = getattr(game, "on_startup", None)
            if hook is not None:
                await hook(last_seen)
        self._heartbeat = asyncio.create_task(self._beat_forever(), name="heartbeat")
        # 4. outbox delivery and the scheduler
        self.deliverer = Deliverer(self, self._services)
        self.deliverer.start()
        await self._services.scheduler.start()
        # 5. instant sync to the development server; global sync is the owner's /admin sync
        await self._sync_dev_guild()
        # 6. start-up's objects out of the collector's reach, before the gateway brings any interaction
        if self.freeze_gc and not self.gc_frozen:
            self._gc_thresholds = settle_collector()
            self.gc_frozen = True
            self._young_frozen = False

    async def _sync_dev_guild(self) -> None:
        """Sync the commands to DEV_GUILD_ID, from the one process holding that server's shard.

        Every process of a sharded bot loads the same commands, so one sync is enough, and the process that
        receives the server's interactions is the one whose start-up the developer is waiting for. Any
        other process would only repeat the same PUT (and spend the route's rate limit)."""
        guild_id = self.settings.dev_guild_id
        if not guild_id:
            return
        if not self.settings.holds(guild_id):
            log.info("commands of guild %s are synced by the process holding its shard", guild_id)
            return
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands to guild %s", len(synced), guild_id)

    async def _beat_forever(self) -> None:
        wake = asyncio.Event()
        while True:
            await self.clock.sleep_until(self.clock.now() + PERIOD, wake)
            try:
                await self.services.heartbeat.beat()
            except Exception:  # a missed beat only makes a later downtime look longer
                log.exception("heartbeat failed")
            self._count_fleet()

    def _count_fleet(self) -> None:
        """This process's share of the global rate limit follows the processes the last beat counted."""
        settings, live = self.settings, self.services.heartbeat.fleet
        self.rate_limit.limiter.processes = fleet_size(settings.shard_count, settings.shards, live)

    async def close(self) -> None:
        """Stop starting work, commit what the writer holds, leave the last heartbeat, then leave Discord.

        Discord goes last so that a command already running can still answer; its writes are refused once
        the database is closed. The scheduler stops before the last beat, whose commit would wake it.
        """
        self._drop_pending_ready()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self.deliverer is not None:
            await self.deliverer.stop()
        if self._shared_pause is not None:
            self.rate_limit.share(None)
            await self._shared_pause.close()
            self._shared_pause = None
        if self._services is not None:
            await self._services.scheduler.stop()
            await self._services.heartbeat.beat()
            await self._services.close()
            self._services = None
        if self.gc_frozen:
            gc.unfreeze()  # what start-up froze may become garbage now (a restart in the same process)
            gc.set_threshold(*self._gc_thresholds)
            self.gc_frozen = False
        await super().close()
        await self.callbacks.close()  # after discord.py's close: no interaction is answered any more

    def _drop_pending_ready(self) -> None:
        """A close within `guild_ready_timeout` of connecting must not let discord.py fire `ready` after.

        discord.py waits that long after the last GUILD_CREATE before it dispatches `ready`, and its close
        does not stop that wait: the wait then ends on a closed client and dispatches into no loop (an
        AttributeError in a task nobody awaits, logged as an error at every such stop).
        """
        state = self._connection
        pending = [getattr(state, "_ready_task", None), *getattr(state, "_ready_tasks", {}).values()]
        for task in pending:
            if task is not None and not task.done():
                task.cancel()

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """Errors outside slash commands (event handlers): logged, and kept so tests fail on them."""
        error = sys.exc_info()[1]
        log.exception("unexpected error in event %s", event_method)
        if error is not None:
            self.game_tree.unexpected_errors.append(error)

    async def on_app_command_completion(self, interaction: discord.Interaction[Any], command: Any) -> None:
        """The welcome a first command showed is recorded (discord_app/welcome.py), then the cogs' hooks
        run (discord_app/after_command.py); a hook that fails is logged and kept like any event's error,
        and the next ones still run."""
        await welcome.claim(interaction, self.services.players)
        for hook in list(hooks_of(self)):
            try:
                await hook(interaction, command)
            except DatabaseClosed:
                log.info("after-command hook skipped: the database closed during shutdown")
            except Exception:
                await self.on_error("app_command_completion", interaction, command)

    async def on_ready(self) -> None:
        if self.gc_frozen and not self._young_frozen:
            # the first ready only: a reconnection builds nothing new
            freeze_young()
            self._young_frozen = True
        log.info(
            "logged in as %s (%s) in %d servers%s",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
            "" if self.settings.shards is None else f", shards {list(self.settings.shards)}",
        )


class ShardedCardBot(CardBot, commands.AutoShardedBot):
    """The same bot over the shards SHARD_IDS names (of SHARD_COUNT): discord.py opens one gateway connection
    per shard, and Discord sends each connection the events of its servers only (DMs to shard 0). Nothing
    else differs: jobs go through the shared database's claims, and the deliverer sends the posts of its own
    shards' servers (services/infra/shards.py, given the same settings by build_services)."""


def make_bot(settings: Settings, clock: Clock, **options: Any) -> CardBot:
    """The bot SHARD_COUNT asks for: one unsharded connection, or this process's shards."""
    cls = CardBot if settings.shards is None else ShardedCardBot
    return cls(settings, clock, **options)
